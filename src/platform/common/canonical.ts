import canonicalize from 'canonicalize';

/**
 * The exact text that is hashed, signed or compared: RFC 8785 (JSON Canonicalization Scheme)
 * through the `canonicalize` package, after turning what JSON has no word for into what the
 * service writes on the wire: bigints as decimal strings (Dates become ISO text by their toJSON).
 * One function for the audit log, checkpoints and Idempotency-Key request hashes. Request bodies
 * reach it only after checkBodyShape (at most 16 levels deep, well-formed text without NUL, finite numbers).
 */
export function canonicalJson(value: unknown): string {
  return canonicalize(plain(value)) ?? 'null';
}

function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}
