import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../platform/common/context';
import { AppError } from '../../platform/common/errors';
import { minorUnits } from '../../platform/common/exact-json';
import { PrismaService } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { seal } from '../../foundation/ledger/seals';
import { PitService } from '../../foundation/pit/pit.service';
import { PlayerCreditDto, PlayerCreditInputDto } from './dto/junkets.dto';
import { findJunket, JUNKETS_STREAM, todayAt } from './junket-operator';
import { AgreedRow } from './junket-rows';
import { JUNKETS_SQL as SQL } from './junkets-sql';

/**
 * The junket's own credit to its players, as the junket reports it (docs/domain.md §16): advances
 * and repayments outside the casino's books, kept beside them for the statement.
 */
@Injectable()
export class JunketPlayerCreditService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    private readonly pit: PitService,
  ) {}

  /** Credit the junket reports it gave its player (or the player's repayment): outside the casino's books, kept beside them. */
  async addPlayerCredit(junketId: string, dto: PlayerCreditInputDto, ctx: RequestContext): Promise<PlayerCreditDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await findJunket(tx, junketId);
      const db = prismaRunner(tx);
      await this.pit.assertRegistered(db, [dto.patronId]);
      await db.run(SQL.lockJunket.bind({ junketId: op.id }));
      const now = new Date();
      const today = await todayAt(tx, op.propertyId, now);
      const day = dto.gamingDay ?? today;
      if (day > today) throw new AppError('VALIDATION_FAILED', `The junket reports credit already given: ${day} is after today, ${today}`);
      if (!(await tx.junketMembership.findFirst({ where: { operatorId: op.id, patronId: dto.patronId }, select: { id: true } })))
        throw new AppError('NOT_FOUND', `Patron ${dto.patronId} has never been a member of junket ${op.code}: the junket's credit to its players is theirs`);
      if (dto.kind === 'REPAYMENT') {
        const [{ owes }] = await db.query<{ owes: string }>(SQL.junketPlayerOwes.bind({ junketId: op.id, patronId: dto.patronId }));
        if (BigInt(dto.amount) > BigInt(owes))
          throw new AppError(
            'JUNKET_OVERPAID',
            `As the junket reports it, patron ${dto.patronId} owes it ${owes} (minor units): a repayment of ${dto.amount} is more than that`,
            {
              balance: BigInt(owes),
            },
          );
      }
      const agreed = await db.query<AgreedRow>(SQL.junketAgreed.bind({ junketId: op.id }));
      const last = agreed.at(-1);
      if (last && day <= last.to)
        throw new AppError('JUNKET_PERIOD_LOCKED', `Junket ${op.code}'s statement to ${last.to} is agreed: credit is reported for a later day`, {
          from: last.from,
          to: last.to,
        });
      const id = randomUUID();
      await tx.junketPlayerCredit.create({
        data: {
          id,
          operatorId: op.id,
          patronId: dto.patronId,
          kind: dto.kind,
          amount: BigInt(dto.amount),
          currency: op.currency,
          gamingDay: new Date(`${day}T00:00:00Z`),
          recordedByKeyId: ctx.actor.keyId,
          recordedAt: now,
        },
      });
      const out: PlayerCreditDto = {
        id,
        patronId: dto.patronId,
        kind: dto.kind,
        amount: minorUnits(BigInt(dto.amount)),
        currency: op.currency,
        gamingDay: day,
        recordedByKeyId: ctx.actor.keyId,
        recordedAt: now.toISOString(),
      };
      await this.audit.append(tx, ctx, {
        stream: JUNKETS_STREAM,
        action: 'junket.player-credit',
        entityType: 'junket',
        entityId: op.id,
        data: { ...out, amount: BigInt(dto.amount) },
        seals: [seal('junket_player_credit', id)],
      });
      return out;
    });
  }
}
