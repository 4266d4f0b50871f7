import { houseWin, stakeTheoE12, theoreticalStdDev, theoreticalWin } from '../finance/accounting';
import { coupVarianceE12 } from '../game/moments';
import { Money, roundMoney } from '../money/money';
import { EDGE_SCALE } from '../game/odds';
import { decisionsPerHour, lengthOf } from '../finance/pace';
import { BetType } from '../game/rules';

/**
 * Rated play (docs/domain.md §10): a patron's figures computed from the ledger, never estimated.
 * Every figure of a rating is one of these formulas over the patron's settled wagers of standing
 * coups and the times their card was in.
 */

/** One settled wager of a patron, on a coup not voided. */
export interface RatedWager {
  readonly coupId: string;
  readonly tableId: string;
  readonly betType: BetType;
  readonly amount: Money;
  /** The customer's result: payout − commission, −stake on a loss, 0 on a push. */
  readonly net: Money;
}

/**
 * What a table's theoretical win is computed from: each bet's exact edge and covariances (× 10^12),
 * and the comp share of its property, in basis points.
 */
export interface RatingTheory {
  readonly edgesE12: Partial<Record<BetType, bigint>>;
  readonly covariancesE12: Map<BetType, Map<BetType, bigint>>;
  readonly compShareBps: number;
}

/** A time the patron's card was in, in milliseconds since the epoch. */
export interface PlayedInterval {
  readonly start: number;
  readonly end: number;
}

export interface BetFigures {
  readonly wagers: number;
  readonly handle: Money;
  readonly actualWin: Money;
  readonly theoreticalWin: Money;
}

export interface Rating {
  /** Coups with at least one of the patron's wagers (a decision each). */
  readonly coups: number;
  readonly wagers: number;
  readonly handle: Money;
  /** Handle ÷ coups played, half up: what the patron staked per decision. */
  readonly averageBet: Money | null;
  /** The house's win from the patron: −Σ their net (commission included). */
  readonly actualWin: Money;
  /** Σ stake × the exact house edge of the bet under that table's rules, rounded once. */
  readonly theoreticalWin: Money;
  /** Exact Σ stake × edge × 10^12, before the one rounding. */
  readonly theoE12: bigint;
  /** The standard deviation of the win about theoreticalWin (each coup's stakes through the bets' covariances). */
  readonly theoStdDev: Money;
  /** Whether the actual win lies within theoreticalWin ± 2 × theoStdDev (luck), or outside (look for a reason). */
  readonly withinTwoSigma: boolean;
  /** Seconds the card was in: the union of the intervals (two seats at once count once). */
  readonly secondsPlayed: number;
  /** Coups per hour of card-in time, 1 decimal; null without time. */
  readonly decisionsPerHour: string | null;
  /** The comps earned: theo × its property's share, rounded down once per share (nothing given for a fraction). */
  readonly comps: Money;
  readonly byBetType: Partial<Record<BetType, BetFigures>>;
}

/** Basis points in one whole. */
const BPS = 10_000n;

/** One bet type's sums in a rating: what the rollups keep (theo exact, × 10^12). */
export interface BetSums {
  wagers: number;
  handle: Money;
  net: Money;
  theoE12: bigint;
}

/**
 * What a rating is computed from, and all the patron rollups keep: per bet type its sums; the
 * coups played and their variance (each coup once, all the patron's stakes on it through the
 * covariances); theo per comp share. Sums of disjoint coups add up.
 */
export interface PlaySums {
  coups: number;
  varE12: bigint;
  readonly byBet: Map<BetType, BetSums>;
  readonly theoByShare: Map<number, bigint>;
}

export function emptySums(): PlaySums {
  return { coups: 0, varE12: 0n, byBet: new Map(), theoByShare: new Map() };
}

/** Adds one bet type's sums (at a table of this comp share) to `s`. */
export function addBetSums(s: PlaySums, bet: BetType, add: BetSums, compShareBps: number): void {
  const b = s.byBet.get(bet);
  if (b) {
    b.wagers += add.wagers;
    b.handle += add.handle;
    b.net += add.net;
    b.theoE12 += add.theoE12;
  } else s.byBet.set(bet, { ...add });
  s.theoByShare.set(compShareBps, (s.theoByShare.get(compShareBps) ?? 0n) + add.theoE12);
}

/**
 * The sums of a set of wagers: each stake × its bet's exact edge at its table, each coup's
 * variance from the patron's stakes on it. `theories` holds each table's theory (a player-banked
 * table's has no edges: the house has none on the bets).
 */
