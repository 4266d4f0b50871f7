import { bpsOf, minorOf } from '../../app/src/amounts';

/** An amount typed on a screen becomes exact minor units of the currency, or is refused; never a float's rounding. */
describe('minorOf, the one conversion of a typed amount', () => {
  it.each([
    ['1,234.50', 'HKD', 123_450n],
    ['1234.5', 'MOP', 123_450n],
    ['500', 'USD', 50_000n],
    [' 0.01 ', 'USD', 1n],
    ['10000', 'JPY', 10_000n],
    ['1.234', 'KWD', 1_234n],
    ['9007199254740.99', 'USD', 900_719_925_474_099n],
    ['0.29', 'USD', 29n],
    ['１２３４．５', 'HKD', 123_450n],
    ['1,234,567', 'MOP', 123_456_700n],
  ])('%s %s is %s minor units', (typed, currency, minor) => {
    expect(minorOf(typed, currency)).toBe(minor);
  });

  it.each([
    ['1.001', 'USD'],
    ['100.5', 'JPY'],
    ['-5', 'USD'],
    ['1e3', 'USD'],
    ['', 'USD'],
    ['1.2.3', 'USD'],
    ['abc', 'HKD'],
    ['1.234,50', 'HKD'],
    ['1,2,3', 'USD'],
    ['12,34', 'USD'],
    ['1.', 'USD'],
  ])('%s %s is refused', (typed, currency) => expect(minorOf(typed, currency)).toBeNull());
});

/** A rate typed on a screen becomes whole basis points, or is refused. */
describe('bpsOf, the one conversion of a typed rate', () => {
  it.each([
    ['1.2', 120],
    ['0.75', 75],
    ['5', 500],
    ['１.５', 150],
    ['2.5 %', 250],
    ['100', 10_000],
    ['0', 0],
  ])('%s %% is %s basis points', (typed, bps) => {
    expect(bpsOf(typed)).toBe(bps);
  });
  it.each(['1.234', '-1', '100.01', '1,2', '', 'abc', '1e2'])('%s is refused', (typed) => {
    expect(bpsOf(typed)).toBeNull();
  });
});
