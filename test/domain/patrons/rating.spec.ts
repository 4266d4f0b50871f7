import fc from 'fast-check';
import {
  addBetSums,
  attributeWager,
  BetType,
  compsOf,
  coupPlayDeltas,
  emptyDeadSums,
  coupVarianceE12,
  DomainError,
  emptySums,
  NO_VISIT,
  PatronStake,
  playedMs,
  quantisedEdges,
  rate,
  RatedWager,
  ratingOf,
  RatingTheory,
  ruleSet,
  sumWagers,
  WHOLE_PLAY,
} from '../../../src/domain';

/**
 * Rated play, worked by hand (docs/domain.md §10). The theory below has round edges so that every
 * figure can be checked on paper; the last block uses the engine's own edges for a real table.
 */
const E = 10n ** 12n;
const THEORY: RatingTheory = {
  compShareBps: 2000,
  // Banker 1.06 %, Player 1.24 %, Tie 14.36 %.
  edgesE12: { BANKER: 10_600_000_000n, PLAYER: 12_400_000_000n, TIE: 143_600_000_000n },
  // Variances per unit²: Banker 0.95, Player 1, Tie 7; Banker with Tie −0.1.
  covariancesE12: new Map<BetType, Map<BetType, bigint>>([
    [
      'BANKER',
      new Map<BetType, bigint>([
        ['BANKER', 950_000_000_000n],
        ['TIE', -100_000_000_000n],
      ]),
    ],
    ['PLAYER', new Map<BetType, bigint>([['PLAYER', E]])],
    [
      'TIE',
      new Map<BetType, bigint>([
        ['TIE', 7n * E],
        ['BANKER', -100_000_000_000n],
      ]),
    ],
  ]),
};
const T = 'table-1';
const theories = new Map([
  [T, THEORY],
  ['chemmy', { edgesE12: {}, covariancesE12: new Map(), compShareBps: 2000 }],
]);
const w = (coupId: string, betType: BetType, amount: bigint, net: bigint, tableId = T): RatedWager => ({ coupId, tableId, betType, amount, net });
const MIN = 60_000;

// A visit of four coups: Banker wins (5 % commission) with a losing Tie bet beside it, Banker loses,
// Player wins, a tie pushes the Banker bet.
const VISIT = [
  w('c1', 'BANKER', 10_000n, 9_500n),
  w('c1', 'TIE', 1_000n, -1_000n),
  w('c2', 'BANKER', 10_000n, -10_000n),
  w('c3', 'PLAYER', 5_050n, 5_050n),
  w('c4', 'BANKER', 10_000n, 0n),
];

describe('a rating worked by hand', () => {
  // Card in from 0 to 30 min and (a second seat) 20 to 60 min, then 2 h to 2 h 30: 90 minutes.
  const r = rate(VISIT, theories, [
    { start: 0, end: 30 * MIN },
    { start: 20 * MIN, end: 60 * MIN },
    { start: 120 * MIN, end: 150 * MIN },
  ]);

  it('coups, wagers and handle from the ledger', () => {
    expect(r.coups).toBe(4);
    expect(r.wagers).toBe(5);
    expect(r.handle).toBe(36_050n);
  });

  it('average bet: handle ÷ coups, half up (36,050 ÷ 4 = 9,012.5 → 9,013)', () => expect(r.averageBet).toBe(9_013n));

  it("actual win: the house's, −Σ net (9,500 − 1,000 − 10,000 + 5,050 + 0 = 3,550 to the patron)", () => expect(r.actualWin).toBe(-3_550n));

  it('theo: Σ stake × edge rounded once (318 + 143.6 + 62.62 = 524.22 → 524; rounding each bet would give 525)', () => {
    expect(r.theoE12).toBe(524_220_000_000_000n);
    expect(r.theoreticalWin).toBe(524n);
    expect(r.byBetType.BANKER).toEqual({ wagers: 3, handle: 30_000n, actualWin: 500n, theoreticalWin: 318n });
    expect(r.byBetType.TIE).toEqual({ wagers: 1, handle: 1_000n, actualWin: 1_000n, theoreticalWin: 144n });
    expect(r.byBetType.PLAYER).toEqual({ wagers: 1, handle: 5_050n, actualWin: -5_050n, theoreticalWin: 63n });
  });

  it('the band: each coup’s stakes through the covariances (100,000,000 + 95,000,000 + 25,502,500 + 95,000,000; √ = 17,762.4 → 17,762)', () => {
    expect(r.theoStdDev).toBe(17_762n);
    expect(r.withinTwoSigma).toBe(true); // |−3,550 − 524| = 4,074 ≤ 35,524
  });

  it('time: the union of the card-in times, overlaps once (90 min); decisions per hour 4 ÷ 1.5 h = 2.7', () => {
    expect(r.secondsPlayed).toBe(5_400);
    expect(r.decisionsPerHour).toBe('2.7');
  });

  it('comps: 20 % of the exact theo, rounded down (104.844 → 104)', () => expect(r.comps).toBe(104n));
});

