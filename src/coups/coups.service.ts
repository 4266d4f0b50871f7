import { PitService } from '../pit/pit.service';
import { minorUnits, minorUnitsOrNull } from '../common/exact-json';
import type { RequestContext } from '../common/context';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Actor, assertTableAccess } from '../common/actor';
import { AppError, notFound } from '../common/errors';
import { PrismaService, Tx } from '../database/prisma.service';
import {
  admitWager,
  BetType,
  Card,
  CoupOutcome,
  dealFrom,
  evaluateCoup,
  formatCard,
  gamingDayOf,
  nextCoupNumber,
  parseCards,
  Settlement,
  settleWager,
} from '../domain';
import { CasinoTable, Coup, CoupVoid, Wager } from '../generated/prisma/client';
import { CarriedWager, LockedShoe } from '../pit/pit.service';
import { coupRollupParts, rollupStatement } from '../ledger/rollups';
import { idempotencyParts } from '../database/idempotent-answers';
import { compose, CteParts, pgRunner, prismaRunner, SqlRunner, SqlStatement, standalone } from '../database/sql';
import { AuditLog, auditPartsStatement } from '../ledger/audit-log';
import { AccessService, KEY_VALID_SQL } from '../access/access.service';
import { edgesOf, limitsOf, rulesOf } from '../pit/table-rules';
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
  carriedFromId: string | null;
}

const parseHands = (h: HandsDto): Hands => ({ player: parseCards(h.player), banker: parseCards(h.banker) });

