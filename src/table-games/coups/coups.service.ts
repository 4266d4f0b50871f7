import { PitService } from '../../foundation/pit/pit.service';
import { minorUnits, minorUnitsOrNull } from '../../platform/common/exact-json';
import type { RequestContext } from '../../platform/common/context';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Actor, assertTableAccess } from '../../platform/common/actor';
import { AppError, notFound } from '../../platform/common/errors';
import { Metrics } from '../../platform/common/metrics';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import {
  admitChips,
  admitWager,
  attributeWager,
  BetType,
  chipsOf,
  Card,
  dealFrom,
  evaluateCoup,
  formatCard,
  gamingDayOf,
  isCasinoBanked,
  nextCoupNumber,
  outcomeOf,
  parseCards,
  settleWager,
} from '../../domain';
import { CasinoTable, Coup, CoupVoid, Wager } from '../../generated/prisma/client';
import { CarriedWager, ReadShoe } from '../../foundation/pit/pit.service';
import { PitChanges } from '../../foundation/pit/pit-changes';
import { rollupParams } from '../../foundation/ledger/rollups';
import { answerParams } from '../../platform/database/idempotent-answers';
import { pgRunner, prismaRunner, SqlRunner } from '../../platform/database/sql';
import { AuditLog } from '../../foundation/ledger/audit-log';
import type { AuditParams, RollupParams } from '../../foundation/ledger/ledger-sql';
import { AccessService } from '../../foundation/access/access.service';
import { COUPS_SQL, CoupWriteParams } from './coups-sql';
import { rulesOf, TableWithClock, theoryOf } from '../../foundation/pit/table-rules';
import { seal } from '../../foundation/ledger/seals';
import { AddWagersDto, CoupDto, HandsDto, RecordCoupDto, WagerDto, WagerInputDto } from './dto/coup.dto';

interface Hands {
  player: Card[];
  banker: Card[];
}

/** A wager about to be settled: a new one from this request, or an OPEN row already stored. */
interface PendingWager {
  id: string;
  stored: boolean;
  seat: number;
  betType: BetType;
  amount: bigint;
  patronId: string | null;
  /** The visit (seating) the wager was played in. */
  seatingId: string | null;
  carriedFromId: string | null;
  /** Placed in dead (non-negotiable) chips: lost, they are rolled; won, paid in cash chips (src/domain/patrons/rolling.ts). */
  dead: boolean;
}

/** SQLSTATE of a statement that undid itself: computed from a state that changed under it (sabot_assert). */
const STALE_STATEMENT = 'SB001';

const parseHands = (h: HandsDto): Hands => ({ player: parseCards(h.player), banker: parseCards(h.banker) });

