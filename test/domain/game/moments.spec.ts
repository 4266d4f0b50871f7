import {
  BetType,
  betMoments,
  betOdds,
  coupVarianceE12,
  coupVariances,
  exactOdds,
  Fraction,
  fullShoe,
  odds,
  outcomeClasses,
  outcomeProbabilities,
  quantisedCovariances,
  reduceFraction,
  ruleSet,
  SIDE_BETS,
} from '../../../src/domain';

/**
 * The joint distribution of a coup from a full shoe, and the exact means and covariances of the
 * bets. It is pinned to the engine's own exact odds (computed another way: by point value, pairs in
 * closed form): every bet's mean and variance must be equal as fractions, not merely close.
 */
const ALL_SIDE = [...SIDE_BETS];
const f = (numerator: bigint, denominator: bigint): Fraction => reduceFraction({ numerator, denominator });
const sub = (a: Fraction, b: Fraction) => f(a.numerator * b.denominator - b.numerator * a.denominator, a.denominator * b.denominator);
const mul = (a: Fraction, b: Fraction) => f(a.numerator * b.numerator, a.denominator * b.denominator);
const num = (x: Fraction) => Number(x.numerator) / Number(x.denominator);

const RULES = [
  ['commission, every side bet', { variant: 'COMMISSION', sideBets: ALL_SIDE }],
  ['commission, 6 decks, ties lose nothing', { variant: 'COMMISSION', decks: 6, sideBets: ['PLAYER_PAIR', 'BANKER_PAIR'] }],
  ['commission at 4 %, perfect pair both 200 to 1', { variant: 'COMMISSION', commissionBps: 400, sideBets: ['PERFECT_PAIR'], perfectPairBothPays: odds(200) }],
  ['Super 6', { variant: 'SUPER_6', sideBets: ALL_SIDE }],
  ['EZ Baccarat', { variant: 'EZ', sideBets: ALL_SIDE }],
  ['EZ, one deck, tie 9 to 1', { variant: 'EZ', decks: 1, pays: { TIE: odds(9) }, sideBets: ['DRAGON_7', 'PANDA_8'] }],
] as const;

describe('outcome classes of a full shoe', () => {
  it.each([1, 6, 8])('%i deck(s): the classes count every ordered 6-card sequence once', (decks) => {
    const { classes, total } = outcomeClasses(decks);
    expect(classes.reduce((a, c) => a + c.count, 0n)).toBe(total);
    if (decks === 8) expect(classes.length).toBe(1_417);
    // The winner's counts are the engine's exact odds, computed by point value.
    const k = exactOdds(fullShoe(decks));
    const sum = (p: (c: (typeof classes)[number]) => boolean) => classes.filter(p).reduce((a, c) => a + c.count, 0n);
    expect(sum((c) => c.outcome.winner === 'BANKER')).toBe(k.banker);
    expect(sum((c) => c.outcome.winner === 'TIE')).toBe(k.tie);
    expect(sum((c) => c.outcome.natural)).toBe(k.natural);
    expect(sum((c) => c.outcome.dragon7)).toBe(k.dragon7);
    expect(sum((c) => c.outcome.playerPair && c.outcome.bankerPair)).toBe(2n * k.playerPair - k.eitherPair);
    expect(sum((c) => c.outcome.playerPerfectPair && c.outcome.bankerPerfectPair)).toBe(k.perfectPairBoth);
  });
});

describe.each(RULES)('bet moments: %s', (_name, input) => {
  const rules = ruleSet(input);
  const m = betMoments(rules);
  const exact = betOdds(rules, exactOdds(fullShoe(rules.decks)));

  it("each bet's mean is minus its exact house edge, to the last digit", () => {
    for (const b of exact) expect([b.betType, m.mean.get(b.betType)]).toEqual([b.betType, f(-b.houseEdge.numerator, b.houseEdge.denominator)]);
  });

  it("each bet's variance is the one its pay tiers give", () => {
    for (const b of exact) {
      const total = exactOdds(fullShoe(rules.decks)).total;
      // E[X²] over the tiers (profit per unit after commission), less E[X]².
      const second = b.tiers.reduce(
        (acc, t) =>
          f(
            acc.numerator * t.profit.denominator ** 2n * total + t.count * t.profit.numerator ** 2n * acc.denominator,
            acc.denominator * t.profit.denominator ** 2n * total,
          ),
        f(0n, 1n),
      );
      const mean = m.mean.get(b.betType)!;
      expect([b.betType, m.covariance(b.betType, b.betType)]).toEqual([b.betType, sub(second, mul(mean, mean))]);
    }
  });

  it('covariance is symmetric, and a bet is never more than perfectly correlated with another', () => {
    for (const b of m.bets)
      for (const c of m.bets) {
        expect(m.covariance(b, c)).toEqual(m.covariance(c, b));
        const r = num(m.covariance(b, c)) / Math.sqrt(num(m.covariance(b, b)) * num(m.covariance(c, c)));
        expect(Math.abs(r)).toBeLessThanOrEqual(1 + 1e-12);
      }
  });
});

