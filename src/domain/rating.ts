import { houseWin, stakeTheoE12, theoreticalStdDev, theoreticalWin } from './accounting';
import { coupVarianceE12 } from './moments';
import { Money, roundMoney } from './money';
import { EDGE_SCALE, fractionToDecimal } from './odds';
import { BetType } from './rules';

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

/**
 * The rating of a set of wagers and card-in times. `theories` holds each table's theory (a
 * player-banked table's has no edges: the house has none on the bets).
 */
export function rate(wagers: readonly RatedWager[], theories: ReadonlyMap<string, RatingTheory>, intervals: readonly PlayedInterval[]): Rating {
  const byBet = new Map<BetType, { wagers: number; handle: bigint; net: bigint; theoE12: bigint }>();
  const stakesByCoup = new Map<string, { tableId: string; stakes: Map<BetType, bigint> }>();
  let handle = 0n;
  let net = 0n;
  let theoE12 = 0n;
  const theoByShare = new Map<number, bigint>();
  for (const w of wagers) {
    const theory = theories.get(w.tableId);
    const theo = stakeTheoE12(w.amount, theory?.edgesE12[w.betType] ?? 0n);
    if (theory) theoByShare.set(theory.compShareBps, (theoByShare.get(theory.compShareBps) ?? 0n) + theo);
    const b = byBet.get(w.betType) ?? { wagers: 0, handle: 0n, net: 0n, theoE12: 0n };
    b.wagers += 1;
    b.handle += w.amount;
    b.net += w.net;
    b.theoE12 += theo;
    byBet.set(w.betType, b);
    handle += w.amount;
    net += w.net;
    theoE12 += theo;
    const coup = stakesByCoup.get(w.coupId) ?? { tableId: w.tableId, stakes: new Map<BetType, bigint>() };
    coup.stakes.set(w.betType, (coup.stakes.get(w.betType) ?? 0n) + w.amount);
    stakesByCoup.set(w.coupId, coup);
  }
  let varE12 = 0n;
  for (const { tableId, stakes } of stakesByCoup.values()) {
    const cov = theories.get(tableId)?.covariancesE12;
    if (cov) varE12 += coupVarianceE12(stakes, cov);
  }
  const coups = stakesByCoup.size;
  const ms = playedMs(intervals);
  const theo = theoreticalWin(theoE12);
  const sd = theoreticalStdDev(varE12);
  const actual = houseWin(net);
  const diff = actual - theo;
  return {
    coups,
    wagers: wagers.length,
    handle,
    averageBet: coups === 0 ? null : roundMoney(handle, 1n, BigInt(coups), { mode: 'HALF_UP', unit: 1 }),
    actualWin: actual,
    theoreticalWin: theo,
    theoE12,
    theoStdDev: sd,
    withinTwoSigma: (diff < 0n ? -diff : diff) <= 2n * sd,
    secondsPlayed: Math.floor(ms / 1000),
    decisionsPerHour: ms === 0 ? null : fractionToDecimal({ numerator: BigInt(coups) * 3_600_000n, denominator: BigInt(ms) }, 1),
    comps: [...theoByShare].reduce((sum, [share, theo]) => sum + compsOf(theo, share), 0n),
    byBetType: Object.fromEntries(
      [...byBet].map(([bet, b]) => [bet, { wagers: b.wagers, handle: b.handle, actualWin: houseWin(b.net), theoreticalWin: theoreticalWin(b.theoE12) }]),
    ),
  };
}

/** Comps: the exact theo × share, rounded down once to the minor unit; none on a theo of zero or less. */
export function compsOf(theoE12: bigint, compShareBps: number): Money {
  if (theoE12 <= 0n) return 0n;
  return roundMoney(theoE12, BigInt(compShareBps), BPS * EDGE_SCALE, { mode: 'FLOOR', unit: 1 });
}

/** Milliseconds covered by the union of the intervals (overlaps counted once). */
export function playedMs(intervals: readonly PlayedInterval[]): number {
  const sorted = [...intervals].filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  let total = 0;
  let from = -Infinity;
  let to = -Infinity;
  for (const i of sorted) {
    if (i.start > to) {
      if (to > from) total += to - from;
      from = i.start;
      to = i.end;
    } else if (i.end > to) to = i.end;
  }
  if (to > from) total += to - from;
  return total;
}