@Injectable()
export class CoupsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pit: PitService,
    private readonly changes: PitChanges,
    private readonly audit: AuditLog,
    private readonly keys: AccessService,
    private readonly metrics: Metrics,
  ) {}

  /**
   * Records a coup. With cards: the whole coup, settled at once. Without: the coup opens for
   * betting. Any error leaves no trace and uses no number.
   */
  async record(shoeId: string, dto: RecordCoupDto, ctx: RequestContext): Promise<CoupDto> {
    if (!dto.cards) {
      await this.confirmKey(ctx.actor);
      return this.openForBetting(shoeId, dto, ctx);
    }
    const coup = await this.settleWhole(shoeId, dto.cards, dto, ctx);
    this.metrics.settled(coup.wagers.length);
    return coup;
  }

  /**
   * A caller recognised from memory (AccessService) is confirmed by the settlement statement
   * itself; a request that goes any other way confirms its key here first, once.
   */
  private async confirmKey(actor: Actor): Promise<void> {
    if (actor.unconfirmed && !(await this.keys.isValid(actor.keyId, actor.keyHash ?? null)))
      throw new AppError('UNAUTHENTICATED', 'This API key is unknown, revoked or expired');
  }

  /**
   * A whole coup: settle in memory from the shoe as this instance's last coup of it left it (else
   * from a read of it), and write everything in the one settlement statement, which applies only if
   * the shoe has not moved since (and, for a caller recognised from memory, only if the key is still
   * valid). When the shoe moved, the same again from a read; when it moved again, behind the shoe's
   * row lock.
   */
  private async settleWhole(shoeId: string, cards: HandsDto, dto: RecordCoupDto, ctx: RequestContext): Promise<CoupDto> {
    const { actor } = ctx;
    const pool = pgRunner(this.prisma.pool);
    const confirm = actor.unconfirmed ? actor : null;
    let hands: Hands;
    let table: TableWithClock;
    try {
      // Inside: a caller recognised from memory learns nothing (not even that a shoe exists) before its key is confirmed.
      hands = parseHands(cards);
      table = await this.pit.tableOf(shoeId);
      const remembered = this.pit.remembered(shoeId, actor, table);
      if (remembered) {
        // Computed from memory: an error may come from what changed since (cards returned to the
        // shoe by a void, say), so it is only believed from a read.
        const plan = await this.planWhole(ctx, pool, remembered, hands, dto).catch(() => null);
        const written = plan && (await this.write(pool, ctx, plan, remembered.version, confirm));
        if (plan && written) return this.settled(remembered, plan, written);
        this.pit.forget(shoeId);
      }
      const read = await this.pit.snapshot(shoeId, actor, table);
      const plan = await this.planWhole(ctx, pool, read, hands, dto);
      const written = await this.write(pool, ctx, plan, read.version, confirm);
      if (written) return this.settled(read, plan, written);
    } catch (e) {
      await this.confirmKey(actor);
      throw e;
    }
    await this.confirmKey(actor);
    return this.prisma.rawTransaction(ctx, async (client) => {
      const db = pgRunner(client);
      const read = await this.pit.lockRaw(client, shoeId, actor, table);
      const plan = await this.planWhole(ctx, db, read, hands, dto);
      const written = await this.write(db, ctx, plan, read.version, null);
      if (!written) throw new Error(`Coup ${plan.dto.id}: the shoe moved under its lock`);
      return this.settled(read, plan, written);
    });
  }

  /** A whole coup written: the pit remembers the shoe as it left it; the answer. */
  private settled(read: ReadShoe, plan: Plan, version: string): CoupDto {
    const p = plan.params;
    this.pit.rememberSettled(read, {
      remaining: p.remaining,
      cardsDealt: p.cardsDealt,
      coupCount: p.coupCount,
      lastCoupNumber: p.lastCoupNumber,
      version,
      carried: plan.carriedForward.map((w) => ({ ...w, amount: w.amount.toString() })),
    });
    return plan.dto;
  }

  /** A whole coup planned on a read of the shoe: the tie bets waiting on it and the new wagers, settled. */
  private async planWhole(ctx: RequestContext, db: SqlRunner, read: ReadShoe, hands: Hands, dto: RecordCoupDto): Promise<Plan> {
    assertCasinoBanked(read.table);
    const wagers = [...read.carried.map(carriedWager), ...(await this.newWagers(db, read, dto.wagers))];
    return this.plan(ctx, read, { id: randomUUID(), number: nextCoupNumber(read.shoe), isNew: true }, hands, wagers);
  }

  /** A coup opened for betting; its cards come later. */
  private async openForBetting(shoeId: string, dto: RecordCoupDto, ctx: RequestContext): Promise<CoupDto> {
    const { actor } = ctx;
    return this.prisma.transaction(ctx, async (tx) => {
      const db = prismaRunner(tx);
      const locked = await this.pit.lock(tx, shoeId, actor, { mustBeOpen: true });
      assertCasinoBanked(locked.table);
      const { shoe } = locked;
      const number = nextCoupNumber(locked.shoe);
      const fresh = await this.newWagers(db, locked, dto.wagers);
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
      return this.describe(tx, coupId);
    });
  }

  /** Adds wagers to a coup that is taking bets. */
  addWagers(coupId: string, dto: AddWagersDto, ctx: RequestContext): Promise<CoupDto> {
    const { actor } = ctx;
    return this.prisma.transaction(ctx, async (tx) => {
      const db = prismaRunner(tx);
      const locked = await this.lockOpenCoup(tx, coupId, actor);
      const { shoe } = locked;
      const wagers = await this.newWagers(db, locked, dto.wagers);
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
      return this.describe(tx, coupId);
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
      const plan = this.plan(ctx, locked, { id: coupId, number: coup.number, isNew: false }, hands, wagers);
      // The answer is stored by the transaction around this, from the stored rows (below).
      if ((await this.write(prismaRunner(tx), { ...ctx, idempotency: null }, plan, locked.version, null)) === null)
        throw new Error(`Coup ${coupId}: the shoe moved under its lock`);
      // The coup may also hold withdrawn wagers: answer from the stored rows, as GET does.
      return this.describe(tx, coupId);
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

  async get(coupId: string, actor: Actor): Promise<CoupDto> {
    const coup = await this.prisma.coup.findUnique({ where: { id: coupId }, select: { tableId: true } });
    if (!coup) throw notFound('Coup', coupId);
    assertTableAccess(actor, coup.tableId);
    return this.describe(this.prisma, coupId);
  }

  async listForShoe(shoeId: string, actor: Actor): Promise<CoupDto[]> {
    const shoe = await this.prisma.shoe.findUnique({ where: { id: shoeId }, select: { tableId: true } });
    if (!shoe) throw notFound('Shoe', shoeId);
    assertTableAccess(actor, shoe.tableId);
    const coups = await this.prisma.coup.findMany({ where: { shoeId }, orderBy: { number: 'asc' }, include: { wagers: true, void: true } });
    const carried = await this.prisma.wager.findMany({ where: { shoeId, carriedFromId: { not: null } } });
    return coups.map((c) => toCoupDto(c, c.wagers, c.void, carried));
  }

  // -------------------------------------------------------------------------------------------

  /**
   * The wagers placed at the table, admitted by the engine (offered, within its limits) and each
   * given its patron and visit: the patron named, else the one seated on its seat. A patron named
   * must be registered.
   */
  private async newWagers(
    db: SqlRunner,
    at: Pick<ReadShoe, 'table' | 'limits' | 'seated'>,
    placed: readonly WagerInputDto[] | undefined,
  ): Promise<PendingWager[]> {
    if (!placed?.length) return [];
    const wagers = placed.map((w) => newWager(at, w));
    await this.pit.assertRegistered(
      db,
      placed.flatMap((w) => (w.patronId === undefined ? [] : [w.patronId])),
    );
    return wagers;
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

  /**
   * The one write of a settled coup, whichever way it came (whole, or the cards of a coup taking
   * bets; read with or without the shoe's lock): the settlement statement (coups.sql settleCoup),
   * applied only at the version the shoe was read at, confirming the key of a caller recognised
   * from memory, and storing the request's answer with it when it has an Idempotency-Key. Answers
   * the shoe's new version, or null when it did not apply (the shoe moved since it was read).
   */
  private async write(db: SqlRunner, ctx: RequestContext, plan: Plan, version: string, confirm: Actor | null): Promise<string | null> {
    const claim = ctx.idempotency;
    let written: { applied: bigint | string; version: string | null };
    try {
      [written] = await db.query<{ applied: bigint | string; version: string | null }>(
        COUPS_SQL.settleCoup.bind({
          ...plan.params,
          version,
          storedCount: plan.storedCount,
          confirmKeyId: confirm?.keyId ?? null,
          confirmKeyHash: confirm?.keyHash ?? null,
          ...answerParams(claim, plan.dto),
        }),
      );
    } catch (e) {
      // The statement undid itself: a bet it was computed with changed under the shoe's version.
      if ((e as { code?: string }).code === STALE_STATEMENT) return null;
      throw e;
    }
    if (Number(written.applied) !== 1) return null;
    if (claim) claim.stored = true;
    return written.version!;
  }

  /** Checks the cards and settles every wager in memory: what to write, and the answer. Writes nothing. */
  private plan(ctx: RequestContext, locked: ReadShoe, coup: { id: string; number: number; isNew: boolean }, hands: Hands, wagers: PendingWager[]): Plan {
    const { shoe, table } = locked;
    const rules = rulesOf(table);
    const outcome = evaluateCoup(rules.variant, hands);
    const { remaining, cardsDealt, lastCoupNumber } = dealFrom(shoe, coup.number, [...hands.player, ...hands.banker]);
    const settlements = wagers.map((w) => settleWager(rules, outcome, w));
    const now = new Date();
    const day = gamingDayOf(now, locked.timeZone, locked.gamingDayStartHour);
    const playerCards = hands.player.map(formatCard);
    const bankerCards = hands.banker.map(formatCard);
    const rows = wagers.map((w, i) => ({ ...w, ...settlements[i] }));
    // Tied Player/Banker bets that stay: carried to the next coup as new wagers linked to the original.
    const carriedForward = rows
      .filter((r) => r.carriesOver)
      .map((r) => ({
        id: randomUUID(),
        seat: r.seat,
        betType: r.betType,
        amount: r.amount,
        patronId: r.patronId,
        seatingId: r.seatingId,
        carriedFromId: r.id,
        // A tie bet carried stays in the chips it was placed in.
        dead: r.dead ? (true as const) : null,
      }));

    const fresh = rows.filter((r) => !r.stored);
    const stored = rows.filter((r) => r.stored);
    const accruals = rows.filter((r) => r.commission > 0n);
    const str = (v: bigint) => v.toString();
    const params: CoupWriteParams & RollupParams & AuditParams = {
      shoeId: shoe.id,
      tableId: shoe.tableId,
      propertyId: shoe.propertyId,
      coupId: coup.id,
      coupNumber: coup.number,
      openCoupId: coup.isNew ? null : coup.id,
      remaining,
      cardsDealt,
      coupCount: Math.max(shoe.coupCount, coup.number),
      lastCoupNumber,
      playerCards,
      bankerCards,
      winner: outcome.winner,
      playerTotal: outcome.playerTotal,
      bankerTotal: outcome.bankerTotal,
      cardCount: outcome.cardCount,
      natural: outcome.natural,
      settledAt: now.toISOString(),
      gamingDay: day,
      limitsId: shoe.limitsId,
      newIds: fresh.map((r) => r.id),
      newSeats: fresh.map((r) => r.seat),
      newBetTypes: fresh.map((r) => r.betType),
      newAmounts: fresh.map((r) => str(r.amount)),
      newPatrons: fresh.map((r) => r.patronId),
      newSeatings: fresh.map((r) => r.seatingId),
      newDead: fresh.map((r) => (r.dead ? true : null)),
      newResults: fresh.map((r) => r.result),
      newPayouts: fresh.map((r) => str(r.payout)),
      newCommissions: fresh.map((r) => str(r.commission)),
      newNets: fresh.map((r) => str(r.net)),
      storedIds: stored.map((r) => r.id),
      storedResults: stored.map((r) => r.result),
      storedPayouts: stored.map((r) => str(r.payout)),
      storedCommissions: stored.map((r) => str(r.commission)),
      storedNets: stored.map((r) => str(r.net)),
      carriedIds: carriedForward.map((r) => r.id),
      carriedSeats: carriedForward.map((r) => r.seat),
      carriedBetTypes: carriedForward.map((r) => r.betType),
      carriedAmounts: carriedForward.map((r) => str(r.amount)),
      carriedPatrons: carriedForward.map((r) => r.patronId),
      carriedSeatings: carriedForward.map((r) => r.seatingId),
      carriedDead: carriedForward.map((r) => r.dead),
      carriedFrom: carriedForward.map((r) => r.carriedFromId),
      createdByKeyId: ctx.actor.keyId,
      accrualSeats: accruals.map((r) => r.seat),
      accrualPatrons: accruals.map((r) => r.patronId),
      accrualAmounts: accruals.map((r) => str(r.commission)),
      accrualWagers: accruals.map((r) => r.id),
      ...rollupParams(
        { tableId: shoe.tableId, propertyId: shoe.propertyId, gamingDay: day, winner: outcome.winner, natural: outcome.natural, limitsId: shoe.limitsId },
        rows,
        theoryOf(table),
        1n,
      ),
      ...this.audit.params(ctx, {
        stream: shoe.tableId,
        action: 'coup.settle',
        entityType: 'coup',
        entityId: coup.id,
        data: {
          shoeId: shoe.id,
          number: coup.number,
          cards: { player: playerCards, banker: bankerCards },
          winner: outcome.winner,
          playerTotal: outcome.playerTotal,
          bankerTotal: outcome.bankerTotal,
          gamingDay: day,
          settledAt: now.toISOString(),
          // The change of limits its wagers were placed under; left out for the opening limits.
          ...(shoe.limitsId === null ? {} : { limitsId: shoe.limitsId }),
          wagers: rows.map((r) => ({
            id: r.id,
            seat: r.seat,
            betType: r.betType,
            amount: r.amount,
            result: r.result,
            payout: r.payout,
            commission: r.commission,
            net: r.net,
            // Left out when null, as most are: the entry's bytes are the audit log's size.
            ...(r.patronId === null ? {} : { patronId: r.patronId }),
            ...(r.seatingId === null ? {} : { seatingId: r.seatingId }),
            ...(r.carriedFromId === null ? {} : { carriedFromId: r.carriedFromId }),
            ...(r.dead ? { dead: true } : {}),
          })),
          carriedForward: carriedForward.map((w) => w.id),
        },
      }),
    };
    const wagerDto = (r: (typeof rows)[number]) =>
      toWagerDto({
        id: r.id,
        coupId: coup.id,
        seat: r.seat,
        betType: r.betType,
        amount: r.amount,
        patronId: r.patronId,
        status: 'SETTLED',
        result: r.result,
        payout: r.payout,
        commission: r.commission,
        net: r.net,
        carriedFromId: r.carriedFromId,
        deadChips: r.dead || null,
      });
    const dto: CoupDto = {
      id: coup.id,
      shoeId: shoe.id,
      tableId: shoe.tableId,
      number: coup.number,
      status: 'SETTLED',
      void: null,
      cards: { player: playerCards, banker: bankerCards },
      outcome: { ...outcome },
      wagers: rows.map(wagerDto),
      carriedForward: carriedForward.map((r) =>
        toWagerDto({ ...r, coupId: null, status: 'OPEN', result: null, payout: null, commission: null, net: null, deadChips: r.dead }),
      ),
      settledAt: now.toISOString(),
      gamingDay: day,
    };
    return { params, dto, storedCount: stored.length, carriedForward };
  }

  private async describe(db: Tx | PrismaService, coupId: string): Promise<CoupDto> {
    const coup = await db.coup.findUniqueOrThrow({
      where: { id: coupId },
      include: { wagers: { orderBy: [{ seat: 'asc' }, { placedAt: 'asc' }] }, void: true },
    });
    const carried = await db.wager.findMany({ where: { carriedFromId: { in: coup.wagers.map((w) => w.id) } } });
    return toCoupDto(coup, coup.wagers, coup.void, carried);
  }
}

/** Refuses a coup with wagers at a player-banked table: its coups are the bank's (src/table-games/banks/). */
function assertCasinoBanked(table: CasinoTable): void {
  if (!isCasinoBanked(table.variant))
    throw new AppError(
      'PLAYER_BANKED',
      `Table ${table.code} deals ${table.variant}, a player-banked game: record its coups on the shoe's bank (POST /v1/banks/:id/coups)`,
    );
}

/** A wager placed at the table, admitted by the engine (offered, within the limits in force), with its patron and visit. */
function newWager(at: Pick<ReadShoe, 'table' | 'limits' | 'seated'>, w: WagerInputDto): PendingWager {
  const placed = { seat: w.seat, betType: w.betType as BetType, amount: BigInt(w.amount) };
  admitWager(rulesOf(at.table), at.limits, at.table, placed);
  const owner = attributeWager(at.seated, w.seat, w.patronId ?? null);
  const dead = w.chipKind === 'DEAD';
  admitChips(dead, owner.patronId, w.seat);
  return { id: randomUUID(), stored: false, ...placed, ...owner, carriedFromId: null, dead };
}

const auditWager = (w: PendingWager) => ({
  id: w.id,
  seat: w.seat,
  betType: w.betType,
  amount: w.amount,
  patronId: w.patronId,
  ...(w.dead ? { dead: true } : {}),
});

function storedWager(w: Wager): PendingWager {
  return {
    id: w.id,
    stored: true,
    seat: w.seat,
    betType: w.betType,
    amount: w.amount,
    patronId: w.patronId,
    seatingId: w.seatingId,
    carriedFromId: w.carriedFromId,
    dead: w.deadChips === true,
  };
}

interface Plan {
  /** The settlement statement's values, but for the guard's version, key check and answer (per path). */
  params: CoupWriteParams & RollupParams & AuditParams;
  dto: CoupDto;
  storedCount: number;
  /** The tie bets the coup carries to the next: what waits on the shoe once it is written. */
  carriedForward: (Omit<CarriedWager, 'amount'> & { amount: bigint })[];
}

function carriedWager(w: CarriedWager): PendingWager {
  return {
    id: w.id,
    stored: true,
    seat: w.seat,
    betType: w.betType,
    amount: BigInt(w.amount),
    patronId: w.patronId,
    seatingId: w.seatingId,
    carriedFromId: w.carriedFromId,
    dead: w.dead === true,
  };
}

function toWagerDto(
  w: Pick<
    Wager,
    'id' | 'coupId' | 'seat' | 'betType' | 'amount' | 'patronId' | 'status' | 'result' | 'payout' | 'commission' | 'net' | 'carriedFromId' | 'deadChips'
  >,
): WagerDto {
  return {
    id: w.id,
    coupId: w.coupId,
    seat: w.seat,
    betType: w.betType,
    amount: minorUnits(w.amount),
    patronId: w.patronId,
    status: w.status,
    result: w.result,
    payout: minorUnitsOrNull(w.payout),
    commission: minorUnitsOrNull(w.commission),
    net: minorUnitsOrNull(w.net),
    carriedFromId: w.carriedFromId,
    chipKind: chipsOf(w.deadChips === true),
  };
}

function toCoupDto(c: Coup, wagers: Wager[], v: CoupVoid | null, carried: Wager[]): CoupDto {
  const ids = new Set(wagers.map((w) => w.id));
  return {
    id: c.id,
    shoeId: c.shoeId,
    tableId: c.tableId,
    number: c.number,
    status: c.status,
    void: v ? { reason: v.reason, voidedByKeyId: v.voidedByKeyId, voidedByRole: v.voidedByRole, at: v.createdAt.toISOString() } : null,
    cards: c.status === 'SETTLED' ? { player: c.playerCards, banker: c.bankerCards } : null,
    outcome: c.status === 'SETTLED' && c.playerCards.length ? outcomeOf(parseCards(c.playerCards), parseCards(c.bankerCards)) : null,
    wagers: wagers.map(toWagerDto),
    carriedForward: carried.filter((w) => w.carriedFromId !== null && ids.has(w.carriedFromId)).map(toWagerDto),
    settledAt: c.settledAt?.toISOString() ?? null,
    gamingDay: c.gamingDay?.toISOString().slice(0, 10) ?? null,
  };
}
