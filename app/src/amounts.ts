import { minorDigits } from '../../src/domain/money/minor-digits';

/**
 * An amount as a person types it in major units ("1,234.50", "1234.5", "500", "１２３４.５") as exact
 * minor units of `currency` (123450n): the one conversion every form uses. Null when it is not an
 * amount: not a plain decimal (commas only between thousands), negative, or with more decimals than
 * the currency has (a JPY amount has none).
 */
export function minorOf(text: string, currency: string): bigint | null {
  // Full-width digits, comma and point (as a Chinese keyboard types them) read as their ASCII forms.
  const typed = text.trim().replace(/[０-９，．]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
  // Commas group the thousands (1,234,567) or there are none.
  const m = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/.exec(typed);
  if (!m) return null;
  const exp = minorDigits(currency);
  const fraction = m[2] ?? '';
  if (fraction.length > exp) return null;
  return BigInt(m[1].replace(/,/g, '')) * 10n ** BigInt(exp) + BigInt(fraction.padEnd(exp, '0') || '0');
}

/** Minor units as a JSON number for the API (every amount it takes is below 2^53). */
export const wireAmount = (minor: bigint): number => Number(minor);

/**
 * A percentage as typed ("1.2", "0.75", "１.５") as whole basis points (120, 75, 150): the one
 * conversion of a typed rate. Null when it is not a plain decimal with at most two decimals, or over
 * 100 %.
 */
export function bpsOf(text: string): number | null {
  const typed = text
    .trim()
    .replace(/[０-９．]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/\s*[%％]$/, '');
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(typed);
  if (!m) return null;
  const bps = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0') || '0');
  return bps <= 10_000 ? bps : null;
}