describe('covariances worked by hand', () => {
  it('Banker and Player (commission, ties push): E[BP] − E[B]E[P], from the three outcome probabilities', () => {
    const rules = ruleSet({ variant: 'COMMISSION' });
    const m = betMoments(rules);
    const p = outcomeProbabilities(8);
    // Banker wins: Banker +0.95, Player −1; Player wins: Banker −1, Player +1; a tie: both 0.
    const eb = sub(mul(f(95n, 100n), p.banker), p.player);
    const ep = sub(p.player, p.banker);
    const ebp = sub(mul(f(-95n, 100n), p.banker), p.player);
    expect(m.mean.get('BANKER')).toEqual(eb);
    expect(m.mean.get('PLAYER')).toEqual(ep);
    expect(m.covariance('BANKER', 'PLAYER')).toEqual(sub(ebp, mul(eb, ep)));
    // About −0.882 per unit²: the two bets nearly cancel (the correlation is about −0.998 + ties).
    expect(num(m.covariance('BANKER', 'PLAYER'))).toBeCloseTo(-0.882045, 6);
    expect(num(m.covariance('BANKER', 'BANKER'))).toBeCloseTo(0.860019, 6);
    expect(num(m.covariance('PLAYER', 'PLAYER'))).toBeCloseTo(0.904691, 6);
  });

  it('Player Pair and Banker Pair at 11 to 1: from the pair counts of the exact odds', () => {
    const rules = ruleSet({ variant: 'COMMISSION', sideBets: ['PLAYER_PAIR', 'BANKER_PAIR'] });
    const m = betMoments(rules);
    const k = exactOdds(fullShoe(8));
    const both = f(2n * k.playerPair - k.eitherPair, k.total);
    const one = f(k.playerPair, k.total);
    const pays = BigInt(rules.pays.PLAYER_PAIR.numerator) / BigInt(rules.pays.PLAYER_PAIR.denominator);
    // X = pays on a pair, else −1 (and Y alike): E[XY] = pays²·both − 2·pays·(one − both) + (1 − 2·one + both).
    const exy = f(
      pays * pays * both.numerator * one.denominator -
        2n * pays * (one.numerator * both.denominator - both.numerator * one.denominator) +
        (one.denominator * both.denominator - 2n * one.numerator * both.denominator + both.numerator * one.denominator),
      both.denominator * one.denominator,
    );
    const ex = m.mean.get('PLAYER_PAIR')!;
    expect(m.covariance('PLAYER_PAIR', 'BANKER_PAIR')).toEqual(sub(exy, mul(ex, ex)));
  });
});

describe("a coup's variance from its stakes", () => {
  const rules = ruleSet({ variant: 'COMMISSION' });
  const cov = quantisedCovariances(rules);
  const stakes = (s: [BetType, bigint][]) => new Map(s);

  it('one stake: S² × the bet’s variance', () => {
    expect(coupVarianceE12(stakes([['BANKER', 1_000n]]), cov)).toBe(1_000_000n * cov.get('BANKER')!.get('BANKER')!);
  });

  it('Banker and Player hedged on one coup: far less than the two variances added', () => {
    const hedged = coupVarianceE12(
      stakes([
        ['BANKER', 1_000n],
        ['PLAYER', 1_000n],
      ]),
      cov,
    );
    const apart = coupVarianceE12(stakes([['BANKER', 1_000n]]), cov) + coupVarianceE12(stakes([['PLAYER', 1_000n]]), cov);
    expect(hedged).toBe(1_000_000n * (cov.get('BANKER')!.get('BANKER')! + 2n * cov.get('BANKER')!.get('PLAYER')! + cov.get('PLAYER')!.get('PLAYER')!));
    // What stays is the 5 % commission and the ties: about 1 % of the unhedged variance.
    expect(Number(hedged) / Number(apart)).toBeLessThan(0.05);
  });

  it("what the rollups keep: each bet's own part, and the coup's whole variance", () => {
    const both = stakes([
      ['BANKER', 1_000n],
      ['TIE', 100n],
    ]);
    const { own, whole } = coupVariances(both, cov);
    expect([...own]).toEqual([
      ['BANKER', 1_000_000n * cov.get('BANKER')!.get('BANKER')!],
      ['TIE', 10_000n * cov.get('TIE')!.get('TIE')!],
    ]);
    expect(whole).toBe(own.get('BANKER')! + own.get('TIE')! + 2n * 100_000n * cov.get('BANKER')!.get('TIE')!);
  });
});
