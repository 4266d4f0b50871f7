import fc from 'fast-check';
import {
  COUP_TIME_BUDGET,
  CoupMarks,
  coupSeconds,
  decisionsPerHour,
  DEFAULT_EXPECTED_PACE,
  expectedPaceInForce,
  hoursOf,
  IDLE_ALLOWANCE,
  idleMinutesPerHour,
  idleSpans,
  intersect,
  lengthOf,
  medianDecisionsPerHour,
  midpointDecisionsPerHour,
  minutesOf,
  perThousand,
  percentOfExpected,
  Span,
  staffedSpans,
  subtract,
  unionOf,
  VARIANTS,
} from '../../../src/domain';

/** Game pace (docs/domain.md §13), worked by hand. Times in minutes from an origin, as microseconds. */
const MIN = 60_000_000n;
const m = (minutes: number): bigint => BigInt(Math.round(minutes * 60)) * 1_000_000n;
const span = (from: number, to: number): Span => ({ start: m(from), end: m(to) });
const inMinutes = (spans: Span[]) => spans.map((s) => [Number(s.start) / 60e6, Number(s.end) / 60e6]);
/** A coup recorded whole (called and done at once), or opened for betting at `called` and dealt at `done`. */
const coup = (called: number, done = called): CoupMarks => ({ called: m(called), done: m(done) });

describe('spans', () => {
  it.each([
    [
      'overlapping and touching spans join; empty ones vanish',
      [span(0, 10), span(5, 20), span(20, 25), span(30, 30), span(40, 50)],
      [
        [0, 25],
        [40, 50],
      ],
    ],
    [
      'out of order',
      [span(40, 50), span(0, 10)],
      [
        [0, 10],
        [40, 50],
      ],
    ],
    ['none', [], []],
  ] as [string, Span[], number[][]][])('union: %s', (_what, spans, union) => expect(inMinutes(unionOf(spans))).toEqual(union));

  it('length counts an overlap once', () => expect(lengthOf([span(0, 30), span(20, 60), span(120, 150)])).toBe(90n * MIN));

  it('intersection and difference', () => {
    expect(inMinutes(intersect([span(0, 60), span(90, 120)], [span(30, 100)]))).toEqual([
      [30, 60],
      [90, 100],
    ]);
    expect(inMinutes(subtract([span(0, 120)], [span(30, 40), span(100, 200)]))).toEqual([
      [0, 30],
      [40, 100],
    ]);
    expect(inMinutes(subtract([span(0, 10)], [span(0, 10)]))).toEqual([]);
  });

  it('a shift staffed: within the window, less the closures, to its end or (still dealing) to the moment of the read', () => {
    const window = span(0, 24 * 60);
    // A shift begun the evening before the window, the table closed for an hour in it.
    expect(inMinutes(staffedSpans({ start: m(-120), end: m(180) }, [span(60, 120)], window, m(10_000)))).toEqual([
      [0, 60],
      [120, 180],
    ]);
    // Still dealing: to the moment of the read; a table closed and never reopened ends it.
    expect(inMinutes(staffedSpans({ start: m(600), end: null }, [], window, m(700)))).toEqual([[600, 700]]);
    expect(inMinutes(staffedSpans({ start: m(600), end: null }, [{ start: m(650), end: m(1e9) }], window, m(2000)))).toEqual([[600, 650]]);
    // A shift after the window: nothing.
    expect(staffedSpans({ start: m(2000), end: m(2100) }, [], window, m(10_000))).toEqual([]);
  });
});

