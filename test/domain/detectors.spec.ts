import {
  ALERT_P_VALUE,
  betOdds,
  countBetting,
  CoupOdds,
  coupOdds,
  dealerPairing,
  exactOdds,
  firstCardKnowledge,
  fullShoe,
  moneyBeyondOdds,
  normalUpperTail,
  packOdds,
  PACKED_ODDS_LENGTH,
  removeCards,
  parseCards,
  PlayedCoup,
  PlayedWager,
  repeatedRunFinding,
  ruleSet,
  surveyRecord,
  unpackOdds,
  winsBeyondOdds,
} from '../../src/domain';

/**
 * The detectors on records built by hand, where each p-value can be worked out on paper
 * (docs/domain.md §9).
 */

const even = { paid: 0.5, mean: 0, variance: 1 };
/** Odds where Player and Banker are even money with even chances, and the first card is 0 or 9, each half the time: 9 wins, 0 loses. */
const handOdds = (depth: number, dragonFavourable: boolean): CoupOdds => ({
  depth,
  chances: {
    PLAYER: even,
    BANKER: even,
    TIE: { paid: 0.1, mean: -0.1, variance: 8 },
    DRAGON_7: { paid: 0.02, mean: dragonFavourable ? 0.05 : -0.08, variance: 30 },
  },
  firstCardChance: [0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0.5],
  meanGivenFirst: {
    PLAYER: [-1, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, 1],
    BANKER: [1, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, -1],
    TIE: new Array<number>(10).fill(-0.1),
  },
});
const wager = (betType: PlayedWager['betType'], stake: number, net: number): PlayedWager => ({
  betType,
  stake: BigInt(stake),
  paid: net > 0,
  net: BigInt(net),
});
const coup = (i: number, odds: CoupOdds, wagers: PlayedWager[], firstValue = 0, dealerId: string | null = null): PlayedCoup => ({
  coupId: `c${i}`,
  shoeId: 's1',
  dealerId,
  odds,
  firstValue,
  wagers,
});

describe('betting with the count', () => {
  it('Dragon 7 staked on exactly the 4 favourable coups of 8: p = 1/70, below any alarm', () => {
    const record = Array.from({ length: 8 }, (_, i) => {
      const favourable = i % 2 === 0;
      return coup(i, handOdds(0, favourable), [wager('BANKER', 1000, 1000), ...(favourable ? [wager('DRAGON_7', 500, -500)] : [])]);
    });
    const f = countBetting(record);
    expect(f.pValue).toBeCloseTo(1 / 70, 14);
    expect(f.alert).toBe(false);
    expect(f.evidence).toMatchObject({ betType: 'DRAGON_7', betsTested: 1, heavyStakesOnFavourableCoups: ['c0', 'c2', 'c4', 'c6'] });
  });

  it('the same in each quarter of the shoe: (1/70)^4 = 4.2·10^-8, an alert (MEDIUM: not a thousand times below 10^-5)', () => {
    const record = Array.from({ length: 32 }, (_, i) => {
      const favourable = i % 2 === 0;
      return coup(i, handOdds(Math.floor(i / 8), favourable), [wager('BANKER', 1000, 1000), ...(favourable ? [wager('DRAGON_7', 500, -500)] : [])]);
    });
    const f = countBetting(record);
    expect(f.pValue).toBeCloseTo((1 / 70) ** 4, 20);
    expect([f.alert, f.severity]).toEqual([true, 'MEDIUM']);
  });

  it('two bets tested: the smaller p-value, doubled', () => {
    const record = Array.from({ length: 8 }, (_, i) => {
      const favourable = i % 2 === 0;
      const wagers = [wager('BANKER', 1000, 1000), ...(favourable ? [wager('DRAGON_7', 500, -500)] : []), ...(i < 4 ? [wager('TIE', 100, -100)] : [])];
      return coup(i, handOdds(0, favourable), wagers);
    });
    // Tie is never favourable here: its p-value is 1; Dragon 7's is 1/70.
    expect(countBetting(record).pValue).toBeCloseTo(2 / 70, 14);
  });

  it('flat stakes are never heavy: nothing to test', () => {
    const record = Array.from({ length: 8 }, (_, i) => coup(i, handOdds(0, i % 2 === 0), [wager('DRAGON_7', 500, -500)]));
    expect(countBetting(record)).toMatchObject({ pValue: 1, alert: false, evidence: { betsTested: 0 } });
  });
});

