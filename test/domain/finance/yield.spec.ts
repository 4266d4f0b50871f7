import fc from 'fast-check';
import {
  adviseYield,
  bestTables,
  estimateLevels,
  estimateToMinor,
  evaluateYield,
  exactMean,
  meanAndStandardError,
  MIN_LEVEL_TABLE_HOURS,
  seatedByLevel,
  YieldCell,
} from '../../../src/domain';

/**
 * The yield advisor (docs/domain.md §15), every figure worked by hand in the section's example:
 * Monday 20:00 at a property of three tables of 9 seats, two tables open at 100.00, then one raised
 * to 500.00 keeps half its players and the others sit down at the 100.00 table.
 */
const E12 = 10n ** 12n;
const cell = (tableId: string, week: number, minBet: bigint, seatHours: number, theo: bigint, avgBet: bigint, hourOfWeek = 20): YieldCell => ({
  tableId,
  hourOfWeek,
  week,
  minBet,
  openHours: 1,
  seatHours,
  playerDecisions: seatHours * 10, // 10 coups in the hour
  handle: BigInt(seatHours * 10) * avgBet,
  theoE12: theo * E12,
});
const slots = (weeks: number[]) => weeks.flatMap((week) => [20, 21].map((hourOfWeek) => ({ hourOfWeek, week })));

// Training: week 0 A 6 players and B 4 at 100.00; week 1 A at 500.00 keeps 3, B at 100.00 has 7.
const TRAIN = [
  cell('A', 0, 10000n, 6, 12000n, 20000n),
  cell('B', 0, 10000n, 4, 8000n, 20000n),
  cell('A', 1, 50000n, 3, 30000n, 60000n),
  cell('B', 1, 10000n, 7, 14000n, 20000n),
];
// Held back: week 0 as the first; week 1 only A at 100.00 with 6.
const HELD = [cell('A', 0, 10000n, 6, 12000n, 20000n), cell('B', 0, 10000n, 4, 8000n, 20000n), cell('A', 1, 10000n, 6, 12000n, 20000n)];

describe('the levels: occupancy, average bet, theo per seat-hour, retention', () => {
  it('are read from the history as §15 works them', () => {
    const [lo, hi] = estimateLevels(TRAIN);
    expect(lo).toMatchObject({ minBet: 10000n, tableHours: 3, seatHours: 17, playerDecisions: 170, averageBet: 20000n, retention: 1, retentionFrom: 'LOWEST' });
    expect(lo.occupancy).toBeCloseTo(17 / 3, 12);
    expect(lo.theoPerSeatHour).toBeCloseTo(2000, 9); // 340.00 over 17 seat-hours
    // Table A at Monday 20:00: 6 players at 100.00, 3 at 500.00.
    expect(hi).toMatchObject({
      minBet: 50000n,
      tableHours: 1,
      seatHours: 3,
      occupancy: 3,
      averageBet: 60000n,
      retention: 0.5,
      retentionFrom: 'SAME_TABLE_HOUR',
    });
    expect(hi.theoPerSeatHour).toBeCloseTo(10000, 9);
  });

  it('fall back to the same hour across tables, and a higher minimum never keeps more than a lower', () => {
    // No table plays both minimums; in hour 20, 100.00 seats 8 at C, 200.00 seats 4 at D, 500.00 seats 6 at E.
    const cells = [cell('C', 0, 10000n, 8, 1n, 1n), cell('D', 0, 20000n, 4, 1n, 1n), cell('E', 0, 50000n, 6, 1n, 1n)];
    const [, mid, top] = estimateLevels(cells);
    expect(mid).toMatchObject({ retention: 0.5, retentionFrom: 'SAME_HOUR' });
    expect(top).toMatchObject({ retention: 0.5, retentionFrom: 'SAME_HOUR' }); // 6/8 = 0.75 capped at 0.5
  });

  it('leave a minimum never seen beside the lowest without a retention', () => {
    const cells = [cell('C', 0, 10000n, 8, 1n, 1n, 20), cell('D', 0, 50000n, 4, 1n, 1n, 21)];
    expect(estimateLevels(cells)[1]).toMatchObject({ retention: null, retentionFrom: null });
  });

  it('count an empty table: open with nobody seated, retention 0 and no theo per seat-hour', () => {
    const cells = [cell('A', 0, 10000n, 6, 12000n, 20000n), cell('A', 1, 50000n, 0, 0n, 60000n)];
    expect(estimateLevels(cells)[1]).toMatchObject({ retention: 0, occupancy: 0, theoPerSeatHour: null, averageBet: null });
  });
});

