import type { Amount } from './api';

/** Digits after the point of a currency (2 for USD and EUR, 0 for JPY), from the browser's own tables. */
export function exponentOf(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Minor units as the amount a person reads ("12,345.50"), exact at any size: no floating point. */
export function money(v: Amount | null | undefined, currency = 'USD'): string {
  if (v === null || v === undefined) return '—';
  const exp = exponentOf(currency);
  const n = BigInt(v);
  const neg = n < 0n;
  const digits = (neg ? -n : n).toString().padStart(exp + 1, '0');
  const whole = digits.slice(0, digits.length - exp).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = exp > 0 ? '.' + digits.slice(-exp) : '';
  return `${neg ? '−' : ''}${whole}${frac}`;
}

/** A percentage the API gave as a decimal string, or a dash. */
export function percent(p: string | null | undefined): string {
  return p === null || p === undefined ? '—' : `${p.replace(/^-/, '−')} %`;
}

/** A probability (0..1) as a percentage with 4 decimals. */
export function probability(p: number): string {
  return `${(p * 100).toFixed(4)} %`;
}
