import { minorDigits } from '../../src/domain/money/minor-digits';

/**
 * An amount as a person types it in major units ("1,234.50", "1234.5", "500") as exact minor units of
 * `currency` (123450n): the one conversion every form uses. Null when it is not an amount: not a
 * plain decimal, negative, or with more decimals than the currency has (a JPY amount has none).
 */
export function minorOf(text: string, currency: string): bigint | null {
  const m = /^(\d+)(?:\.(\d*))?$/.exec(text.trim().replace(/[,\s_]/g, ''));
  if (!m) return null;
  const exp = minorDigits(currency);
  const fraction = m[2] ?? '';
  if (fraction.length > exp) return null;
  return BigInt(m[1]) * 10n ** BigInt(exp) + BigInt(fraction.padEnd(exp, '0') || '0');
}

/** Minor units as a JSON number for the API (every amount it takes is below 2^53). */
export const wireAmount = (minor: bigint): number => Number(minor);
