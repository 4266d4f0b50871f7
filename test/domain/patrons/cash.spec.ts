import {
  CashTransaction,
  expectedDrop,
  inMultipleTransactionLog,
  markerOutstanding,
  needsIdentification,
  patronCashDays,
  parseRate,
  reportCandidates,
  structuringAcrossDays,
  structuringAlerts,
} from '../../../src/domain';

/** The cash reports (docs/domain.md §11), on a gaming day worked by hand. US thresholds: 3,000.00 and 10,000.00. */
const US = { currency: 'USD', mtl: 300_000n, ctr: 1_000_000n, structuringFloorBps: 8_000 };
let n = 0;
const tx = (
  patronId: string | null,
  direction: 'IN' | 'OUT',
  amount: bigint,
  gamingDay = '2026-11-23',
  currency = 'USD',
  at = new Date(`${gamingDay}T20:00:00Z`),
): CashTransaction => ({
  id: `t${++n}`,
  patronId,
  direction,
  amount,
  currency,
  gamingDay,
  at,
});

describe('the multiple-transaction log and identification', () => {
  it('a transaction of 3,000.00 or more is logged; 2,999.99 is not; another currency is not judged', () => {
    expect(inMultipleTransactionLog(tx('P', 'IN', 300_000n), US)).toBe(true);
    expect(inMultipleTransactionLog(tx('P', 'IN', 299_999n), US)).toBe(false);
    expect(inMultipleTransactionLog(tx('P', 'IN', 900_000n, '2026-11-23', 'EUR'), US)).toBe(false);
  });
  it('one transaction of more than 10,000.00 needs the patron identified; 10,000.00 itself is not reportable and does not', () => {
    expect(needsIdentification(tx(null, 'IN', 1_000_001n), US)).toBe(true);
    expect(needsIdentification(tx(null, 'IN', 1_000_000n), US)).toBe(false);
    expect(needsIdentification(tx(null, 'IN', 999_999n), US)).toBe(false);
  });
});

describe('foreign cash and identification: judged by its worth in the reporting currency at the day’s rate', () => {
  const rate = (text: string) => parseRate(text)!;
  it('EUR at 1.0842: 9,300.00 is USD 10,083.06, over; 9,200.00 is USD 9,974.64, not', () => {
    expect(needsIdentification(tx(null, 'IN', 930_000n, '2026-11-23', 'EUR'), US, rate('1.0842'))).toBe(true);
    expect(needsIdentification(tx(null, 'IN', 920_000n, '2026-11-23', 'EUR'), US, rate('1.0842'))).toBe(false);
  });
  it('exactly at the threshold once converted is not over it: EUR 8,000.00 at 1.25 is USD 10,000.00; EUR 8,000.01 is over', () => {
    expect(needsIdentification(tx(null, 'IN', 800_000n, '2026-11-23', 'EUR'), US, rate('1.25'))).toBe(false);
    expect(needsIdentification(tx(null, 'IN', 800_001n, '2026-11-23', 'EUR'), US, rate('1.25'))).toBe(true);
  });
  it('the minor units of each currency: JPY 1,500,000 at 0.0067 is USD 10,050.00, over; JPY 1,492,537 is USD 9,999.99, not', () => {
    expect(needsIdentification(tx(null, 'OUT', 1_500_000n, '2026-11-23', 'JPY'), US, rate('0.0067'))).toBe(true);
    expect(needsIdentification(tx(null, 'OUT', 1_492_537n, '2026-11-23', 'JPY'), US, rate('0.0067'))).toBe(false);
  });
  it('with no rate to judge it by, foreign cash of any amount needs the patron', () => {
    expect(needsIdentification(tx(null, 'IN', 100n, '2026-11-23', 'EUR'), US, null)).toBe(true);
    expect(needsIdentification(tx(null, 'IN', 100n, '2026-11-23', 'EUR'), US)).toBe(true);
  });
});