describe('seating and the best tables', () => {
  const levels = [
    { minBet: 10000n, retention: 1, value: 2000 },
    { minBet: 50000n, retention: 0.5, value: 10000 },
  ];
  it('fills from the highest minimum down, each with those willing to play at it', () => {
    expect(seatedByLevel(levels, [1, 1], 10, 9)).toEqual([5, 5]);
    expect(seatedByLevel(levels, [1, 1], 30, 9)).toEqual([9, 9]);
    expect(seatedByLevel(levels, [2, 0], 10, 9)).toEqual([10, 0]);
    expect(seatedByLevel(levels, [0, 2], 10, 9)).toEqual([0, 5]);
  });
  it('chooses the most theo, then the fewest tables, then the lowest minimums', () => {
    // (1, 1) = 5 × 100.00 + 5 × 20.00 = 600.00; (2, 1) and (1, 2) seat no more.
    expect(bestTables(levels, [10, 10], 3, 9)).toEqual({ tables: [1, 1], value: 60000, exhaustive: true });
    expect(bestTables(levels, [0, 0], 3, 9)).toEqual({ tables: [0, 0], value: 0, exhaustive: true });
    // Equal theo per seat-hour and nobody lost at 500.00: the lower minimum.
    expect(bestTables([levels[0], { minBet: 50000n, retention: 1, value: 2000 }], [5], 3, 9).tables).toEqual([1, 0]);
    // Forty willing players, two tables: both at 500.00 (18 seats of 20 willing).
    expect(bestTables(levels, [40], 2, 9)).toEqual({ tables: [0, 2], value: 180000, exhaustive: true });
  });
});

describe('the search beyond EXHAUSTIVE_SEARCH_LIMIT combinations', () => {
  const levelsOf = (rs: number[], vs: number[]) =>
    rs
      .map((r, i) => ({ minBet: BigInt((i + 1) * 2500), retention: r, value: vs[i] }))
      .sort((a, b) => (a.minBet < b.minBet ? -1 : 1))
      .map((l, i, all) => ({ ...l, retention: i === 0 ? 1 : Math.min(l.retention, ...all.slice(0, i).map((x) => x.retention)) }));

  it('finds the worked example by local search too', () => {
    const levels = [
      { minBet: 10000n, retention: 1, value: 2000 },
      { minBet: 50000n, retention: 0.5, value: 10000 },
    ];
    expect(bestTables(levels, [10, 10], 3, 9, 0)).toEqual({ tables: [1, 1], value: 60000, exhaustive: false });
  });

  it('never advises more than the exhaustive search finds, nor less than the best single minimum (random cases)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.integer({ min: 0, max: 80 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 8 }),
        (rs, vs, demands, tables) => {
          const levels = levelsOf(rs, vs);
          const full = bestTables(levels, demands, tables, 9);
          const local = bestTables(levels, demands, tables, 9, 0);
          const single = Math.max(0, ...levels.map((_l, i) => bestTables([levels[i]], demands, tables, 9).value));
          expect(local.value).toBeLessThanOrEqual(full.value * (1 + 1e-9) + 1e-9);
          expect(local.value).toBeGreaterThanOrEqual(single * (1 - 1e-9) - 1e-9);
          expect(local.tables.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(tables);
        },
      ),
      { seed: 20261127, numRuns: 300 },
    );
  });

  it('answers five minimums, 200 tables and 13 weeks of a busy hour without trying every combination', () => {
    const levels = levelsOf([1, 0.8, 0.5, 0.3, 0.1], [1500, 2500, 4000, 7000, 20000]);
    const demands = Array.from({ length: 13 }, (_, w) => 1500 + 10 * w);
    const r = bestTables(levels, demands, 200, 9);
    expect(r.exhaustive).toBe(false);
    expect(r.tables.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(200);
    expect(r.value).toBeGreaterThan(0);
  });
});

