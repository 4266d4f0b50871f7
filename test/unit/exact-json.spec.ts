import { parseExact, stringifyExact } from '../../src/platform/common/exact-json';

describe('exact JSON for money', () => {
  it('reads an integer past 2^53 as a bigint with every digit, and writes the same digits back', () => {
    const text = '{"handle":9007199255975561,"wagers":502,"holdPercent":"5.6346","rows":[{"win":-9007199254740993}]}';
    const v = parseExact<{ handle: bigint; wagers: number; holdPercent: string; rows: { win: bigint }[] }>(text);
    expect(v.handle).toBe(9007199255975561n);
    expect(v.rows[0].win).toBe(-9007199254740993n);
    expect(v.wagers).toBe(502);
    expect(stringifyExact(v)).toBe(text);
  });

  it('keeps safe integers numbers, even beside a 16-digit run inside a string', () => {
    const v = parseExact<{ code: string; handle: number; max: number }>('{"code":"T-1234567890123456","handle":123456789012345,"max":9007199254740991}');
    expect(v).toEqual({ code: 'T-1234567890123456', handle: 123456789012345, max: 9007199254740991 });
  });

  it('writes what JSON.stringify writes when there is no bigint', () => {
    const v = { d: new Date(0), s: 'quote " and \\ back', n: null, list: [1, 'a'] };
    expect(stringifyExact(v)).toBe(JSON.stringify(v));
  });
});
