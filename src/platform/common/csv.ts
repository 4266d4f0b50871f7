import type { Response } from 'express';
import { stringify } from 'csv-stringify/sync';

/** Flattens nested objects into dotted columns: { outcomes: { ties: 3 } } → { "outcomes.ties": 3 }. */
function flatten(obj: Record<string, unknown>, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v as Record<string, unknown>, key, out);
    else out[key] = v;
  }
  return out;
}

/** A number written as text (a hold %, an expected count): a spreadsheet reads it as the number it is. */
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * A text value a spreadsheet would run as a formula (OWASP, CSV injection: it starts with =, +, -,
 * @, a tab or a carriage return) gets a leading apostrophe, so it shows as the text it is. Numbers,
 * negative ones included, are left as they are.
 */
export function neutralise(v: unknown): unknown {
  return typeof v === 'string' && /^[=+\-@\t\r]/.test(v) && !NUMBER.test(v) ? `'${v}` : v;
}

/** Rows as CSV (RFC 4180, via csv-stringify), columns in first-seen order; group values lose their "group." prefix. */
export function toCsv(rows: Record<string, unknown>[]): string {
  const flat = rows.map((r) => Object.fromEntries(Object.entries(flatten(r)).map(([k, v]) => [k.replace(/^group\./, ''), neutralise(v ?? '')])));
  const columns: string[] = [];
  for (const r of flat) for (const k of Object.keys(r)) if (!columns.includes(k)) columns.push(k);
  return stringify(flat, { header: true, columns });
}

/** Whether the client asked for CSV (`Accept: text/csv`). */
export function wantsCsv(accept: string | undefined): boolean {
  return /\btext\/csv\b/i.test(accept ?? '');
}

/** Rows answered as CSV. */
export function asCsv(res: Response, rows: Record<string, unknown>[]): string {
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  return toCsv(rows);
}
