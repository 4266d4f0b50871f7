import { formatOdds, odds, parseOdds, roundMoney, RoundingMode } from '../../../src/domain';

describe('pays: "to" and "for" bases', () => {
  it.each([
    ['8 to 1', 8, 1],
    ['8:1', 8, 1],
    ['9 for 1', 8, 1],
    ['9 to 1', 9, 1],
    ['0.54 to 1', 27, 50],
    ['1.5:1', 3, 2],
    ['1:2', 1, 2],
    ['11', 11, 1],
    ['250 to 1', 250, 1],
    ['2 for 1', 1, 1],
  ])('%p is %i/%i to 1', (text, n, d) => {
    expect(parseOdds(text)).toEqual({ numerator: n, denominator: d });
  });

  it.each(['', 'abc', 'eight to one', '8 to 0', '1 for 2', '-1 to 1', '8 to 1 to 1', '1.23456 to 1'])('rejects %p', (text) => {
    expect(() => parseOdds(text)).toThrow(expect.objectContaining({ code: 'INVALID_RULES' }));
  });

  it.each([
    [odds(8), '8 to 1'],
    [odds(27, 50), '0.54 to 1'],
    [odds(3, 2), '1.5 to 1'],
    [odds(1, 2), '0.5 to 1'],
    [odds(1, 3), '1 to 3'],
  ])('%p prints as %p', (o, text) => {
    expect(formatOdds(o)).toBe(text);
    expect(parseOdds(text)).toEqual(o);
  });
});

describe('roundMoney: the one place money is rounded', () => {
  // amount × num / den, to a multiple of unit.
  it.each<[bigint, bigint, bigint, number, RoundingMode, bigint]>([
    // 5% commission on 1010: exactly 50.5
    [1010n, 500n, 10000n, 1, 'FLOOR', 50n],
    [1010n, 500n, 10000n, 1, 'HALF_UP', 51n],
    [1010n, 500n, 10000n, 1, 'CEILING', 51n],
    // 5% of 1009 = 50.45
    [1009n, 500n, 10000n, 1, 'HALF_UP', 50n],
    [1009n, 500n, 10000n, 1, 'CEILING', 51n],
    // exact amounts are never moved
    [1000n, 500n, 10000n, 1, 'CEILING', 50n],
    [1000n, 500n, 10000n, 25, 'CEILING', 50n],
    // to a 25-unit chip: 50.5 → 50 / 75 / 50
    [1010n, 500n, 10000n, 25, 'FLOOR', 50n],
    [1010n, 500n, 10000n, 25, 'CEILING', 75n],
    [1010n, 500n, 10000n, 25, 'HALF_UP', 50n],
    // Super 6 half-pay on an odd stake: 1001 / 2 = 500.5
    [1001n, 1n, 2n, 1, 'FLOOR', 500n],
    [1001n, 1n, 2n, 1, 'HALF_UP', 501n],
    [1001n, 1n, 2n, 1, 'CEILING', 501n],
    [1001n, 1n, 2n, 25, 'HALF_UP', 500n],
    [1001n, 1n, 2n, 25, 'CEILING', 525n],
    // half a chip rounds up under HALF_UP: 37.5 → 50 at unit 25
    [75n, 1n, 2n, 25, 'HALF_UP', 50n],
    // 0.54 to 1 on 1001 = 540.54
    [1001n, 27n, 50n, 1, 'FLOOR', 540n],
    [1001n, 27n, 50n, 1, 'HALF_UP', 541n],
    [0n, 1n, 2n, 1, 'CEILING', 0n],
  ])('%p × %p / %p to unit %p, %s → %p', (amount, num, den, unit, mode, expected) => {
    expect(roundMoney(amount, num, den, { unit, mode })).toBe(expected);
  });

  it('refuses negative amounts rather than guess a direction', () => {
    expect(() => roundMoney(-1n, 1n, 2n, { unit: 1, mode: 'FLOOR' })).toThrow(RangeError);
  });
});