describe('the edges of a real table (8 decks, 5 % commission)', () => {
  const edges = quantisedEdges(ruleSet({ variant: 'COMMISSION' }));
  it('100.00 on Banker is worth 1.0579… of theo: 106 minor units', () => {
    const r = rate([w('c1', 'BANKER', 10_000n, 9_500n)], new Map([[T, { edgesE12: edges, covariancesE12: new Map(), compShareBps: 2000 }]]), []);
    expect(r.theoE12).toBe(10_000n * edges.BANKER!);
    expect(r.theoreticalWin).toBe(106n);
  });
  it('a player-banked table has no house edge: no theo', () => {
    expect(rate([w('c1', 'BANKER', 10_000n, 9_500n, 'chemmy')], theories, []).theoreticalWin).toBe(0n);
  });
});

describe('edges of a rating', () => {
  it('no wagers, no time: nothing, and no average or rate to divide by', () => {
    const r = rate([], theories, []);
    expect(r).toMatchObject({
      coups: 0,
      handle: 0n,
      averageBet: null,
      decisionsPerHour: null,
      secondsPlayed: 0,
      comps: 0n,
      theoStdDev: 0n,
      withinTwoSigma: true,
    });
  });
  it('a theo of zero or less earns no comps', () => {
    expect(compsOf(0n, 2000)).toBe(0n);
    expect(compsOf(-5n * E, 2000)).toBe(0n);
    expect(compsOf(5n * E, 10_000)).toBe(5n);
  });
  it('played time: touching intervals join, empty ones count nothing', () => {
    expect(
      playedMs([
        { start: 0, end: 10 },
        { start: 10, end: 20 },
        { start: 30, end: 30 },
        { start: 25, end: 21 },
      ]),
    ).toBe(20);
  });
  it('an actual win far outside the band is said so', () => {
    const r = rate([w('c1', 'PLAYER', 100n, 100n), w('c2', 'PLAYER', 100n, 100n)], theories, []);
    // sd = √(2 × 100²) = 141.4 → 141; |−200 − 2| = 202 ≤ 282: luck.
    expect(r.withinTwoSigma).toBe(true);
    const run = Array.from({ length: 100 }, (_, i) => w(`c${i}`, 'PLAYER', 100n, 100n));
    // 100 straight wins of 100: sd = √(100 × 100²) = 1,000; |−10,000 − 124| > 2,000.
    expect(rate(run, theories, []).withinTwoSigma).toBe(false);
  });
});

describe('moving a wager between patrons moves exactly its figures', () => {
  const bet = fc.constantFrom<BetType>('BANKER', 'PLAYER', 'TIE');
  const wager = fc.record({
    coup: fc.integer({ min: 1, max: 30 }),
    betType: bet,
    amount: fc.bigInt({ min: 1n, max: 10_000_000n }),
    outcome: fc.integer({ min: -1, max: 1 }),
  });
  it('handle, win, theo (exact) and wagers are additive; one wager moved from B to A moves its own', () => {
    fc.assert(
      fc.property(fc.array(wager, { maxLength: 40 }), fc.array(wager, { maxLength: 40 }), wager, (a, b, moved) => {
        const mk = (x: typeof moved, who: string) => w(`${who}-${x.coup}`, x.betType, x.amount, BigInt(x.outcome) * x.amount);
        const A = a.map((x) => mk(x, 'a'));
        const B = b.map((x) => mk(x, 'b'));
        const m = mk(moved, 'm');
        const before = [rate(A, theories, []), rate([...B, m], theories, [])];
        const after = [rate([...A, m], theories, []), rate(B, theories, [])];
        const own = rate([m], theories, []);
        expect(after[0].handle - before[0].handle).toBe(own.handle);
        expect(before[1].handle - after[1].handle).toBe(own.handle);
        expect(after[0].theoE12 - before[0].theoE12).toBe(own.theoE12);
        expect(before[1].theoE12 - after[1].theoE12).toBe(own.theoE12);
        expect(after[0].actualWin - before[0].actualWin).toBe(own.actualWin);
        expect(after[0].wagers + after[1].wagers).toBe(before[0].wagers + before[1].wagers);
        // The floor's theo is the same whoever holds the wager.
        expect(after[0].theoE12 + after[1].theoE12).toBe(before[0].theoE12 + before[1].theoE12);
      }),
    );
  });
});

