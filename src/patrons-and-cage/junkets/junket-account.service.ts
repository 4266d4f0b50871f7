import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../platform/common/context';
import { AppError } from '../../platform/common/errors';
import { minorUnits } from '../../platform/common/exact-json';
import { assertDayRange } from '../../platform/common/validation';
import { PrismaService } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import { AccountEntryKind, admitEntry, balanceEffect } from '../../domain';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { seal } from '../../foundation/ledger/seals';
import { AccountEntryDto, AccountEntryInputDto, PeriodQueryDto } from './dto/junkets.dto';
import { balanceBefore, findJunket, JUNKETS_STREAM, todayAt } from './junket-operator';
import { entryDto } from './junket-rows';
import { JUNKETS_SQL as SQL } from './junkets-sql';

/**
 * The junket operator's account with the casino (docs/domain.md §16): markers, repayments and
 * payouts, dated today, and the account over a range of gaming days with the balance after each
 * entry. Agreed statements credit their commission and allowances (JunketStatementsService).
 */
@Injectable()
export class JunketAccountService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
  ) {}

  /** A marker, a repayment or a payout on the junket's account, dated today. */
  async addEntry(junketId: string, dto: AccountEntryInputDto, ctx: RequestContext): Promise<AccountEntryDto> {
    if ((dto.kind === 'MARKER') !== (dto.method === undefined))
      throw new AppError(
        'VALIDATION_FAILED',
        dto.kind === 'MARKER' ? 'A marker has no payment method' : `A ${dto.kind.toLowerCase()} says how it was paid: method`,
      );
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await findJunket(tx, junketId);
      const db = prismaRunner(tx);
      await db.run(SQL.lockJunket.bind({ junketId: op.id }));
      const balance = await balanceBefore(db, op.id, null);
      const amount = BigInt(dto.amount);
      admitEntry(dto.kind, amount, balance, op.creditLimit);
      const now = new Date();
      const row = await tx.junketAccountEntry.create({
        data: {
          id: randomUUID(),
          operatorId: op.id,
          kind: dto.kind,
          amount,
          currency: op.currency,
          method: dto.method ?? null,
          gamingDay: new Date(`${await todayAt(tx, op.propertyId, now)}T00:00:00Z`),
          at: now,
          recordedByKeyId: ctx.actor.keyId,
        },
      });
      const out = entryDto(row, balance + balanceEffect({ kind: dto.kind, amount }));
      await this.audit.append(tx, ctx, {
        stream: JUNKETS_STREAM,
        action: 'junket.entry',
        entityType: 'junket',
        entityId: op.id,
        data: { ...out, amount, balance: balance + balanceEffect({ kind: dto.kind, amount }) },
        seals: [seal('junket_account_entries', row.id)],
      });
      return out;
    });
  }

  /** The junket's account entries over a range of gaming days, each with the balance after it. */
  async entries(junketId: string, q: PeriodQueryDto): Promise<AccountEntryDto[]> {
    assertDayRange(q.from, q.to);
    const op = await findJunket(this.prisma, junketId);
    const db = prismaRunner(this.prisma);
    let balance = await balanceBefore(db, op.id, q.from);
    const rows = await db.query<{
      id: string;
      kind: AccountEntryKind;
      amount: string;
      currency: string;
      method: string | null;
      statementId: string | null;
      gamingDay: string;
      at: Date;
      recordedByKeyId: string;
    }>(SQL.junketEntries.bind({ junketId: op.id, from: q.from, to: q.to }));
    return rows.map((r) => {
      balance += balanceEffect({ kind: r.kind, amount: BigInt(r.amount) });
      return {
        id: r.id,
        kind: r.kind,
        amount: minorUnits(BigInt(r.amount)),
        currency: r.currency,
        method: r.method,
        statementId: r.statementId,
        gamingDay: r.gamingDay,
        at: r.at.toISOString(),
        recordedByKeyId: r.recordedByKeyId,
        balance: minorUnits(balance),
      };
    });
  }
}