describe('idle time: the part of each gap beyond three minutes', () => {
  it('is three minutes', () => expect(IDLE_ALLOWANCE).toBe(3n * MIN));

  // The worked example of §13 (test/e2e/finance/pace.spec.ts pins the same over HTTP): staffed 0–120 min,
  // shoe 1's coups at 5, 7, …, 41, its 20th opened at 43 and cancelled, shoe 2's at 53, 55, 57, 59,
  // the next dealer's at 62, 64, …, 100, the table closed at 120.
  const coups = [
    ...Array.from({ length: 19 }, (_, i) => coup(5 + 2 * i)),
    coup(43),
    ...[53, 55, 57, 59].map((t) => coup(t)),
    ...Array.from({ length: 20 }, (_, i) => coup(62 + 2 * i)),
  ];
  it('the worked example: before the first coup 5 min (2 idle), the shoe change 10 (7), 3 exactly (none), to the close 20 (17)', () => {
    const idle = idleSpans([span(0, 60), span(60, 120)], coups);
    expect(inMinutes(idle)).toEqual([
      [3, 5],
      [46, 53],
      [103, 120],
    ]);
    expect(lengthOf(idle)).toBe(26n * MIN);
  });

  it.each([
    ['a span with no coup: all of it beyond the allowance', [span(0, 10)], [], [[3, 10]]],
    ['a span shorter than the allowance: none', [span(0, 3)], [], []],
    ['a coup opened for betting at 2 and dealt at 9: busy between, idle only from 12', [span(0, 20)], [coup(2, 9)], [[12, 20]]],
    ['a coup called before the span and done inside it ends the first gap', [span(10, 30)], [coup(5, 12)], [[15, 30]]],
    [
      'a coup outside every span counts nowhere',
      [span(0, 10), span(40, 50)],
      [coup(25)],
      [
        [3, 10],
        [43, 50],
      ],
    ],
    [
      'two spans apart (the table closed between): each has its own gaps',
      [span(0, 10), span(20, 30)],
      [coup(8), coup(21)],
      [
        [3, 8],
        [24, 30],
      ],
    ],
  ] as [string, Span[], CoupMarks[], number[][]][])('%s', (_what, staffed, marks, idle) => expect(inMinutes(idleSpans(staffed, marks))).toEqual(idle));

  it('as defined, second by second: a staffed moment is idle when the last thing recorded is three minutes or more behind it', () => {
    // Small integers are seconds (× 10^6 µs); the allowance is scaled down to 3 "seconds" of them.
    const allowance = 3_000_000n;
    const arb = fc.record({
      spans: fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 30 })), { maxLength: 3 }),
      coups: fc.array(fc.tuple(fc.integer({ min: -5, max: 95 }), fc.integer({ min: 0, max: 6 })), { maxLength: 12 }),
    });
    fc.assert(
      fc.property(arb, ({ spans, coups: cs }) => {
        const s = (x: number) => BigInt(x) * 1_000_000n;
        const staffed = unionOf(spans.map(([a, len]) => ({ start: s(a), end: s(a + len) })));
        const marks = cs.map(([called, len]) => ({ called: s(called), done: s(called + len) }));
        const idle = idleSpans(staffed, marks, allowance);
        for (let t = -5; t < 110; t++) {
          const at = s(t);
          const within = staffed.find((x) => x.start <= at && at < x.end);
          let expected = false;
          if (within) {
            let last = within.start;
            for (const c of marks) if (c.called <= at && c.done >= within.start && c.called < within.end && c.done > last) last = c.done;
            expected = at >= last + allowance;
          }
          const found = idle.some((x) => x.start <= at && at < x.end);
          if (found !== expected) return false;
        }
        return true;
      }),
      { numRuns: 500 },
    );
  });
});

describe('the rates, each rounded once, half up', () => {
  it.each([
    ['22 decisions in an hour', 22n, 60, '22.0'],
    ['42 decisions in two hours', 42n, 120, '21.0'],
    ['2 decisions in half an hour', 2n, 30, '4.0'],
    ['1 decision in 7 minutes: 8.571…', 1n, 7, '8.6'],
    ['1 decision in 20 hours: 0.05 exactly, up', 1n, 1200, '0.1'],
    ['none in an hour', 0n, 60, '0.0'],
    ['no staffed time: no rate', 3n, 0, null],
  ])('decisions per hour: %s', (_what, decisions, minutes, rate) => expect(decisionsPerHour(decisions, m(minutes))).toBe(rate));

  it.each([
    [1n, 24n, '41.7'],
    [1n, 44n, '22.7'],
    [0n, 20n, '0.0'],
    [1n, 8n, '125.0'],
    [3n, 0n, null],
  ])('%i of %i coups is %p per 1,000', (n, coups, rate) => expect(perThousand(n, coups)).toBe(rate));

  it('hours to 2 decimals, minutes to 1, idle minutes per staffed hour to 1', () => {
    expect([hoursOf(m(120)), hoursOf(m(20)), hoursOf(m(0.3)), hoursOf(0n)]).toEqual(['2.00', '0.33', '0.01', '0.00']);
    expect([minutesOf(m(26)), minutesOf(1_000_000n), minutesOf(3_000_000n)]).toEqual(['26.0', '0.0', '0.1']);
    expect([idleMinutesPerHour(m(26), m(120)), idleMinutesPerHour(m(9), m(60)), idleMinutesPerHour(m(1), 0n)]).toEqual(['13.0', '9.0', null]);
  });

  it('against the expected pace: 21 an hour is 29.2 % of 72, 35.0 % of 60', () => {
    expect(percentOfExpected(42n, m(120), 72)).toBe('29.2');
    expect(percentOfExpected(42n, m(120), 60)).toBe('35.0');
    expect(percentOfExpected(1n, 0n, 72)).toBeNull();
  });
});