describe('whose a wager is', () => {
  const seated = [
    { id: 's1', patronId: 'P-1', seat: 1 },
    { id: 's2', patronId: 'P-2', seat: 3 },
    { id: 's3', patronId: 'P-3', seat: 3 },
    { id: 's4', patronId: 'P-1', seat: 5 },
  ];
  it('the only patron on the seat, without naming them', () => expect(attributeWager(seated, 1, null)).toEqual({ patronId: 'P-1', seatingId: 's1' }));
  it('an empty seat: no one’s', () => expect(attributeWager(seated, 2, null)).toEqual({ patronId: null, seatingId: null }));
  it('a shared seat: refused unless the wager names the patron', () => {
    expect(() => attributeWager(seated, 3, null)).toThrow(DomainError);
    expect(() => attributeWager(seated, 3, null)).toThrow(/Seat 3 has 2 patrons seated \(P-2, P-3\)/);
    expect(attributeWager(seated, 3, 'P-3')).toEqual({ patronId: 'P-3', seatingId: 's3' });
  });
  it('one patron on two seats: each seat its own visit', () => {
    expect(attributeWager(seated, 5, null)).toEqual({ patronId: 'P-1', seatingId: 's4' });
    expect(attributeWager(seated, 5, 'P-1')).toEqual({ patronId: 'P-1', seatingId: 's4' });
  });
  it("a patron betting on a neighbour's seat: in their own visit", () =>
    expect(attributeWager(seated, 3, 'P-1')).toEqual({ patronId: 'P-1', seatingId: 's1' }));
  it('a patron named without a card in: theirs, in no visit', () => expect(attributeWager(seated, 2, 'P-9')).toEqual({ patronId: 'P-9', seatingId: null }));
});

