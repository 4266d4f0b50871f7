import {
  CashTransaction,
  expectedDrop,
  inMultipleTransactionLog,
  markerOutstanding,
  needsIdentification,
  patronCashDays,
  reportCandidates,
  structuringAlerts,
} from '../../src/domain';

/** The cash reports (docs/domain.md §11), on a gaming day worked by hand. US thresholds: 3,000.00 and 10,000.00. */
const US = { currency: 'USD', mtl: 300_000n, ctr: 1_000_000n, structuringFloorBps: 8_000 };
let n = 0;
const tx = (patronId: string | null, direction: 'IN' | 'OUT', amount: bigint, gamingDay = '2026-11-23', currency = 'USD'): CashTransaction => ({
  id: `t${++n}`,
  patronId,
  direction,
  amount,
  currency,
  gamingDay,
});

describe('the multiple-transaction log and identification', () => {
  it('a transaction from 3,000.00 is logged; 2,999.99 is not; another currency is not judged', () => {
    expect(inMultipleTransactionLog(tx('P', 'IN', 300_000n), US)).toBe(true);
    expect(inMultipleTransactionLog(tx('P', 'IN', 299_999n), US)).toBe(false);
    expect(inMultipleTransactionLog(tx('P', 'IN', 900_000n, '2026-11-23', 'EUR'), US)).toBe(false);
  });
  it('one transaction of 10,000.00 or more needs the patron identified', () => {
    expect(needsIdentification(tx(null, 'IN', 1_000_000n), US)).toBe(true);
    expect(needsIdentification(tx(null, 'IN', 999_999n), US)).toBe(false);
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

  it('the floor is the property’s: at 95 %, 9,500.00 is just under and 9,000.00 is not', () => {
    const strict = { ...US, structuringFloorBps: 9_500 };
    expect(structuringAlerts(days, strict).map((d) => [d.patronId, d.gamingDay, d.pattern])).toEqual([
      ['A', '2026-11-23', 'SPLIT'],
      ['B', '2026-11-23', 'JUST_UNDER'],
    ]);
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