@Injectable()
export class CoupsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pit: PitService,
    private readonly audit: AuditLog,
    private readonly keys: AccessService,
  ) {}

  /**
   * Records a coup. With cards: the whole coup, settled at once. Without: the coup opens for
   * betting. One transaction under the shoe lock; any error leaves no trace and uses no number.
   */
  async record(shoeId: string, dto: RecordCoupDto, ctx: RequestContext): Promise<CoupDto> {
    const { actor } = ctx;
    if (actor.unconfirmed) {
      // The caller's key was recognised from memory: only the one-statement write confirms it
      // itself; any other outcome (another path, an error) first makes sure it is still valid.
      try {
        const written = dto.cards ? await this.recordOptimistic(shoeId, dto.cards, dto, ctx) : null;
        if (written) return written;
      } catch (e) {
        await this.confirmKey(actor);
        throw e;
      }
      await this.confirmKey(actor);
      return dto.cards ? this.recordLocked(shoeId, dto.cards, dto, ctx) : this.openForBetting(shoeId, dto, ctx);
    }
    if (!dto.cards) return this.openForBetting(shoeId, dto, ctx);
    return (await this.recordOptimistic(shoeId, dto.cards, dto, ctx)) ?? this.recordLocked(shoeId, dto.cards, dto, ctx);
  }

  private async confirmKey(actor: Actor): Promise<void> {
    if (!(await this.keys.isValid(actor.keyId))) throw new AppError('UNAUTHENTICATED', 'This API key is unknown, revoked or expired');
  }

  /**
   * The hot path: read the shoe, settle in memory, write everything in one statement that applies
   * only if the shoe has not moved since it was read (and, for a caller recognised from memory,
   * only if the key is still valid). Null when it did not apply: another client moved the shoe.
   */
  private async recordOptimistic(shoeId: string, cards: HandsDto, dto: RecordCoupDto, ctx: RequestContext): Promise<CoupDto | null> {
    const { actor } = ctx;
    const hands = parseHands(cards);
    const table = await this.pit.tableOf(shoeId);
    const snap = await this.pit.snapshot(shoeId, actor, table);
    const wagers = [...snap.carried.map(carriedWager), ...(dto.wagers ?? []).map((w) => newWager(snap.table, w))];
    const plan = this.plan(ctx, snap, { id: randomUUID(), number: nextCoupNumber(snap.shoe), isNew: true }, hands, wagers);
    return (await this.writeOptimistic(ctx, plan, snap.version, actor.unconfirmed ? actor.keyId : null)) ? plan.dto : null;
  }

  /** The whole coup serialised behind the shoe's row lock (two clients on one shoe). */
  private async recordLocked(shoeId: string, cards: HandsDto, dto: RecordCoupDto, ctx: RequestContext): Promise<CoupDto> {
    const { actor } = ctx;
    const hands = parseHands(cards);
    const table = await this.pit.tableOf(shoeId);
    return this.prisma.rawTransaction(ctx, async (client) => {
      const locked = await this.pit.lockRaw(client, shoeId, actor, table);
      const number = nextCoupNumber(locked.shoe);
      const wagers = [...locked.carried.map(carriedWager), ...(dto.wagers ?? []).map((w) => newWager(locked.table, w))];
      return this.settle(ctx, pgRunner(client), locked, { id: randomUUID(), number, isNew: true }, hands, wagers);
    });
  }

  /** A coup opened for betting; its cards come later. */
  private async openForBetting(shoeId: string, dto: RecordCoupDto, ctx: RequestContext): Promise<CoupDto> {
    const { actor } = ctx;
    return this.prisma.transaction(ctx, async (tx) => {
      const locked = await this.pit.lock(tx, shoeId, actor, { mustBeOpen: true, withCarried: true });
      const { shoe, table } = locked;
      const number = nextCoupNumber(locked.shoe);
      const fresh = (dto.wagers ?? []).map((w) => newWager(table, w));
      const carried = locked.carried.map(carriedWager);
      const coupId = randomUUID();
      await tx.coup.create({ data: { id: coupId, shoeId, tableId: shoe.tableId, number, status: 'BETTING', playerCards: [], bankerCards: [] } });
      await insertOpenWagers(tx, coupId, shoe.id, shoe.tableId, fresh);
      if (carried.length) await tx.wager.updateMany({ where: { id: { in: carried.map((w) => w.id) } }, data: { coupId } });
      await tx.shoe.update({ where: { id: shoeId }, data: { coupCount: number, openCoupId: coupId } });
      await this.audit.append(tx, ctx, {
        stream: shoe.tableId,
        action: 'coup.open',
        entityType: 'coup',
        entityId: coupId,
        data: { shoeId, number, wagers: fresh.map(auditWager), carried: carried.map((w) => w.id) },
      });
      return this.describe(tx, coupId);
    });
  }

  /** Adds wagers to a coup that is taking bets. */
  addWagers(coupId: string, dto: AddWagersDto, ctx: RequestContext): Promise<CoupDto> {
    const { actor } = ctx;
    return this.prisma.transaction(ctx, async (tx) => {
      const { table, shoe } = await this.lockOpenCoup(tx, coupId, actor);
      const wagers = dto.wagers.map((w) => newWager(table, w));
      await insertOpenWagers(tx, coupId, shoe.id, shoe.tableId, wagers);
      await this.audit.append(tx, ctx, {
        stream: shoe.tableId,
        action: 'coup.wagers',
        entityType: 'coup',
        entityId: coupId,
        data: { wagers: wagers.map(auditWager) },
      });
      return this.describe(tx, coupId);
    });
  }

  /** Records the cards of a coup that was taking bets, and settles every wager on it. */
  recordCards(coupId: string, dto: HandsDto, ctx: RequestContext): Promise<CoupDto> {
    const { actor } = ctx;
    const hands = parseHands(dto);
    return this.prisma.transaction(ctx, async (tx) => {
      const locked = await this.lockOpenCoup(tx, coupId, actor);
      const coup = await tx.coup.findUniqueOrThrow({ where: { id: coupId }, select: { number: true } });
      const wagers = (await tx.wager.findMany({ where: { coupId, status: 'OPEN' } })).map(storedWager);
      await this.settle(ctx, prismaRunner(tx), locked, { id: coupId, number: coup.number, isNew: false }, hands, wagers);
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
      await this.pit.lock(tx, found.shoeId, actor, { mustBeOpen: true });
      const wager = await tx.wager.findUniqueOrThrow({ where: { id: wagerId } });
      if (wager.status !== 'OPEN' || wager.carriedFromId === null) {
        throw new AppError(
          'WAGER_NOT_WITHDRAWABLE',
          wager.status !== 'OPEN'
            ? `This wager is ${wager.status.toLowerCase()} and can no longer be withdrawn`
            : 'Only a tie bet carried to the next coup can be withdrawn',
        );
      }
      const withdrawn = await tx.wager.update({ where: { id: wagerId }, data: { status: 'WITHDRAWN' } });
      // The bets waiting for the next coup changed: move the shoe's version, so that a whole coup
      // computed before this withdrawal cannot be written (CoupsService.writeOptimistic).
      await tx.$executeRaw`UPDATE shoes SET status = status WHERE id = ${found.shoeId}::uuid`;
      await this.audit.append(tx, ctx, {
        stream: withdrawn.tableId,
        action: 'wager.withdraw',
        entityType: 'wager',
        entityId: wagerId,
        data: { carriedFromId: withdrawn.carriedFromId, amount: withdrawn.amount },
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

  private async lockOpenCoup(tx: Tx, coupId: string, actor: Actor): Promise<LockedShoe> {
    const coup = await tx.coup.findUnique({ where: { id: coupId }, select: { shoeId: true, number: true } });
    if (!coup) throw notFound('Coup', coupId);
    const locked = await this.pit.lock(tx, coup.shoeId, actor, { mustBeOpen: true });
    if (locked.shoe.openCoupId !== coupId) throw new AppError('COUP_NOT_TAKING_BETS', `Coup ${coup.number} is not taking bets`);
    return locked;
  }

  /** Settles on a locked shoe: the settlement, rollups and audit as three statements of its transaction. */
  private async settle(
    ctx: RequestContext,
    db: SqlRunner,
    locked: LockedShoe,
    coup: { id: string; number: number; isNew: boolean },
    hands: Hands,
    wagers: PendingWager[],
  ): Promise<CoupDto> {
    const plan = this.plan(ctx, locked, coup, hands, wagers);
    const [written] = await db.query<{ coups: bigint | string; stored: bigint | string }>(settlementStatement(plan.write));
    if (Number(written.coups) !== 1 || Number(written.stored) !== plan.storedCount) {
      throw new Error(`Settling coup ${coup.id}: wrote ${written.coups} coup(s) and ${written.stored} of ${plan.storedCount} stored wagers`);
    }
    await db.run(rollupStatement(plan.rollups));
    await db.run(auditPartsStatement(plan.audit));
    return plan.dto;
  }

  /**
   * Writes a planned whole coup as one autocommit statement, guarded by the shoe's version: all of
   * it applies, or (the shoe moved) none of it. Returns whether it applied.
   */
  private async writeOptimistic(ctx: RequestContext, plan: Plan, version: string, confirmKeyId: string | null): Promise<boolean> {
    const w = plan.write;
    const claim = ctx.idempotency;
    const answer = claim && !claim.stored ? idempotencyParts(claim, plan.dto) : null;
    const statement = optimisticCoupStatement(w, plan.rollups, plan.audit, version, answer, confirmKeyId);
    const { rows } = await this.prisma.pool.query<{ applied: string; stored: string }>({
      name: statement.name,
      text: statement.text,
      values: statement.values,
    });
    if (Number(rows[0].applied) !== 1) return false;
    if (Number(rows[0].stored) !== plan.storedCount) {
      throw new Error(`Coup ${w.coup.id} settled ${rows[0].stored} of ${plan.storedCount} waiting tie bets: the shoe version did not guard them`);
    }
    if (claim && answer) claim.stored = true;
    return true;
  }

  /** Checks the cards and settles every wager in memory: what to write, and the answer. Writes nothing. */
  private plan(ctx: RequestContext, locked: LockedShoe, coup: { id: string; number: number; isNew: boolean }, hands: Hands, wagers: PendingWager[]): Plan {
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
      .map((r) => ({ id: randomUUID(), seat: r.seat, betType: r.betType, amount: r.amount, patronId: r.patronId, carriedFromId: r.id }));

    const write: SettlementWrite = {
      coup,
      shoe,
      now,
      day,
      playerCards,
      bankerCards,
      outcome,
      rows,
      carriedForward,
      remaining,
      cardsDealt,
      coupCount: Math.max(shoe.coupCount, coup.number),
      lastCoupNumber,
      createdByKeyId: ctx.actor.keyId,
    };
    const rollups = coupRollupParts({ tableId: shoe.tableId, gamingDay: day, winner: outcome.winner, natural: outcome.natural }, rows, edgesOf(table), 1n);
    const audit = this.audit.parts(ctx, {
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
        wagers: rows.map((r) => ({
          id: r.id,
          seat: r.seat,
          betType: r.betType,
          amount: r.amount,
          result: r.result,
          payout: r.payout,
          commission: r.commission,
          net: r.net,
        })),
        carriedForward: carriedForward.map((w) => w.id),
      },
    });
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
      carriedForward: carriedForward.map((r) => toWagerDto({ ...r, coupId: null, status: 'OPEN', result: null, payout: null, commission: null, net: null })),
      settledAt: now.toISOString(),
      gamingDay: day,
    };
    return { write, rollups, audit, dto, storedCount: rows.filter((r) => r.stored).length };
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

/** A wager placed at the table, admitted by the engine (offered, within its limits). */
function newWager(table: CasinoTable, w: WagerInputDto): PendingWager {
  const placed = { seat: w.seat, betType: w.betType as BetType, amount: BigInt(w.amount) };
  admitWager(rulesOf(table), limitsOf(table), table, placed);
  return { id: randomUUID(), stored: false, ...placed, patronId: w.patronId ?? null, carriedFromId: null };
}

const auditWager = (w: PendingWager) => ({ id: w.id, seat: w.seat, betType: w.betType, amount: w.amount, patronId: w.patronId });

function storedWager(w: Wager): PendingWager {
  return { id: w.id, stored: true, seat: w.seat, betType: w.betType, amount: w.amount, patronId: w.patronId, carriedFromId: w.carriedFromId };
}

async function insertOpenWagers(tx: Tx, coupId: string, shoeId: string, tableId: string, wagers: PendingWager[]): Promise<void> {
  if (wagers.length === 0) return;
  await tx.wager.createMany({
    data: wagers.map((w) => ({
      id: w.id,
      coupId,
      shoeId,
      tableId,
      seat: w.seat,
      betType: w.betType,
      amount: w.amount,
      patronId: w.patronId,
      status: 'OPEN' as const,
    })),
  });
}

/** The shoe after a coup; $2 its id, $41–$44 its composition and counters (numbered like the settlement). */
const SHOE_AFTER_COUP = `shoe_after AS (
      UPDATE shoes SET remaining = $41::int[], cards_dealt = $42::int, coup_count = $43::int, open_coup_id = NULL,
                       last_coup_number = coalesce($44::int, last_coup_number)
      WHERE id = $2::uuid AND EXISTS (SELECT 1 FROM guard)
      RETURNING 1)`;

/**
 * A whole coup as one statement guarded by the shoe's version: the shoe update is the guard, and
 * the settlement, rollups, audit entry and (if any) idempotent answer apply only if it did.
 */
export function optimisticCoupStatement(
  w: SettlementWrite,
  rollups: CteParts,
  audit: CteParts,
  version: string,
  answer: CteParts | null,
  confirmKeyId: string | null = null,
): SqlStatement {
  // Every change below reads from `guard`: nothing is written unless the shoe is still at the
  // version it was read at and, when asked, the caller's key is still valid.
  const keyCheck = confirmKeyId === null ? '' : ` AND EXISTS (SELECT 1 FROM api_keys k WHERE k.id = $7::uuid AND ${KEY_VALID_SQL})`;
  const guard: CteParts = {
    ctes: `guard AS (
      UPDATE shoes SET remaining = $2::int[], cards_dealt = $3::int, coup_count = $4::int, open_coup_id = NULL, last_coup_number = coalesce($5::int, last_coup_number)
      WHERE id = $1::uuid AND version = $6::bigint AND status = 'OPEN' AND open_coup_id IS NULL${keyCheck}
      RETURNING 1)`,
    values: [w.shoe.id, w.remaining, w.cardsDealt, w.coupCount, w.lastCoupNumber, version, ...(confirmKeyId === null ? [] : [confirmKeyId])],
  };
  const name = `sabot-coup-optimistic${answer ? '-idempotent' : ''}${confirmKeyId === null ? '' : '-keyed'}`;
  return compose(
    name,
    guard,
    [settlementParts(w, false), rollups, audit, ...(answer ? [answer] : [])],
    'SELECT (SELECT count(*) FROM guard) AS applied, (SELECT count(*) FROM wagers_stored) AS stored',
  );
}

interface Plan {
  write: SettlementWrite;
  rollups: CteParts;
  audit: CteParts;
  dto: CoupDto;
  storedCount: number;
}

function carriedWager(w: CarriedWager): PendingWager {
  return { id: w.id, stored: true, seat: w.seat, betType: w.betType, amount: BigInt(w.amount), patronId: w.patronId, carriedFromId: w.carriedFromId };
}

export interface SettlementWrite {
  coup: { id: string; number: number; isNew: boolean };
  shoe: { id: string; tableId: string };
  now: Date;
  day: string;
  playerCards: string[];
  bankerCards: string[];
  outcome: CoupOutcome;
  rows: (PendingWager & Settlement)[];
  carriedForward: { id: string; seat: number; betType: BetType; amount: bigint; patronId: string | null; carriedFromId: string }[];
  remaining: number[];
  cardsDealt: number;
  coupCount: number;
  lastCoupNumber: number | null;
  createdByKeyId: string;
}

/**
 * One statement writing a settled coup: the coup (inserted, or updated from BETTING), new wagers
 * inserted settled, stored wagers (carried ties, stepwise bets) settled in place, tie bets carried
 * forward, commission accrued against each seat, the shoe's composition and counters.
 */
export function settlementStatement(w: SettlementWrite): SqlStatement {
  return standalone('sabot-settle-coup', settlementParts(w, true), SETTLED_COUNTS);
}

const SETTLED_COUNTS = 'SELECT (SELECT count(*) FROM coup_new) + (SELECT count(*) FROM coup_dealt) AS coups, (SELECT count(*) FROM wagers_stored) AS stored';

/** The settlement as guarded parts; `withShoe: false` when the guard itself updates the shoe. */
export function settlementParts(w: SettlementWrite, withShoe: boolean): CteParts {
  const fresh = w.rows.filter((r) => !r.stored);
  const stored = w.rows.filter((r) => r.stored);
  const accruals = w.rows.filter((r) => r.commission > 0n);
  const str = (v: bigint) => v.toString();
  return {
    ctes:
      `
    coup_new AS (
      INSERT INTO coups (id, shoe_id, table_id, number, status, player_cards, banker_cards, winner, player_total, banker_total, card_count, "natural", outcome, settled_at, gaming_day)
      SELECT $1::uuid, $2::uuid, $3::uuid, $4::int, 'SETTLED', $5::text[], $6::text[], $7::"Winner", $8::int, $9::int, $10::int, $11::bool, $12::jsonb, $13::timestamptz, $14::date
      FROM guard WHERE $15::bool
      RETURNING 1
    ), coup_dealt AS (
      UPDATE coups SET status = 'SETTLED', player_cards = $5::text[], banker_cards = $6::text[], winner = $7::"Winner", player_total = $8::int, banker_total = $9::int,
                       card_count = $10::int, "natural" = $11::bool, outcome = $12::jsonb, settled_at = $13::timestamptz, gaming_day = $14::date
      WHERE id = $1::uuid AND NOT $15::bool AND status = 'BETTING' AND EXISTS (SELECT 1 FROM guard)
      RETURNING 1
    ), wagers_new AS (
      INSERT INTO wagers (id, coup_id, shoe_id, table_id, seat, bet_type, amount, patron_id, status, result, payout, commission, net, carried_from_id, placed_at, settled_at)
      SELECT u.id, $1::uuid, $2::uuid, $3::uuid, u.seat, u.bet_type::"BetType", u.amount, u.patron_id, 'SETTLED', u.result::"WagerResult", u.payout, u.commission, u.net, NULL, $13::timestamptz, $13::timestamptz
      FROM unnest($16::uuid[], $17::int[], $18::text[], $19::bigint[], $20::text[], $21::text[], $22::bigint[], $23::bigint[], $24::bigint[])
           AS u(id, seat, bet_type, amount, patron_id, result, payout, commission, net), guard
      RETURNING 1
    ), wagers_stored AS (
      UPDATE wagers w SET status = 'SETTLED', result = v.result::"WagerResult", payout = v.payout, commission = v.commission, net = v.net,
                          settled_at = $13::timestamptz, coup_id = $1::uuid
      FROM unnest($25::uuid[], $26::text[], $27::bigint[], $28::bigint[], $29::bigint[]) AS v(id, result, payout, commission, net), guard
      WHERE w.id = v.id AND w.status = 'OPEN'
      RETURNING 1
    ), carried_forward AS (
      INSERT INTO wagers (id, coup_id, shoe_id, table_id, seat, bet_type, amount, patron_id, status, carried_from_id, placed_at)
      SELECT u.id, NULL, $2::uuid, $3::uuid, u.seat, u.bet_type::"BetType", u.amount, u.patron_id, 'OPEN', u.carried_from_id, $13::timestamptz
      FROM unnest($30::uuid[], $31::int[], $32::text[], $33::bigint[], $34::text[], $35::uuid[]) AS u(id, seat, bet_type, amount, patron_id, carried_from_id), guard
      RETURNING 1
    ), accruals AS (
      INSERT INTO commission_entries (id, shoe_id, table_id, seat, patron_id, kind, amount, coup_id, wager_id, created_by_key_id, created_at)
      SELECT gen_random_uuid(), $2::uuid, $3::uuid, u.seat, u.patron_id, 'ACCRUAL', u.amount, $1::uuid, u.wager_id, $36, $13::timestamptz
      FROM unnest($37::int[], $38::text[], $39::bigint[], $40::uuid[]) AS u(seat, patron_id, amount, wager_id), guard
      RETURNING 1
    )` + (withShoe ? `, ${SHOE_AFTER_COUP}` : ''),
    values: [
      w.coup.id,
      w.shoe.id,
      w.shoe.tableId,
      w.coup.number,
      w.playerCards,
      w.bankerCards,
      w.outcome.winner,
      w.outcome.playerTotal,
      w.outcome.bankerTotal,
      w.outcome.cardCount,
      w.outcome.natural,
      JSON.stringify(w.outcome),
      w.now.toISOString(),
      w.day,
      w.coup.isNew,
      fresh.map((r) => r.id),
      fresh.map((r) => r.seat),
      fresh.map((r) => r.betType),
      fresh.map((r) => str(r.amount)),
      fresh.map((r) => r.patronId),
      fresh.map((r) => r.result),
      fresh.map((r) => str(r.payout)),
      fresh.map((r) => str(r.commission)),
      fresh.map((r) => str(r.net)),
      stored.map((r) => r.id),
      stored.map((r) => r.result),
      stored.map((r) => str(r.payout)),
      stored.map((r) => str(r.commission)),
      stored.map((r) => str(r.net)),
      w.carriedForward.map((r) => r.id),
      w.carriedForward.map((r) => r.seat),
      w.carriedForward.map((r) => r.betType),
      w.carriedForward.map((r) => str(r.amount)),
      w.carriedForward.map((r) => r.patronId),
      w.carriedForward.map((r) => r.carriedFromId),
      w.createdByKeyId,
      accruals.map((r) => r.seat),
      accruals.map((r) => r.patronId),
      accruals.map((r) => str(r.commission)),
      accruals.map((r) => r.id),
      // $41–$44: the shoe, last so that they can be left out when the guard updates the shoe.
      ...(withShoe ? [w.remaining, w.cardsDealt, w.coupCount, w.lastCoupNumber] : []),
    ],
  };
}

function toWagerDto(
  w: Pick<Wager, 'id' | 'coupId' | 'seat' | 'betType' | 'amount' | 'patronId' | 'status' | 'result' | 'payout' | 'commission' | 'net' | 'carriedFromId'>,
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
    outcome: c.outcome ? (c.outcome as unknown as CoupOutcome) : null,
    wagers: wagers.map(toWagerDto),
    carriedForward: carried.filter((w) => w.carriedFromId !== null && ids.has(w.carriedFromId)).map(toWagerDto),
    settledAt: c.settledAt?.toISOString() ?? null,
    gamingDay: c.gamingDay?.toISOString().slice(0, 10) ?? null,
  };
}