describe('what a settled coup adds to the patron rollups', () => {
  const stake = (patronId: string | null, seatingId: string | null, betType: BetType, amount: bigint, net: bigint): PatronStake => ({
    patronId,
    seatingId,
    betType,
    amount,
    net,
  });
  it('per patron, visit and bet; a coup per visit, and once for the whole play with all its stakes', () => {
    const d = coupPlayDeltas(
      [
        stake('P-A', 's1', 'BANKER', 10_000n, 9_500n),
        stake('P-A', 's1', 'TIE', 1_000n, -1_000n),
        stake('P-A', 's4', 'BANKER', 5_000n, 4_750n),
        stake('P-B', null, 'PLAYER', 2_000n, -2_000n),
        stake(null, null, 'BANKER', 7_000n, 6_650n),
      ],
      THEORY,
    );
    expect(d.bets.map((b) => [b.patronId, b.visit, b.betType, b.sums.handle, b.sums.theoE12])).toEqual([
      ['P-A', 's1', 'BANKER', 10_000n, 10_000n * 10_600_000_000n],
      ['P-A', 's1', 'TIE', 1_000n, 1_000n * 143_600_000_000n],
      ['P-A', 's4', 'BANKER', 5_000n, 5_000n * 10_600_000_000n],
      ['P-B', NO_VISIT, 'PLAYER', 2_000n, 2_000n * 12_400_000_000n],
    ]);
    const v = (m: [BetType, bigint][]) => coupVarianceE12(new Map(m), THEORY.covariancesE12);
    expect(d.coups).toEqual([
      {
        patronId: 'P-A',
        visit: 's1',
        varE12: v([
          ['BANKER', 10_000n],
          ['TIE', 1_000n],
        ]),
        deadVarE12: 0n,
      },
      {
        patronId: 'P-A',
        visit: WHOLE_PLAY,
        varE12: v([
          ['BANKER', 15_000n],
          ['TIE', 1_000n],
        ]),
        deadVarE12: 0n,
      },
      { patronId: 'P-A', visit: 's4', varE12: v([['BANKER', 5_000n]]), deadVarE12: 0n },
      { patronId: 'P-B', visit: WHOLE_PLAY, varE12: v([['PLAYER', 2_000n]]), deadVarE12: 0n },
    ]);
    // Cash only: no dead-chip sums.
    for (const b of d.bets) expect(b.dead).toEqual(emptyDeadSums());
  });

  it("the dead-chip wagers' own sums beside them: rolled, theo, expected rolling and the dead stakes' variance", () => {
    const LOSSES = { BANKER: 446_246_609_344n, PLAYER: 458_597_422_633n, TIE: 904_844_031_976n };
    const dead = (s: PatronStake, result: 'WIN' | 'LOSE' | 'PUSH'): PatronStake => ({ ...s, dead: true, result });
    const d = coupPlayDeltas(
      [
        dead(stake('P-A', 's1', 'BANKER', 10_000n, -10_000n), 'LOSE'),
        dead(stake('P-A', 's1', 'BANKER', 4_000n, -4_000n), 'LOSE'),
        { ...stake('P-A', 's1', 'PLAYER', 3_000n, 3_000n), result: 'WIN' },
        dead(stake('P-A', 's4', 'PLAYER', 6_000n, 6_000n), 'WIN'),
        dead(stake('P-A', 's4', 'TIE', 1_000n, 0n), 'PUSH'),
      ],
      { ...THEORY, lossesE12: LOSSES },
    );
    const of = (visit: string, bet: BetType) => d.bets.find((b) => b.visit === visit && b.betType === bet)!.dead;
    expect(of('s1', 'BANKER')).toEqual({
      wagers: 2,
      handle: 14_000n,
      net: -14_000n,
      rolled: 14_000n,
      theoE12: 14_000n * 10_600_000_000n,
      expectedRolledE12: 14_000n * LOSSES.BANKER,
    });
    // A cash wager of the same patron is not rolling play.
    expect(of('s1', 'PLAYER')).toEqual(emptyDeadSums());
    expect(of('s4', 'PLAYER')).toMatchObject({ wagers: 1, handle: 6_000n, net: 6_000n, rolled: 0n, expectedRolledE12: 6_000n * LOSSES.PLAYER });
    expect(of('s4', 'TIE')).toMatchObject({ wagers: 1, handle: 1_000n, rolled: 0n, expectedRolledE12: 1_000n * LOSSES.TIE });
    const v = (m: [BetType, bigint][]) => coupVarianceE12(new Map(m), THEORY.covariancesE12);
    expect(d.coups.map((c) => [c.visit, c.deadVarE12])).toEqual([
      ['s1', v([['BANKER', 14_000n]])],
      [
        WHOLE_PLAY,
        v([
          ['BANKER', 14_000n],
          ['PLAYER', 6_000n],
          ['TIE', 1_000n],
        ]),
      ],
      [
        's4',
        v([
          ['PLAYER', 6_000n],
          ['TIE', 1_000n],
        ]),
      ],
    ]);
  });

  it('summed over coups, the rollups rate a patron exactly as their wagers do (any seats, any visits)', () => {
    const wager = fc.record({
      coup: fc.integer({ min: 1, max: 12 }),
      patron: fc.constantFrom('P-1', 'P-2', null),
      visit: fc.constantFrom('v1', 'v2', null),
      betType: fc.constantFrom<BetType>('BANKER', 'PLAYER', 'TIE'),
      amount: fc.bigInt({ min: 1n, max: 1_000_000n }),
      won: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(wager, { maxLength: 60 }), (ws) => {
        const rows = ws.map((x) => ({ ...x, coupId: `c${x.coup}`, tableId: T, net: x.won ? x.amount : -x.amount }));
        const rolled = emptySums();
        for (const coupId of new Set(rows.map((r) => r.coupId))) {
          const d = coupPlayDeltas(
            rows.filter((r) => r.coupId === coupId).map((r) => stake(r.patron, r.visit, r.betType, r.amount, r.net)),
            THEORY,
          );
          for (const b of d.bets.filter((b) => b.patronId === 'P-1')) addBetSums(rolled, b.betType, b.sums, THEORY.compShareBps);
          for (const c of d.coups.filter((c) => c.patronId === 'P-1' && c.visit === WHOLE_PLAY)) {
            rolled.coups += 1;
            rolled.varE12 += c.varE12;
          }
        }
        const mine: RatedWager[] = rows.filter((r) => r.patron === 'P-1');
        expect(ratingOf(rolled, [])).toEqual(ratingOf(sumWagers(mine, theories), []));
        expect(ratingOf(rolled, [])).toEqual(rate(mine, theories, []));
      }),
    );
  });
});
