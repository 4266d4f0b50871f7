import fc from 'fast-check';
import { canonicalJson } from '../../src/platform/common/canonical';

/**
 * The one canonical JSON (RFC 8785 via `canonicalize`) against a plain model of what the audit log,
 * the checkpoints and the Idempotency-Key hashes were written with before: keys sorted by code
 * unit, undefined members left out, bigints as decimal strings. Stored hashes and digests stay valid.
 */
function model(value: unknown): string {
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(model).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${model((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

describe('canonical JSON', () => {
  it('equals the model on any JSON value, with bigints and dates mixed in', () => {
    const leaf = fc.oneof(
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
      fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4102444800000) }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(value, (v) => canonicalJson(v) === model(v)),
      { numRuns: 2000 },
    );
  });

  it('is RFC 8785 where the model had nothing to say: numbers in their shortest form, keys by UTF-16 code unit', () => {
    expect(canonicalJson({ b: 1e21, a: 0.1 + 0.2, c: -0, '\u20ac': 1, '\ud83d\ude00': 2, z: 1 })).toBe(
      '{"a":0.30000000000000004,"b":1e+21,"c":0,"z":1,"€":1,"😀":2}',
    );
    expect(() => canonicalJson({ bad: '\ud800' })).toThrow('Lone surrogate');
  });
});
