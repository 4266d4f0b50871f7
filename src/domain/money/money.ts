import { DomainError } from '../errors';

/**
 * Money is integer minor units (bigint) everywhere. Pays and rates are integer ratios.
 * Rounding happens only in {@link roundMoney}.
 */
export type Money = bigint;

/**
 * A pay stated on the "to 1" basis: `numerator / denominator` units of profit per unit staked,
 * with the stake returned. 8 to 1 is {8, 1}; 0.54 to 1 is {27, 50}; a half-pay (1 to 2) is {1, 2}.
 * "a for 1" (the stake included in the total) is converted on input: 9 for 1 = 8 to 1.
 */
export interface Odds {
  readonly numerator: number;
  readonly denominator: number;
}

export function odds(numerator: number, denominator = 1): Odds {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || numerator < 0 || denominator <= 0) {
    throw new DomainError('INVALID_RULES', `A pay must be a non-negative ratio of whole numbers, got ${numerator}/${denominator}`);
  }
  const g = gcd(numerator, denominator);
  return { numerator: numerator / g, denominator: denominator / g };
}

const ODDS_TEXT = /^\s*(\d+(?:\.\d+)?)\s*(?:(to|for|:)\s*(\d+(?:\.\d+)?))?\s*$/i;

/**
 * Parses a pay as a casino writes it: "8 to 1", "8:1", "9 for 1", "0.54 to 1", "1:2".
 * "a for b" means a units returned in total for b staked, i.e. (a − b) to b.
 */
export function parseOdds(text: string): Odds {
  const m = ODDS_TEXT.exec(text);
  if (!m) {
    throw new DomainError('INVALID_RULES', `"${text.slice(0, 20)}" is not a pay: write it as "8 to 1", "9 for 1" or "8:1"`);
  }
  const left = decimalRatio(m[1]);
  const right = m[3] === undefined ? { n: 1, d: 1 } : decimalRatio(m[3]);
  if (right.n === 0) throw new DomainError('INVALID_RULES', `"${text}" is not a pay: the right side cannot be 0`);
  // left/right as a ratio: (left.n/left.d) / (right.n/right.d)
  let num = left.n * right.d;
  const den = left.d * right.n;
  if ((m[2] ?? '').toLowerCase() === 'for') {
    num -= den;
    if (num < 0) throw new DomainError('INVALID_RULES', `"${text}" returns less than the stake`);
  }
  return odds(num, den);
}

/** "8 to 1", "27 to 50" → printed as "0.54 to 1" when the denominator is a power of ten. */
export function formatOdds(o: Odds): string {
  if (o.denominator === 1) return `${o.numerator} to 1`;
  for (const scale of [10, 100, 1000, 10000]) {
    if (scale % o.denominator === 0) {
      const n = (o.numerator * scale) / o.denominator;
      const whole = Math.floor(n / scale);
      const frac = String(n % scale)
        .padStart(String(scale).length - 1, '0')
        .replace(/0+$/, '');
      return `${whole}${frac ? '.' + frac : ''} to 1`;
    }
  }
  return `${o.numerator} to ${o.denominator}`;
}

function decimalRatio(s: string): { n: number; d: number } {
  const [whole, frac = ''] = s.split('.');
  if (frac.length > 4 || whole.length > 6) throw new DomainError('INVALID_RULES', `"${s}" has too many digits for a pay`);
  const d = 10 ** frac.length;
  return { n: Number(whole) * d + Number(frac || '0'), d };
}

export function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return Math.abs(a);
}

export type RoundingMode = 'FLOOR' | 'HALF_UP' | 'CEILING';

/** How commission and fractional pays are rounded: to a multiple of `unit` minor units. */
export interface RoundingRule {
  readonly mode: RoundingMode;
  /** 1 = to the minor unit; 25 = to a 25-unit chip, and so on. */
  readonly unit: number;
}

export const DEFAULT_ROUNDING: RoundingRule = { mode: 'FLOOR', unit: 1 };

/**
 * THE rounding function: `amount × numerator / denominator`, rounded to a multiple of
 * `rule.unit` by `rule.mode`. Every commission and every pay that is not a whole multiple of
 * the stake goes through here; nothing else in the code base rounds money.
 */
export function roundMoney(amount: Money, numerator: bigint, denominator: bigint, rule: RoundingRule): Money {
  if (amount < 0n || numerator < 0n || denominator <= 0n) {
    throw new RangeError('roundMoney takes non-negative amounts and ratios');
  }
  const unit = BigInt(rule.unit);
  const exactNum = amount * numerator; // value = exactNum / denominator
  const scaledDen = denominator * unit; // units = exactNum / scaledDen
  const q = exactNum / scaledDen;
  const r = exactNum % scaledDen;
  let units: bigint;
  switch (rule.mode) {
    case 'FLOOR':
      units = q;
      break;
    case 'CEILING':
      units = r === 0n ? q : q + 1n;
      break;
    case 'HALF_UP':
      units = 2n * r >= scaledDen ? q + 1n : q;
      break;
  }
  return units * unit;
}

/** Profit on a winning stake at the given pay: exact for whole pays, else via roundMoney. */
export function payFor(stake: Money, pay: Odds, rule: RoundingRule): Money {
  if (pay.denominator === 1) return stake * BigInt(pay.numerator);
  return roundMoney(stake, BigInt(pay.numerator), BigInt(pay.denominator), rule);
}