describe("the property's own median", () => {
  const day = (decisions: bigint, minutes: number) => ({ decisions, staffed: m(minutes) });
  it.each([
    ['one table-day', [day(42n, 120)], '21.0'],
    ['an odd count: the middle rate (60, 30, 45 → 45)', [day(60n, 60), day(15n, 30), day(45n, 60)], '45.0'],
    ['an even count: the midpoint of the two middle rates (20, 25, 30, 70 → 27.5)', [day(20n, 60), day(10n, 20), day(25n, 60), day(70n, 60)], '27.5'],
    // 1 in 7 min (8.571…) and 1 in 9 min (6.666…): the midpoint 7.619… → 7.6; each rounded first would give 7.65 → 7.7.
    ['rounded once: the exact midpoint, not the midpoint of rounded rates', [day(1n, 7), day(1n, 9)], '7.6'],
    ['a day without staffed time is no sample', [day(5n, 0), day(30n, 60)], '30.0'],
    ['no samples', [], null],
  ] as [string, { decisions: bigint; staffed: bigint }[], string | null][])('%s', (_what, samples, median) =>
    expect(medianDecisionsPerHour(samples)).toBe(median),
  );

  it('the midpoint of one sample with itself is its rate', () => expect(midpointDecisionsPerHour(day(1n, 7), day(1n, 7))).toBe('8.6'));
});

describe('the expected pace', () => {
  it.each([
    ['COMMISSION', 50, 72],
    ['SUPER_6', 45, 80],
    ['EZ', 45, 80],
    ['CHEMIN_DE_FER', 90, 40],
    ['BANQUE', 120, 30],
  ] as const)('%s: a coup budgeted at %i s, %i an hour by default', (variant, seconds, perHour) => {
    const b = COUP_TIME_BUDGET[variant];
    expect(b.bets + b.deal + b.settle + b.clear + b.shoeChange).toBe(seconds);
    expect(coupSeconds(variant)).toBe(seconds);
    expect(DEFAULT_EXPECTED_PACE[variant]).toBe(perHour);
  });

  it("a property's latest entry for a variant is in force; the others keep the default", () => {
    const inForce = expectedPaceInForce([
      { id: 'b', variant: 'COMMISSION', decisionsPerHour: 60, enteredAt: 2_000 },
      { id: 'a', variant: 'COMMISSION', decisionsPerHour: 65, enteredAt: 1_000 },
      // Two entries in the same millisecond: the later id is the later entry.
      { id: 'd', variant: 'EZ', decisionsPerHour: 90, enteredAt: 5_000 },
      { id: 'c', variant: 'EZ', decisionsPerHour: 85, enteredAt: 5_000 },
    ]);
    expect(VARIANTS.map((v) => [v, inForce[v].decisionsPerHour, inForce[v].source, inForce[v].entry?.id ?? null])).toEqual([
      ['COMMISSION', 60, 'PROPERTY', 'b'],
      ['SUPER_6', 80, 'DEFAULT', null],
      ['EZ', 90, 'PROPERTY', 'd'],
      ['CHEMIN_DE_FER', 40, 'DEFAULT', null],
      ['BANQUE', 30, 'DEFAULT', null],
    ]);
  });
});