describe('winning more than the odds allow', () => {
  it('three even-chance decisions all won: 1/8; the largest main stake is the decision', () => {
    const record = [0, 1, 2].map((i) => coup(i, handOdds(0, false), [wager('PLAYER', 1000, 1000), wager('BANKER', 100, -100), wager('DRAGON_7', 5000, -5000)]));
    const f = winsBeyondOdds(record);
    expect(f.pValue).toBeCloseTo(1 / 8, 15);
    expect(f.evidence).toEqual({ decisions: 3, wins: 3, expectedWins: 1.5 });
  });

  it('money: 4 decisions of 100 at mean 0 and variance 1 a unit, up 400: two standard deviations', () => {
    const record = [0, 1, 2, 3].map((i) => coup(i, handOdds(0, false), [wager('BANKER', 100, 100)]));
    const f = moneyBeyondOdds(record);
    expect(f.pValue).toBeCloseTo(normalUpperTail(2), 15);
    expect(f.evidence).toMatchObject({ actualWin: 400, expectedWin: 0, standardDeviation: 200, z: 2 });
  });

  it('the first card: Player on four 9s is worth 4 × 100 against a standard deviation of 200', () => {
    const record = [0, 1, 2, 3].map((i) => coup(i, handOdds(0, false), [wager('PLAYER', 100, 100)], 9));
    const f = firstCardKnowledge(record);
    expect(f.pValue).toBeCloseTo(normalUpperTail(2), 15);
    expect(f.evidence).toMatchObject({ decisions: 4, worthOfTheFirstCard: 400, standardDeviation: 200, z: 2 });
    // Banker on the same coups is worth −400: nothing suspicious.
    expect(firstCardKnowledge(record.map((c) => ({ ...c, wagers: [wager('BANKER', 100, -100)] }))).pValue).toBeCloseTo(normalUpperTail(-2), 15);
  });

  it('a dealer and a patron: the first-card test on each dealer’s coups, corrected for the dealers tested', () => {
    const record = [
      ...Array.from({ length: 25 }, (_, i) => coup(i, handOdds(0, false), [wager('PLAYER', 100, 100)], 9, 'dealer-A')),
      ...Array.from({ length: 25 }, (_, i) => coup(25 + i, handOdds(0, false), [wager('PLAYER', 100, -100)], i % 2 === 0 ? 9 : 0, 'dealer-B')),
      ...Array.from({ length: 5 }, (_, i) => coup(50 + i, handOdds(0, false), [wager('PLAYER', 100, 100)], 9, 'dealer-C')),
    ];
    const f = dealerPairing(record);
    // Dealer A: 25 coups each worth +100 against 100 a coup: z = 2500 / 500 = 5; two dealers tested (C has too few coups).
    expect(f.pValue).toBeCloseTo(2 * normalUpperTail(5), 18);
    expect(f.evidence).toMatchObject({ dealerId: 'dealer-A', dealersTested: 2, z: 5 });
    // 5.7·10^-7: an alert, but not a thousand times below 10^-5.
    expect([f.alert, f.severity]).toEqual([true, 'MEDIUM']);
  });

  it('every record detector at once, each with its threshold', () => {
    const findings = surveyRecord([coup(0, handOdds(0, false), [wager('PLAYER', 100, 100)])]);
    expect(findings.map((f) => [f.kind, f.threshold])).toEqual(Object.entries(ALERT_P_VALUE));
  });
});

describe('the odds a coup was played at', () => {
  const rules = ruleSet({ variant: 'EZ', sideBets: ['DRAGON_7', 'PANDA_8'] });
  it('a full EZ shoe: the house edges of betOdds, and the first card’s odds averaging back to them', () => {
    const odds = coupOdds(rules, fullShoe(8));
    expect(odds.depth).toBe(0);
    const exact = betOdds(rules, exactOdds(fullShoe(8)));
    for (const b of exact) {
      const edge = Number(b.houseEdge.numerator) / Number(b.houseEdge.denominator);
      expect(odds.chances[b.betType]!.mean).toBeCloseTo(-edge, 14);
    }
    expect(odds.firstCardChance.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
    // Ten-value cards are 16 of 52; the other values 4 of 52 each.
    expect(odds.firstCardChance[0]).toBeCloseTo(16 / 52, 14);
    expect(odds.firstCardChance[5]).toBeCloseTo(4 / 52, 14);
    for (const bet of ['PLAYER', 'BANKER', 'TIE'] as const) {
      const averaged = odds.meanGivenFirst[bet].reduce((sum, m, v) => sum + odds.firstCardChance[v] * m, 0);
      expect(averaged).toBeCloseTo(odds.chances[bet]!.mean, 14);
    }
  });

  it('the depth of a shoe: a quarter of its cards out is the second stratum', () => {
    const seen = new Array<number>(104).fill(0).map((_, i) => i % 52);
    const comp = fullShoe(8).map((k, card) => k - seen.filter((c) => c === card).length);
    expect(coupOdds(rules, comp).depth).toBe(1);
  });
});

describe('a shoe seen before', () => {
  it('a 12-card run: its chance at one place times the places compared', () => {
    const cards = parseCards(['AS', 'KD', '2H', '3C', '4S', '5D', '6H', '7C', '8S', '9D', 'TH', 'JC', 'QS']);
    const f = repeatedRunFinding(cards, { at: 0, earlierAt: 100, length: 12 }, 'earlier', 8, 1_000_000);
    let chance = 1;
    for (let i = 0; i < 12; i++) chance *= 8 / (416 - i);
    expect(f.pValue).toBeCloseTo(chance * 1_000_000, 30);
    expect([f.alert, f.severity]).toEqual([true, 'HIGH']);
    expect(f.evidence).toMatchObject({ earlierShoeId: 'earlier', at: 0, earlierAt: 100, length: 12 });
  });
});

describe('odds as stored', () => {
  it('pack into 77 doubles and come back exactly, unoffered bets left out and impossible first cards as NaN', () => {
    // EZ with Dragon 7 and Panda 8, on a shoe with every 9 and every ten-value card gone: no first card is worth 0 or 9.
    const rules = ruleSet({ variant: 'EZ' });
    const gone = ['9', 'T', 'J', 'Q', 'K'].flatMap((r) => ['S', 'H', 'D', 'C'].flatMap((s) => new Array<string>(8).fill(r + s)));
    const odds = coupOdds(rules, removeCards(fullShoe(8), parseCards(gone)));
    expect(Number.isNaN(odds.meanGivenFirst.PLAYER[0]) && Number.isNaN(odds.meanGivenFirst.BANKER[9])).toBe(true);
    const packed = packOdds(odds);
    expect(packed).toHaveLength(PACKED_ODDS_LENGTH);
    expect(PACKED_ODDS_LENGTH).toBe(77);
    expect(unpackOdds(packed)).toEqual(odds);
    expect(Object.keys(unpackOdds(packed).chances).sort()).toEqual(Object.keys(odds.chances).sort());
    expect(() => unpackOdds(packed.slice(1))).toThrow('packed odds hold 77 numbers, not 76');
  });
});
