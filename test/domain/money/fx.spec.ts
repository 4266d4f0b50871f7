import { formatRate, minorDigits, minorUnitRatio, parseRate, translate } from '../../../src/domain';

describe('exchange rates as integers', () => {
  it.each([
    ['1.0842', 1_084_200_000n],
    ['149.5', 149_500_000_000n],
    ['0.0067', 6_700_000n],
    ['1', 1_000_000_000n],
    ['0.000000001', 1n],
    ['1000000', 1_000_000_000_000_000n],
  ])('%p is %i billionths', (text, e9) => {
    expect(parseRate(text)).toBe(e9);
    expect(formatRate(e9)).toBe(text);
  });

  it.each(['', '0', '0.0', '-1', '1.', '.5', '1,08', '1.0000000001', '1000000.000000001', '1e3', ' 1'])('refuses %p', (text) => {
    expect(parseRate(text)).toBeNull();
  });

  it('knows the currencies without two minor digits', () => {
    expect([minorDigits('USD'), minorDigits('EUR'), minorDigits('MOP'), minorDigits('JPY'), minorDigits('KRW'), minorDigits('KWD')]).toEqual([
      2, 2, 2, 0, 0, 3,
    ]);
  });

  it('moves the decimal point between currencies of different digits', () => {
    // 1 JPY = 0.0067 USD: one yen is 0.67 cents
    expect(minorUnitRatio(6_700_000n, 'JPY', 'USD')).toEqual({ numerator: 670_000_000n, denominator: 1_000_000_000n });
    // 1 USD = 149.5 JPY: one cent is 1.495 yen
    expect(minorUnitRatio(149_500_000_000n, 'USD', 'JPY')).toEqual({ numerator: 149_500_000_000n, denominator: 100_000_000_000n });
    // 1 KWD = 3.25 USD: one fils is 0.325 cents
    expect(minorUnitRatio(3_250_000_000n, 'KWD', 'USD')).toEqual({ numerator: 3_250_000_000n, denominator: 10_000_000_000n });
  });
});

describe('translating a figure into the group currency', () => {
  const eur = (amount: bigint, rate: string) => ({ amount, currency: 'EUR', rateE9: parseRate(rate)! });

  it('is the exact sum of each day at its rate, rounded once, half away from zero', () => {
    // EUR 100.00 at 1.0842 and EUR 100.00 at 1.0845: 10842 + 10845 cents
    expect(translate([eur(10_000n, '1.0842'), eur(10_000n, '1.0845')], 'USD')).toBe(21_687n);
    // 0.50 cent halves: EUR 0.05 at 1.1 is 5.5 cents → 6; −5.5 → −6
    expect(translate([eur(5n, '1.1')], 'USD')).toBe(6n);
    expect(translate([eur(-5n, '1.1')], 'USD')).toBe(-6n);
    // 4.45 + 4.45 = 8.9 → 9, where rounding each day first (4 + 4) would give 8
    expect(translate([eur(1n, '4.45'), eur(1n, '4.45')], 'USD')).toBe(9n);
  });

  it('adds amounts of several currencies and digits into one', () => {
    // JPY 10,000 at 0.0067 = 6,700 cents; KWD 1.000 at 3.25 = 325 cents; USD 1.00 at 1 = 100 cents
    const amounts = [
      { amount: 10_000n, currency: 'JPY', rateE9: parseRate('0.0067')! },
      { amount: 1_000n, currency: 'KWD', rateE9: parseRate('3.25')! },
      { amount: 100n, currency: 'USD', rateE9: parseRate('1')! },
    ];
    expect(translate(amounts, 'USD')).toBe(7_125n);
    // into yen: USD 1.00 at 149.5 is 149.5 yen → 150 (half away from zero)
    expect(translate([{ amount: 100n, currency: 'USD', rateE9: parseRate('149.5')! }], 'JPY')).toBe(150n);
  });

  it('is 0 for nothing, and stays exact past 2^53', () => {
    expect(translate([], 'USD')).toBe(0n);
    expect(translate([eur(9_007_199_254_740_993n, '1')], 'USD')).toBe(9_007_199_254_740_993n);
  });
});