export function sumWagers(wagers: readonly RatedWager[], theories: ReadonlyMap<string, RatingTheory>): PlaySums {
  const s = emptySums();
  const stakesByCoup = new Map<string, { tableId: string; stakes: Map<BetType, bigint> }>();
  for (const w of wagers) {
    const theory = theories.get(w.tableId);
    addBetSums(
      s,
      w.betType,
      { wagers: 1, handle: w.amount, net: w.net, theoE12: stakeTheoE12(w.amount, theory?.edgesE12[w.betType] ?? 0n) },
      theory?.compShareBps ?? 0,
    );
    const coup = stakesByCoup.get(w.coupId) ?? { tableId: w.tableId, stakes: new Map<BetType, bigint>() };
    coup.stakes.set(w.betType, (coup.stakes.get(w.betType) ?? 0n) + w.amount);
    stakesByCoup.set(w.coupId, coup);
  }
  for (const { tableId, stakes } of stakesByCoup.values()) {
    const cov = theories.get(tableId)?.covariancesE12;
    s.coups += 1;
    if (cov) s.varE12 += coupVarianceE12(stakes, cov);
  }
  return s;
}

/** A patron's average bet: handle over the coups played, to the minor unit, half up; none before a coup. */
export function averageBetOf(handle: Money, coups: number): Money | null {
  return coups === 0 ? null : roundMoney(handle, 1n, BigInt(coups), { mode: 'HALF_UP', unit: 1 });
}

/** The rating of a set of wagers and card-in times. */
export function rate(wagers: readonly RatedWager[], theories: ReadonlyMap<string, RatingTheory>, intervals: readonly PlayedInterval[]): Rating {
  return ratingOf(sumWagers(wagers, theories), intervals);
}

/** The rating of play summed (from wagers, or from the patron rollups) and card-in times. */
export function ratingOf(s: PlaySums, intervals: readonly PlayedInterval[]): Rating {
  let wagers = 0;
  let handle = 0n;
  let net = 0n;
  let theoE12 = 0n;
  for (const b of s.byBet.values()) {
    wagers += b.wagers;
    handle += b.handle;
    net += b.net;
    theoE12 += b.theoE12;
  }
  const coups = s.coups;
  const ms = playedMs(intervals);
  const theo = theoreticalWin(theoE12);
  const sd = theoreticalStdDev(s.varE12);
  const actual = houseWin(net);
  const diff = actual - theo;
  return {
    coups,
    wagers,
    handle,
    averageBet: averageBetOf(handle, coups),
    actualWin: actual,
    theoreticalWin: theo,
    theoE12,
    theoStdDev: sd,
    withinTwoSigma: (diff < 0n ? -diff : diff) <= 2n * sd,
    secondsPlayed: Math.floor(ms / 1000),
    decisionsPerHour: decisionsPerHour(BigInt(coups), BigInt(ms) * 1000n),
    comps: [...s.theoByShare].reduce((sum, [share, t]) => sum + compsOf(t, share), 0n),
    byBetType: Object.fromEntries(
      [...s.byBet]
        .filter(([, b]) => b.wagers !== 0)
        .map(([bet, b]) => [bet, { wagers: b.wagers, handle: b.handle, actualWin: houseWin(b.net), theoreticalWin: theoreticalWin(b.theoE12) }]),
    ),
  };
}

/** A settled coup's wager of a patron, as the patron rollups take it. */
export interface PatronStake {
  readonly patronId: string | null;
  readonly seatingId: string | null;
  readonly betType: BetType;
  readonly amount: Money;
  readonly net: Money;
  /** Placed in dead (rolling) chips (docs/domain.md §14); cash when left out. */
  readonly dead?: boolean;
  /** Its result: a dead-chip wager lost is rolled. */
  readonly result?: 'WIN' | 'LOSE' | 'PUSH';
}

/**
 * A patron's dead-chip (rolling) wagers' sums, kept beside the bet's sums in the patron rollups
 * (docs/domain.md §14 "Premium and mass"): what the rolling account is read from.
 */
export interface DeadSums {
  wagers: number;
  handle: Money;
  net: Money;
  /** Σ stakes of the dead-chip wagers lost. */
  rolled: Money;
  theoE12: bigint;
  /** Σ stake × the exact probability the bet loses × 10^12 (lossesE12). */
  expectedRolledE12: bigint;
}

