import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../platform/common/context';
import { Actor } from '../../platform/common/actor';
import { AppError } from '../../platform/common/errors';
import {
  admitChips,
  admitWager,
  attributeWager,
  BetType,
  Card,
  dealFrom,
  evaluateCoup,
  formatCard,
  gamingDayOf,
  isCasinoBanked,
  parseCards,
  settleWager,
} from '../../domain';
import { CasinoTable, Wager } from '../../generated/prisma/client';
import { CarriedWager, PitService, ReadShoe } from '../../foundation/pit/pit.service';
import { rollupParams } from '../../foundation/ledger/rollups';
import { answerParams } from '../../platform/database/idempotent-answers';
import { SqlRunner } from '../../platform/database/sql';
import { AuditLog } from '../../foundation/ledger/audit-log';
import type { AuditParams, RollupParams } from '../../foundation/ledger/ledger-sql';
import { COUPS_SQL, CoupWriteParams } from './coups-sql';
import { rulesOf, theoryOf } from '../../foundation/pit/table-rules';
import { CoupDto, HandsDto, WagerInputDto } from './dto/coup.dto';
import { toWagerDto } from './coup-answers';

export interface Hands {
  player: Card[];
  banker: Card[];
}

/** A wager about to be settled: a new one from this request, or an OPEN row already stored. */
export interface PendingWager {
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

export const parseHands = (h: HandsDto): Hands => ({ player: parseCards(h.player), banker: parseCards(h.banker) });

export interface Plan {
  /** The settlement statement's values, but for the guard's version, key check and answer (per path). */
  params: CoupWriteParams & RollupParams & AuditParams;
  dto: CoupDto;
  storedCount: number;
  /** The tie bets the coup carries to the next: what waits on the shoe once it is written. */
  carriedForward: (Omit<CarriedWager, 'amount'> & { amount: bigint })[];
}

/**
 * The one settlement path of a casino-banked coup, whichever way it came (whole, or the cards of a
 * coup taking bets): the wagers admitted, the coup planned in memory by the engine, and its one
 * write, the settlement statement (coups.sql settleCoup).
 */
@Injectable()
export class CoupSettlement {
  constructor(
    private readonly pit: PitService,
    private readonly audit: AuditLog,
  ) {}

  /**
   * The wagers placed at the table, admitted by the engine (offered, within its limits) and each
   * given its patron and visit: the patron named, else the one seated on its seat. A patron named
   * must be registered.
   */
  async newWagers(db: SqlRunner, at: Pick<ReadShoe, 'table' | 'limits' | 'seated'>, placed: readonly WagerInputDto[] | undefined): Promise<PendingWager[]> {
    if (!placed?.length) return [];
    const wagers = placed.map((w) => newWager(at, w));
    await this.pit.assertRegistered(
      db,
      placed.flatMap((w) => (w.patronId === undefined ? [] : [w.patronId])),
    );
    return wagers;
  }

  /**
   * The one write of a settled coup, whichever way it came (whole, or the cards of a coup taking
   * bets; read with or without the shoe's lock): the settlement statement (coups.sql settleCoup),
   * applied only at the version the shoe was read at, confirming the key of a caller recognised
   * from memory, and storing the request's answer with it when it has an Idempotency-Key. Answers
   * the shoe's new version, or null when it did not apply (the shoe moved since it was read).
   */
  async write(db: SqlRunner, ctx: RequestContext, plan: Plan, version: string, confirm: Actor | null): Promise<string | null> {
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
  plan(
    ctx: RequestContext,
    locked: ReadShoe,
    coup: { id: string; number: number; isNew: boolean; recordedOfflineAt?: Date | null },
    hands: Hands,
    wagers: PendingWager[],
  ): Plan {
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
      recordedOfflineAt: coup.recordedOfflineAt?.toISOString() ?? null,
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
          // A coup recorded at a terminal offline and sent later: when the terminal recorded it.
          ...(coup.recordedOfflineAt ? { recordedOfflineAt: coup.recordedOfflineAt.toISOString() } : {}),
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
}

/** Refuses a coup with wagers at a player-banked table: its coups are the bank's (src/table-games/banks/). */
export function assertCasinoBanked(table: CasinoTable): void {
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

export const auditWager = (w: PendingWager) => ({
  id: w.id,
  seat: w.seat,
  betType: w.betType,
  amount: w.amount,
  patronId: w.patronId,
  ...(w.dead ? { dead: true } : {}),
});

export function storedWager(w: Wager): PendingWager {
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

export function carriedWager(w: CarriedWager): PendingWager {
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
