import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../platform/common/context';
import { Actor } from '../../platform/common/actor';
import { AppError, notFound } from '../../platform/common/errors';
import { Metrics } from '../../platform/common/metrics';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { nextCoupNumber } from '../../domain';
import { PitService, ReadShoe } from '../../foundation/pit/pit.service';
import { PitChanges } from '../../foundation/pit/pit-changes';
import { prismaRunner } from '../../platform/database/sql';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { seal } from '../../foundation/ledger/seals';
import { AddWagersDto, CoupDto, HandsDto, RecordCoupDto, WagerDto } from './dto/coup.dto';
import { assertCasinoBanked, auditWager, CoupSettlement, parseHands, storedWager } from './coup-settlement';
import { describeCoup, toWagerDto } from './coup-answers';

/**
 * A coup recorded step by step: opened for betting, wagers added, a carried tie bet withdrawn, then
 * its cards, settled by the same settlement path as a whole coup (CoupSettlement).
 */
@Injectable()
export class StepwiseCoupsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pit: PitService,
    private readonly changes: PitChanges,
    private readonly audit: AuditLog,
    private readonly settlement: CoupSettlement,
    private readonly metrics: Metrics,
  ) {}

  /** A coup opened for betting; its cards come later. */
  async openForBetting(shoeId: string, dto: RecordCoupDto, ctx: RequestContext): Promise<CoupDto> {
    const { actor } = ctx;
    return this.prisma.transaction(ctx, async (tx) => {
      const db = prismaRunner(tx);
      const locked = await this.pit.lock(tx, shoeId, actor, { mustBeOpen: true });
      assertCasinoBanked(locked.table);
      const { shoe } = locked;
      const number = nextCoupNumber(locked.shoe, dto.number);
      const fresh = await this.settlement.newWagers(db, locked, dto.wagers);
      const carried = locked.carried.map((w) => w.id);
      const coupId = randomUUID();
      const openedAt = new Date();
      await tx.coup.create({
        data: {
          id: coupId,
          shoeId,
          tableId: shoe.tableId,
          propertyId: shoe.propertyId,
          number,
          status: 'BETTING',
          playerCards: [],
          bankerCards: [],
          openedAt,
          limitsId: shoe.limitsId,
        },
      });
      await this.changes.openCoup(db, shoe, { id: coupId, number }, carried, fresh, openedAt);
      await this.audit.append(tx, ctx, {
        stream: shoe.tableId,
        action: 'coup.open',
        entityType: 'coup',
        entityId: coupId,
        data: { shoeId, number, openedAt: openedAt.toISOString(), wagers: fresh.map(auditWager), carried },
        seals: [seal('coups', coupId), ...fresh.map((w) => seal('wagers', w.id))],
      });
      return describeCoup(tx, coupId);
    });
  }

  /** Adds wagers to a coup that is taking bets. */
  addWagers(coupId: string, dto: AddWagersDto, ctx: RequestContext): Promise<CoupDto> {
    const { actor } = ctx;
    return this.prisma.transaction(ctx, async (tx) => {
      const db = prismaRunner(tx);
      const locked = await this.lockOpenCoup(tx, coupId, actor);
      const { shoe } = locked;
      const wagers = await this.settlement.newWagers(db, locked, dto.wagers);
      const placedAt = new Date();
      await this.changes.placeWagers(db, shoe, coupId, wagers, placedAt);
      await this.audit.append(tx, ctx, {
        stream: shoe.tableId,
        action: 'coup.wagers',
        entityType: 'coup',
        entityId: coupId,
        data: { placedAt: placedAt.toISOString(), wagers: wagers.map(auditWager) },
        seals: wagers.map((w) => seal('wagers', w.id)),
      });
      return describeCoup(tx, coupId);
    });
  }

  /** Records the cards of a coup that was taking bets, and settles every wager on it. */
  async recordCards(coupId: string, dto: HandsDto, ctx: RequestContext): Promise<CoupDto> {
    const coup = await this.dealOpenCoup(coupId, dto, ctx);
    this.metrics.settled(coup.wagers.filter((w) => w.status !== 'WITHDRAWN').length);
    return coup;
  }

  private dealOpenCoup(coupId: string, dto: HandsDto, ctx: RequestContext): Promise<CoupDto> {
    const { actor } = ctx;
    const hands = parseHands(dto);
    return this.prisma.transaction(ctx, async (tx) => {
      const locked = await this.lockOpenCoup(tx, coupId, actor);
      const coup = await tx.coup.findFirstOrThrow({ where: { id: coupId, gamingDay: null }, select: { number: true } });
      const wagers = (await tx.wager.findMany({ where: { coupId, gamingDay: null, status: 'OPEN' } })).map(storedWager);
      const plan = this.settlement.plan(ctx, locked, { id: coupId, number: coup.number, isNew: false }, hands, wagers);
      // The answer is stored by the transaction around this, from the stored rows (below).
      if ((await this.settlement.write(prismaRunner(tx), { ...ctx, idempotency: null }, plan, locked.version, null)) === null)
        throw new Error(`Coup ${coupId}: the shoe moved under its lock`);
      // The coup may also hold withdrawn wagers: answer from the stored rows, as GET does.
      return describeCoup(tx, coupId);
    });
  }

  /** Withdraws a carried tie bet before the cards of its coup are recorded. */
  withdraw(wagerId: string, ctx: RequestContext): Promise<WagerDto> {
    const { actor } = ctx;
    return this.prisma.transaction(ctx, async (tx) => {
      const found = await tx.wager.findUnique({ where: { id: wagerId }, select: { shoeId: true } });
      if (!found) throw notFound('Wager', wagerId);
      const { shoe } = await this.pit.lock(tx, found.shoeId, actor, { mustBeOpen: true });
      const wager = await tx.wager.findUniqueOrThrow({ where: { id: wagerId } });
      if (wager.status !== 'OPEN' || wager.carriedFromId === null) {
        throw new AppError(
          'WAGER_NOT_WITHDRAWABLE',
          wager.status !== 'OPEN'
            ? `This wager is ${wager.status.toLowerCase()} and can no longer be withdrawn`
            : 'Only a tie bet carried to the next coup can be withdrawn',
        );
      }
      await this.changes.withdraw(prismaRunner(tx), found.shoeId, wagerId);
      const withdrawn = await tx.wager.findUniqueOrThrow({ where: { id: wagerId } });
      await this.audit.append(tx, ctx, {
        stream: shoe.tableId,
        action: 'wager.withdraw',
        entityType: 'wager',
        entityId: wagerId,
        data: { carriedFromId: withdrawn.carriedFromId, amount: withdrawn.amount },
        seals: [seal('wagers', wagerId)],
      });
      return toWagerDto(withdrawn);
    });
  }

  private async lockOpenCoup(tx: Tx, coupId: string, actor: Actor): Promise<ReadShoe> {
    // A coup taking bets has no gaming day yet: it is in the ledger's open partition, read alone.
    // Only a coup that is not (for the error) is looked for in every month.
    const select = { shoeId: true, number: true } as const;
    const coup = (await tx.coup.findFirst({ where: { id: coupId, gamingDay: null }, select })) ?? (await tx.coup.findUnique({ where: { id: coupId }, select }));
    if (!coup) throw notFound('Coup', coupId);
    const locked = await this.pit.lock(tx, coup.shoeId, actor, { mustBeOpen: true });
    if (locked.shoe.openCoupId !== coupId) throw new AppError('COUP_NOT_TAKING_BETS', `Coup ${coup.number} is not taking bets`);
    return locked;
  }
}
