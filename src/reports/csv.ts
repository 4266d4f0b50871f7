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

/** Rows as CSV (RFC 4180, via csv-stringify), columns in first-seen order; group values lose their "group." prefix. */
export function toCsv(rows: Record<string, unknown>[]): string {
  const flat = rows.map((r) => Object.fromEntries(Object.entries(flatten(r)).map(([k, v]) => [k.replace(/^group\./, ''), v ?? ''])));
  const columns: string[] = [];
  for (const r of flat) for (const k of Object.keys(r)) if (!columns.includes(k)) columns.push(k);
  return stringify(flat, { header: true, columns });
}
