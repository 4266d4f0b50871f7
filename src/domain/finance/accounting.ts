import { Money } from '../money/money';
import { EDGE_SCALE, fractionToDecimal } from '../game/odds';

/**
 * The accounting formulas (docs/domain.md §6), each once. Money is exact; statistics (percentages,
 * expected counts) are decimal strings rounded half away from zero for display. Reports compute the
 * same figures in PostgreSQL for speed: test/e2e/finance/formulas.spec.ts pins that SQL to these functions
 * over random sums, to the minor unit and the last decimal.
 */

/** The house's win: stakes lost − payouts + commission charged, i.e. −Σ the customers' net. */
export function houseWin(customerNet: Money): Money {
  return -customerNet;
}

/** Hold %: win ÷ handle × 100, 4 decimals; none without handle. */
export function holdPercent(win: Money, handle: Money): string | null {
  return handle === 0n ? null : fractionToDecimal({ numerator: win * 100n, denominator: handle }, 4);
}

/** Commission charged and not yet collected: a receivable, not revenue. */
export function commissionOutstanding(charged: Money, collected: Money): Money {
  return charged - collected;
}

/** Revenue: the win without the commission still outstanding. */
export function revenue(win: Money, outstanding: Money): Money {
  return win - outstanding;
}

/** One stake's share of theoretical win, exact: stake × the bet's house edge × 10^12 (quantisedEdges). */
export function stakeTheoE12(stake: Money, edgeE12: bigint): bigint {
  return stake * edgeE12;
}

/**
 * Theoretical win: Σ stake × exact house edge, kept exact as Σ stake × edge × 10^12 (the rollups'
 * theo_e12), rounded once to the minor unit, half away from zero.
 */
export function theoreticalWin(theoE12: bigint): Money {
  const neg = theoE12 < 0n;
  const q = (2n * (neg ? -theoE12 : theoE12) + EDGE_SCALE) / (2n * EDGE_SCALE);
  return neg ? -q : q;
}

/**
 * The standard deviation of a theoretical win, from its variance kept exact as Σ coup variances ×
 * 10^12 (minor units², the rollups' var_e12; domain/game/moments.ts): √(var_e12 / 10^12) rounded once to
 * the minor unit, half up, in integers: ⌊(⌊√⌊4·var_e12 / 10^12⌋⌋ + 1) / 2⌋.
 */
export function theoreticalStdDev(varE12: bigint): Money {
  if (varE12 <= 0n) return 0n;
  return (isqrt((4n * varE12) / EDGE_SCALE) + 1n) / 2n;
}

/** ⌊√n⌋ of a non-negative integer (Newton's method on bigints). */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (x * x > n) x = (x + n / x) / 2n;
  while ((x + 1n) * (x + 1n) <= n) x += 1n;
  return x;
}

/** Total revenue of casino- and player-banked play: revenue + the house's commission on the bankers' winnings. */
export function totalRevenue(revenueOfWagers: Money, houseCommission: Money): Money {
  return revenueOfWagers + houseCommission;
}

/** A table's statistical win from its inventory and paperwork: closer − opener + credits − fills + drop. */
export function statisticalWin(s: { opener: Money; closer: Money; credits: Money; fills: Money; drop: Money }): Money {
  return s.closer - s.opener + s.credits - s.fills + s.drop;
}

/** Statistical hold %: statistical win ÷ drop × 100, 4 decimals; none without drop. */
export function dropHoldPercent(win: Money, drop: Money): string | null {
  return drop === 0n ? null : fractionToDecimal({ numerator: win * 100n, denominator: drop }, 4);
}

/** How often an outcome was expected: coups × its exact probability (a decimal of 15 places), 2 decimals. */
export function expectedCount(coups: bigint, probability: string): string {
  const [whole, frac = ''] = probability.split('.');
  const scale = 10n ** BigInt(frac.length);
  return fractionToDecimal({ numerator: coups * BigInt(whole + frac), denominator: scale }, 2);
}

/** The sums of one kind of play (all of it, or its premium part) that the premium/mass split is made from. */
export interface SplitSums {
  readonly wagers: bigint;
  readonly handle: Money;
  readonly customerNet: Money;
  readonly commission: Money;
  readonly theoE12: bigint;
}

/** One side of the premium/mass split (docs/domain.md §14 "Premium and mass"). */
export interface PlayFigures {
  readonly wagers: bigint;
  readonly handle: Money;
  readonly win: Money;
  readonly holdPercent: string | null;
  readonly commissionCharged: Money;
  readonly theoreticalWin: Money;
}

/**
 * Premium play (the dead-chip wagers) and mass play (every other wager) of a row of figures: mass is
 * the total less premium, figure by figure, theoretical win too (each side's theo rounded as the
 * total's and the premium's are, so that premium + mass = the total exactly, to the minor unit).
 */
export function premiumAndMass(total: SplitSums, premium: SplitSums): { premium: PlayFigures; mass: PlayFigures } {
  const side = (wagers: bigint, handle: Money, customerNet: Money, commission: Money, theo: Money): PlayFigures => {
    const win = houseWin(customerNet);
    return { wagers, handle, win, holdPercent: holdPercent(win, handle), commissionCharged: commission, theoreticalWin: theo };
  };
  const premiumTheo = theoreticalWin(premium.theoE12);
  return {
    premium: side(premium.wagers, premium.handle, premium.customerNet, premium.commission, premiumTheo),
    mass: side(
      total.wagers - premium.wagers,
      total.handle - premium.handle,
      total.customerNet - premium.customerNet,
      total.commission - premium.commission,
      theoreticalWin(total.theoE12) - premiumTheo,
    ),
  };
}