describe('a gaming day of cash', () => {
  const log = [
    // A: four buy-ins of 2,900.00: each under the log threshold, 11,600.00 in all. Split.
    tx('A', 'IN', 290_000n),
    tx('A', 'IN', 290_000n),
    tx('A', 'IN', 290_000n),
    tx('A', 'IN', 290_000n),
    // A cashes out 9,000.00 and 2,000.00: 11,000.00 out, kept apart from the 11,600.00 in.
    tx('A', 'OUT', 900_000n),
    tx('A', 'OUT', 200_000n),
    // B: 5,000.00 and 4,500.00 in: 9,500.00, just under 10,000.00 (from 8,000.00 is "just under").
    tx('B', 'IN', 500_000n),
    tx('B', 'IN', 450_000n),
    // C: one 12,000.00 buy-in: a report candidate, nothing split.
    tx('C', 'IN', 1_200_000n),
    // D: 9,500.00 in one transaction: under, and one transaction is not a pattern.
    tx('D', 'IN', 950_000n),
    // B the next day: 9,000.00; days are not added together.
    tx('B', 'IN', 900_000n, '2026-11-24'),
    // Unnamed: cannot be aggregated.
    tx(null, 'IN', 800_000n),
    tx(null, 'IN', 800_000n),
  ];
  const days = patronCashDays(log, US);

  it('per patron, day and direction, in and out apart', () => {
    expect(days.map((d) => [d.patronId, d.gamingDay, d.direction, d.total])).toEqual([
      ['A', '2026-11-23', 'IN', 1_160_000n],
      ['A', '2026-11-23', 'OUT', 1_100_000n],
      ['B', '2026-11-23', 'IN', 950_000n],
      ['B', '2026-11-24', 'IN', 900_000n],
      ['C', '2026-11-23', 'IN', 1_200_000n],
      ['D', '2026-11-23', 'IN', 950_000n],
    ]);
  });

  it('report candidates: A in, A out, C', () => {
    expect(reportCandidates(days, US).map((d) => [d.patronId, d.direction, d.total])).toEqual([
      ['A', 'IN', 1_160_000n],
      ['A', 'OUT', 1_100_000n],
      ['C', 'IN', 1_200_000n],
    ]);
  });

  it('structuring: A split under the log threshold, B just under the report threshold; not D nor B the next day (one transaction each), not A out (9,000.00 is logged)', () => {
    expect(structuringAlerts(days, US).map((d) => [d.patronId, d.gamingDay, d.direction, d.pattern])).toEqual([
      ['A', '2026-11-23', 'IN', 'SPLIT'],
      ['B', '2026-11-23', 'IN', 'JUST_UNDER'],
    ]);
  });

  it('the total just under from two transactions the next day is a pattern again', () => {
    const next = patronCashDays([tx('B', 'IN', 450_000n, '2026-11-25'), tx('B', 'IN', 400_000n, '2026-11-25')], US);
    expect(structuringAlerts(next, US).map((d) => [d.total, d.pattern])).toEqual([[850_000n, 'JUST_UNDER']]);
  });

  it('exactly 10,000.00 is not reportable: no candidate, and just under (at it) when made of two transactions; 10,000.01 is a candidate', () => {
    const at = patronCashDays(
      [tx('E', 'IN', 500_000n), tx('E', 'IN', 500_000n), tx('F', 'IN', 250_000n), tx('F', 'IN', 250_000n), tx('F', 'IN', 250_000n), tx('F', 'IN', 250_000n)],
      US,
    );
    expect(reportCandidates(at, US)).toEqual([]);
    expect(structuringAlerts(at, US).map((d) => [d.patronId, d.total, d.pattern])).toEqual([
      ['E', 1_000_000n, 'JUST_UNDER'],
      ['F', 1_000_000n, 'JUST_UNDER'],
    ]);
    const over = patronCashDays([tx('F', 'IN', 250_000n), tx('F', 'IN', 250_000n), tx('F', 'IN', 250_000n), tx('F', 'IN', 250_001n)], US);
    expect(reportCandidates(over, US).map((d) => d.total)).toEqual([1_000_001n]);
    expect(structuringAlerts(over, US).map((d) => [d.total, d.pattern])).toEqual([[1_000_001n, 'SPLIT']]);
  });

  it('the floor is the property’s: at 95 %, 9,500.00 is just under and 9,000.00 is not', () => {
    const strict = { ...US, structuringFloorBps: 9_500 };
    expect(structuringAlerts(days, strict).map((d) => [d.patronId, d.gamingDay, d.pattern])).toEqual([
      ['A', '2026-11-23', 'SPLIT'],
      ['B', '2026-11-23', 'JUST_UNDER'],
    ]);
  });
});

