import type { Amount } from './api';
import { Lang, localeOf, useLang } from './i18n';
import { minorDigits } from '../../src/domain/money/minor-digits';

/**
 * Digits after the point of a currency (2 for USD, HKD and MOP, 0 for JPY, 3 for KWD): the
 * service's own ISO 4217 table (src/domain/money/minor-digits.ts), never the browser's, which writes
 * some currencies (HUF, IDR, IQD) with fewer digits than their minor unit has.
 */
export const exponentOf = (currency: string): number => minorDigits(currency);

/** Minor units as an exact decimal string ("-1234.50"): no floating point at any size. */
export function decimalOf(v: Amount, exp: number): string {
  const n = BigInt(v);
  const digits = (n < 0n ? -n : n).toString().padStart(exp + 1, '0');
  const whole = digits.slice(0, digits.length - exp);
  return `${n < 0n ? '-' : ''}${whole}${exp > 0 ? '.' + digits.slice(-exp) : ''}`;
}

/**
 * Currencies written as the floor reads them where the platform writes only the ISO code: MOP$ for
 * patacas (Macau), S$ for Singapore dollars. HK$, US$ and the rest are the platform's own.
 */
const SYMBOLS: Record<string, string> = { MOP: 'MOP$', SGD: 'S$' };

const cache = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let f = cache.get(locale + key);
  if (!f) cache.set(locale + key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

/**
 * Figures as a person reads them in a language: Intl's grouping and signs, fed exact decimal
 * strings (Intl formats a numeric string without passing it through a double), so an amount past
 * 2^53 keeps every digit.
 */
export function formatter(lang: Lang) {
  const locale = localeOf(lang);
  const dash = '—';
  return {
    locale,
    /** Minor units as the amount ("12,345.50"), without the currency's symbol (columns name it). */
    money: (v: Amount | null | undefined, currency = 'USD'): string => {
      if (v === null || v === undefined) return dash;
      const exp = exponentOf(currency);
      return numberFormat(locale, `m${exp}`, { minimumFractionDigits: exp, maximumFractionDigits: exp }).format(decimalOf(v, exp) as `${number}`);
    },
    /** Minor units with the currency ("HK$1,000", "MOP 1,000.00"), for limits and single figures. */
    currency: (v: Amount | null | undefined, currency: string): string => {
      if (v === null || v === undefined) return dash;
      const exp = exponentOf(currency);
      const whole = BigInt(v) % 10n ** BigInt(exp) === 0n;
      const parts = numberFormat(locale, `c${currency}${whole}`, {
        style: 'currency',
        currency,
        minimumFractionDigits: whole ? 0 : exp,
        maximumFractionDigits: exp,
      }).formatToParts(decimalOf(v, exp) as `${number}`);
      const symbol = SYMBOLS[currency];
      if (!symbol) return parts.map((p) => p.value).join('');
      // The symbol in place of the code, and no space after it: MOP$1,000 as HK$1,000.
      return parts
        .filter((p, i) => !(p.type === 'literal' && /^\s+$/u.test(p.value) && parts[i - 1]?.type === 'currency'))
        .map((p) => (p.type === 'currency' ? symbol : p.value))
        .join('');
    },
    /** A count. */
    integer: (n: number | bigint | null | undefined): string => {
      return n === null || n === undefined ? dash : numberFormat(locale, 'i', { maximumFractionDigits: 0 }).format(n);
    },
    /** An exact decimal string ("0.54") as the language writes a number. */
    decimal: (v: string): string => {
      const decimals = v.split('.')[1]?.length ?? 0;
      return numberFormat(locale, `d${decimals}`, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(v as `${number}`);
    },
    /** A percentage the API gave as a decimal string ("12.34"), exactly as given. */
    percent: (p: string | null | undefined): string => {
      if (p === null || p === undefined) return dash;
      const decimals = p.split('.')[1]?.length ?? 0;
      return numberFormat(locale, `p${decimals}`, { style: 'unit', unit: 'percent', minimumFractionDigits: decimals }).format(p as `${number}`);
    },
    /** A probability (0..1) as a percentage with 4 decimals. */
    probability: (p: number): string => {
      return numberFormat(locale, 'pr', { style: 'percent', minimumFractionDigits: 4, maximumFractionDigits: 4 }).format(p);
    },
    /** A gaming day ("2026-11-27") as the language writes a date. */
    day: (day: string | null | undefined): string => {
      if (!day) return dash;
      return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.parse(day));
    },
    /** A moment, to the minute, in `timeZone` (the property's, where the screen knows it), else the browser's. */
    dateTime: (iso: string | null | undefined, timeZone?: string): string => {
      if (!iso) return dash;
      return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(Date.parse(iso));
    },
  };
}
export type Format = ReturnType<typeof formatter>;

/** The formatter of the language the screen is shown in. */
export const useFormat = (): Format => formatter(useLang());