describe('rounding and the band', () => {
  it('rounds an estimate once, half away from zero', () => {
    expect([0.5, -0.5, 2.4999, 2.5, -2.5, 59999.9999999].map(estimateToMinor)).toEqual([1n, -1n, 2n, 3n, -3n, 60000n]);
    expect(exactMean(3n * E12 + E12 / 2n, 1n)).toBe(4n);
    expect(exactMean(5n * E12, 2n)).toBe(3n); // 2.5 → 3
    expect(exactMean(-5n * E12, 2n)).toBe(-3n);
  });
  it('takes the standard error over the weeks (n − 1)', () => {
    expect(meanAndStandardError([20000, 44000])).toEqual({ mean: 32000, se: 12000 });
    expect(meanAndStandardError([7])).toEqual({ mean: 7, se: null });
  });
});

describe('the worked example of docs/domain.md §15', () => {
  it('advises one table at 500.00 and one at 100.00 on Monday 20:00', () => {
    const a = adviseYield({ cells: TRAIN, slots: slots([0, 1]), tables: 3, seats: 9 });
    expect(a.weeks).toBe(2);
    const [h20, h21] = a.hours;
    expect(h20).toEqual({
      hourOfWeek: 20,
      weeks: 2,
      demand: 10,
      advice: [
        { minBet: 10000n, tables: 1 },
        { minBet: 50000n, tables: 1 },
      ],
      expected: { mean: 60000n, low: 60000n, high: 60000n },
      done: [
        { minBet: 10000n, tables: 1.5 },
        { minBet: 50000n, tables: 0.5 },
      ],
      actual: { mean: 32000n, low: 8000n, high: 56000n },
      modelOfDone: 40000n,
      gain: { mean: 28000n, low: 4000n, high: 52000n },
    });
    expect(h21).toEqual({
      hourOfWeek: 21,
      weeks: 2,
      demand: 0,
      advice: [],
      expected: { mean: 0n, low: 0n, high: 0n },
      done: [],
      actual: { mean: 0n, low: 0n, high: 0n },
      modelOfDone: 0n,
      gain: { mean: 0n, low: 0n, high: 0n },
    });
    expect(a.totals).toEqual({
      expected: { mean: 60000n, low: 60000n, high: 60000n },
      actual: { mean: 32000n, low: 8000n, high: 56000n },
      modelOfDone: 40000n,
      gain: { mean: 28000n, low: 4000n, high: 52000n },
    });
  });

  it('would have won 640.00 more in the two held-back weeks (band 320.00 to 960.00)', () => {
    const { evaluation } = evaluateYield({ cells: TRAIN, slots: slots([0, 1]), tables: 3, seats: 9 }, { cells: HELD, slots: slots([0, 1]) });
    expect(evaluation).toEqual({
      heldWeeks: 2,
      advised: { mean: 96000n, low: 48000n, high: 144000n },
      actual: 32000n,
      modelOfDone: 32000n,
      gain: { mean: 64000n, low: 32000n, high: 96000n },
      weeks: [
        { week: 0, advised: 60000n, actual: 20000n, modelOfDone: 20000n },
        { week: 1, advised: 36000n, actual: 12000n, modelOfDone: 12000n },
      ],
    });
  });

  it('bands nothing from one week', () => {
    const a = adviseYield({ cells: TRAIN.filter((c) => c.week === 0), slots: slots([0]), tables: 3, seats: 9 });
    expect(a.hours[0].expected.low).toBeNull();
    expect(a.totals.gain).toEqual({ mean: 0n, low: null, high: null });
  });
});

describe('a minimum seen for minutes', () => {
  it('is not advised: under MIN_LEVEL_TABLE_HOURS of open time its theo per seat-hour is noise', () => {
    // 100.00 stood an hour with 6 players; 500.00 stood 36 seconds with 3 players and a theo that, per seat-hour, dwarfs it.
    const brief = { ...cell('A', 1, 50000n, 3, 5000n, 60000n), openHours: 0.01, seatHours: 0.03 };
    const a = adviseYield({
      cells: [cell('A', 0, 10000n, 6, 12000n, 20000n), { ...cell('A', 1, 10000n, 6, 12000n, 20000n), openHours: 0.99 }, brief],
      slots: slots([0, 1]),
      tables: 1,
      seats: 9,
    });
    expect(a.levels.find((l) => l.minBet === 50000n)?.tableHours).toBeLessThan(MIN_LEVEL_TABLE_HOURS);
    expect(a.hours.find((h) => h.hourOfWeek === 20)!.advice.every((x) => x.minBet !== 50000n)).toBe(true);
  });
});