describe('structuring across a gaming-day boundary: a rolling 24 hours', () => {
  // A Las Vegas property: the gaming day starts at 06:00 local (14:00 UTC in November).
  const at = (iso: string) => new Date(iso);
  it('9,500.00 just before the gaming day ends and 9,500.00 just after: 19,000.00 over two days, neither a report candidate', () => {
    const log = [
      tx('G', 'IN', 950_000n, '2026-11-23', 'USD', at('2026-11-24T13:55:00Z')),
      tx('G', 'IN', 950_000n, '2026-11-24', 'USD', at('2026-11-24T14:05:00Z')),
    ];
    expect(reportCandidates(patronCashDays(log, US), US)).toEqual([]);
    expect(structuringAlerts(patronCashDays(log, US), US)).toEqual([]);
    const [alert, ...none] = structuringAcrossDays(log, US);
    expect(none).toEqual([]);
    expect([alert.patronId, alert.gamingDay, alert.direction, alert.total, alert.pattern]).toEqual(['G', '2026-11-24', 'IN', 1_900_000n, 'ACROSS_DAYS']);
    expect(alert.transactions.map((t) => t.gamingDay)).toEqual(['2026-11-23', '2026-11-24']);
  });
  it('the same over a longer gap than 24 hours is not; exactly 24 hours apart is', () => {
    const apart = (later: string) => [
      tx('H', 'OUT', 950_000n, '2026-11-23', 'USD', at('2026-11-23T14:00:00Z')),
      tx('H', 'OUT', 950_000n, '2026-11-24', 'USD', at(later)),
    ];
    expect(structuringAcrossDays(apart('2026-11-24T14:01:00Z'), US)).toEqual([]);
    expect(structuringAcrossDays(apart('2026-11-24T14:00:00Z'), US).map((a) => [a.total, a.pattern])).toEqual([[1_900_000n, 'ACROSS_DAYS']]);
  });
  it('not when a day’s part is reportable by itself, nor under the threshold in all, nor cash in beside cash out, nor unnamed or foreign cash', () => {
    const log = [
      // A day's part over the threshold: that day is reported.
      tx('I', 'IN', 1_200_000n, '2026-11-23', 'USD', at('2026-11-24T13:00:00Z')),
      tx('I', 'IN', 50_000n, '2026-11-24', 'USD', at('2026-11-24T15:00:00Z')),
      // 10,000.00 in all: not more than the threshold.
      tx('J', 'IN', 500_000n, '2026-11-23', 'USD', at('2026-11-24T13:00:00Z')),
      tx('J', 'IN', 500_000n, '2026-11-24', 'USD', at('2026-11-24T15:00:00Z')),
      // In and out are never added.
      tx('K', 'IN', 900_000n, '2026-11-23', 'USD', at('2026-11-24T13:00:00Z')),
      tx('K', 'OUT', 900_000n, '2026-11-24', 'USD', at('2026-11-24T15:00:00Z')),
      tx(null, 'IN', 900_000n, '2026-11-23', 'USD', at('2026-11-24T13:00:00Z')),
      tx(null, 'IN', 900_000n, '2026-11-24', 'USD', at('2026-11-24T15:00:00Z')),
      tx('L', 'IN', 900_000n, '2026-11-23', 'EUR', at('2026-11-24T13:00:00Z')),
      tx('L', 'IN', 900_000n, '2026-11-24', 'EUR', at('2026-11-24T15:00:00Z')),
    ];
    expect(structuringAcrossDays(log, US)).toEqual([]);
  });
  it('one alert for the largest window: 4,000.00 × 3 over the boundary is one alert of 12,000.00, not one per window', () => {
    const log = [
      tx('M', 'IN', 400_000n, '2026-11-23', 'USD', at('2026-11-24T12:00:00Z')),
      tx('M', 'IN', 400_000n, '2026-11-23', 'USD', at('2026-11-24T13:30:00Z')),
      tx('M', 'IN', 400_000n, '2026-11-24', 'USD', at('2026-11-24T14:30:00Z')),
    ];
    expect(structuringAcrossDays(log, US).map((a) => [a.total, a.transactions.length])).toEqual([[1_200_000n, 3]]);
  });
});

describe('markers and the drop', () => {
  it('a marker owes its amount less what was paid', () => expect(markerOutstanding(500_000n, [100_000n, 150_000n])).toBe(250_000n));
  it('a voided marker owes nothing', () => {
    expect(markerOutstanding(500_000n, [], true)).toBe(0n);
    expect(markerOutstanding(500_000n, [], false)).toBe(500_000n);
  });
  it('the drop is cash and markers; chips from another table never go in the box', () => {
    expect(
      expectedDrop([
        { kind: 'CASH', amount: 100_000n },
        { kind: 'CHIPS', amount: 50_000n },
        { kind: 'MARKER', amount: 500_000n },
      ]),
    ).toBe(600_000n);
  });
});
