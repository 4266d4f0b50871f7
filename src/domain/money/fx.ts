import { Money } from './money';
import { minorDigits } from './minor-digits';

export { minorDigits, nonDecimalCurrencies } from './minor-digits';

/**
 * Exchange into a group's currency (docs/domain.md §12). A rate is kept as an integer: units of the
 * group currency one unit of the table's currency is worth, in billionths (1.0842 → 1,084,200,000).
 * Figures are translated exactly at each gaming day's rate and rounded once, half away from zero, to
 * the group currency's minor unit: the total of a figure, never its parts. Reports do the same sums in
 * PostgreSQL (src/finance/reports/translation-sql.ts); test/e2e/finance/group.spec.ts pins them to {@link translate}.
 */

/** Rates are integers of this many parts per unit. */
export const RATE_SCALE = 1_000_000_000n;
/** At most this many decimals in a rate as people write it. */
export const RATE_DECIMALS = 9;
/** A rate from 10^-9 to 10^6 units of the group currency per unit (the Iranian rial to the euro, the euro to the rial). */
export const MAX_RATE = 1_000_000n * RATE_SCALE;

/**
 * A rate as people write it ("1.0842", "149.5", "0.0067") in billionths; null when it is not a
 * positive decimal of at most 9 decimals within {@link MAX_RATE}.
 */
export function parseRate(text: string): bigint | null {
  const m = /^(\d{1,7})(?:\.(\d{1,9}))?$/.exec(text);
  if (!m) return null;
  const e9 = BigInt(m[1]) * RATE_SCALE + BigInt((m[2] ?? '').padEnd(RATE_DECIMALS, '0'));
  return e9 > 0n && e9 <= MAX_RATE ? e9 : null;
}

/** Billionths as the shortest decimal ("1084200000" → "1.0842"). */
export function formatRate(e9: bigint): string {
  const whole = e9 / RATE_SCALE;
  const frac = (e9 % RATE_SCALE).toString().padStart(RATE_DECIMALS, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : `${whole}`;
}

/**
 * What one minor unit of `from` is worth in minor units of `into` at a rate, as an exact ratio:
 * rate × 10^(digits of into − digits of from) / 10^9.
 */
export function minorUnitRatio(rateE9: bigint, from: string, into: string): { numerator: bigint; denominator: bigint } {
  const shift = minorDigits(into) - minorDigits(from);
  return shift >= 0
    ? { numerator: rateE9 * 10n ** BigInt(shift), denominator: RATE_SCALE }
    : { numerator: rateE9, denominator: RATE_SCALE * 10n ** BigInt(-shift) };
}

/** One amount of a figure, in the table's currency, with the rate of its gaming day. */
export interface DayAmount {
  readonly amount: Money;
  readonly currency: string;
  /** The rate of the amount's gaming day into the group currency (RATE_SCALE when it is the group currency). */
  readonly rateE9: bigint;
}

/**
 * THE translation into the group currency: Σ amount × its day's rate, exact, then rounded once to
 * the minor unit, half away from zero. A figure's total is translated, not each day rounded and
 * added, so a report's total is the same whatever its rows are grouped by.
 */
export function translate(amounts: readonly DayAmount[], into: string): Money {
  // Σ numerator_i / denominator_i over a common denominator (every denominator is 10^k).
  let denominator = RATE_SCALE;
  for (const a of amounts) {
    const r = minorUnitRatio(a.rateE9, a.currency, into);
    if (r.denominator > denominator) denominator = r.denominator;
  }
  let numerator = 0n;
  for (const a of amounts) {
    const r = minorUnitRatio(a.rateE9, a.currency, into);
    numerator += a.amount * r.numerator * (denominator / r.denominator);
  }
  const neg = numerator < 0n;
  const q = (2n * (neg ? -numerator : numerator) + denominator) / (2n * denominator);
  return neg ? -q : q;
}