export const emptyDeadSums = (): DeadSums => ({ wagers: 0, handle: 0n, net: 0n, rolled: 0n, theoE12: 0n, expectedRolledE12: 0n });

/** The visit key of wagers in no visit, and the key of a patron's whole play on a coup. */
export const NO_VISIT = '00000000-0000-0000-0000-000000000000';
export const WHOLE_PLAY = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

/** What one settled coup adds to the patron rollups (docs/domain.md §10). */
export interface CoupPlayDeltas {
  /** Per patron, visit and bet type: the bet's sums. */
  readonly bets: { patronId: string; visit: string; betType: BetType; sums: BetSums; dead: DeadSums }[];
  /**
   * Per patron and visit (one coup each; its variance from the stakes in that visit), and per patron
   * under WHOLE_PLAY (the coup once, its variance from all the patron's stakes on it).
   */
  readonly coups: { patronId: string; visit: string; varE12: bigint; deadVarE12: bigint }[];
}

/**
 * The patron rollups' share of one settled coup: its rated wagers summed per patron and visit, and
 * beside them the dead-chip wagers' own sums and variance (with `lossesE12`, each bet's exact
 * probability of losing × 10^12, for the rolling the edges expect).
 */
export function coupPlayDeltas(
  stakes: readonly PatronStake[],
  theory: Pick<RatingTheory, 'edgesE12' | 'covariancesE12'> & { readonly lossesE12?: Partial<Record<BetType, bigint>> },
): CoupPlayDeltas {
  const bets = new Map<string, { patronId: string; visit: string; betType: BetType; sums: BetSums; dead: DeadSums }>();
  type VisitStakes = { patronId: string; visit: string; stakes: Map<BetType, bigint>; dead: Map<BetType, bigint> };
  const visitStakes = new Map<string, VisitStakes>();
  const addStake = (patronId: string, visit: string, w: PatronStake) => {
    const k = `${patronId}\u0000${visit}`;
    const v = visitStakes.get(k) ?? { patronId, visit, stakes: new Map<BetType, bigint>(), dead: new Map<BetType, bigint>() };
    v.stakes.set(w.betType, (v.stakes.get(w.betType) ?? 0n) + w.amount);
    if (w.dead) v.dead.set(w.betType, (v.dead.get(w.betType) ?? 0n) + w.amount);
    visitStakes.set(k, v);
  };
  for (const w of stakes) {
    if (w.patronId === null) continue;
    const visit = w.seatingId ?? NO_VISIT;
    const k = `${w.patronId}\u0000${visit}\u0000${w.betType}`;
    const b = bets.get(k) ?? { patronId: w.patronId, visit, betType: w.betType, sums: { wagers: 0, handle: 0n, net: 0n, theoE12: 0n }, dead: emptyDeadSums() };
    const theoE12 = stakeTheoE12(w.amount, theory.edgesE12[w.betType] ?? 0n);
    b.sums.wagers += 1;
    b.sums.handle += w.amount;
    b.sums.net += w.net;
    b.sums.theoE12 += theoE12;
    if (w.dead) {
      b.dead.wagers += 1;
      b.dead.handle += w.amount;
      b.dead.net += w.net;
      if (w.result === 'LOSE') b.dead.rolled += w.amount;
      b.dead.theoE12 += theoE12;
      b.dead.expectedRolledE12 += w.amount * (theory.lossesE12?.[w.betType] ?? 0n);
    }
    bets.set(k, b);
    if (w.seatingId !== null) addStake(w.patronId, w.seatingId, w);
    addStake(w.patronId, WHOLE_PLAY, w);
  }
  return {
    bets: [...bets.values()],
    coups: [...visitStakes.values()].map((v) => ({
      patronId: v.patronId,
      visit: v.visit,
      varE12: coupVarianceE12(v.stakes, theory.covariancesE12),
      deadVarE12: coupVarianceE12(v.dead, theory.covariancesE12),
    })),
  };
}

/** Comps: the exact theo × share, rounded down once to the minor unit; none on a theo of zero or less. */
export function compsOf(theoE12: bigint, compShareBps: number): Money {
  if (theoE12 <= 0n) return 0n;
  return roundMoney(theoE12, BigInt(compShareBps), BPS * EDGE_SCALE, { mode: 'FLOOR', unit: 1 });
}

/** Milliseconds covered by the union of the intervals (overlaps counted once). */
export function playedMs(intervals: readonly PlayedInterval[]): number {
  return Number(lengthOf(intervals.map((i) => ({ start: BigInt(i.start), end: BigInt(i.end) }))));
}
