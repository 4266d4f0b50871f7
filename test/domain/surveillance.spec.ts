import {
  chanceOfRun,
  countBettingTail,
  CountStratum,
  heavyStakes,
  normalUpperTail,
  parseCards,
  poissonBinomialTail,
  repeatedRuns,
  RUN_WINDOW,
  runKeys,
  seededRandom,
  shuffledShoe,
  upperTailOfSum,
} from '../../src/domain';

/** n choose k, exact. */
const choose = (n: number, k: number): bigint => {
  let r = 1n;
  for (let i = 0; i < k; i++) r = (r * BigInt(n - i)) / BigInt(i + 1);
  return r;
};

describe('Poisson-binomial tail: P(at least k wins)', () => {
  it('small cases by hand', () => {
    expect(poissonBinomialTail([0.5, 0.5], 1)).toBeCloseTo(0.75, 15);
    expect(poissonBinomialTail([0.5, 0.5], 2)).toBeCloseTo(0.25, 15);
    // P(2 of 3) = .2·.5·.1 + .2·.5·.9 + .8·.5·.9 = .46; P(3 of 3) = .09.
    expect(poissonBinomialTail([0.2, 0.5, 0.9], 2)).toBeCloseTo(0.55, 15);
    expect(poissonBinomialTail([0.2, 0.5, 0.9], 3)).toBeCloseTo(0.09, 15);
    expect(poissonBinomialTail([0.2, 0.5, 0.9], 0)).toBe(1);
    expect(poissonBinomialTail([0.2, 0.5, 0.9], 4)).toBe(0);
  });

  it('equal chances give the binomial tail, far into it', () => {
    // P(X ≥ k), X ~ Binomial(200, 0.45), from exact binomial coefficients.
    const n = 200;
    for (const k of [90, 120, 150, 190]) {
      let exact = 0;
      for (let j = k; j <= n; j++) exact += Number(choose(n, j)) * 0.45 ** j * 0.55 ** (n - j);
      const tail = poissonBinomialTail(new Array<number>(n).fill(0.45), k);
      expect(Math.abs(tail - exact) / exact).toBeLessThan(1e-11);
    }
  });

  it('agrees with enumerating every pattern of wins and losses', () => {
    const random = seededRandom(7);
    const p = Array.from({ length: 12 }, () => random());
    for (let k = 0; k <= 13; k++) {
      let sum = 0;
      for (let mask = 0; mask < 1 << p.length; mask++) {
        let prob = 1;
        let wins = 0;
        for (let i = 0; i < p.length; i++) {
          if (mask & (1 << i)) {
            prob *= p[i];
            wins++;
          } else prob *= 1 - p[i];
        }
        if (wins >= k) sum += prob;
      }
      expect(poissonBinomialTail(p, k)).toBeCloseTo(sum, 13);
    }
  });

  it('refuses a probability outside [0, 1]', () => {
    expect(() => poissonBinomialTail([0.5, 1.5], 1)).toThrow(RangeError);
  });
});

describe('betting with the count: the stratified exact test', () => {
  const stratum = (coups: number, favourable: number, heavy: number, heavyFavourable: number): CountStratum => ({ coups, favourable, heavy, heavyFavourable });

  it("Fisher's tea-tasting cups: 4 of 8 chosen, all 4 right is 1/70, 3 or more is 17/70", () => {
    expect(countBettingTail([stratum(8, 4, 4, 4)])).toBeCloseTo(1 / 70, 15);
    expect(countBettingTail([stratum(8, 4, 4, 3)])).toBeCloseTo(17 / 70, 15);
    expect(countBettingTail([stratum(8, 4, 4, 0)])).toBeCloseTo(1, 13);
  });

  it('two strata convolve: two of four right in each is 1/36 together', () => {
    expect(countBettingTail([stratum(4, 2, 2, 2)])).toBeCloseTo(1 / 6, 15);
    expect(countBettingTail([stratum(4, 2, 2, 2), stratum(4, 2, 2, 2)])).toBeCloseTo(1 / 36, 15);
    // At least 3 of the 4: P(2,2) + P(2,1) + P(1,2) = 1/36 + 2 × (1/6 × 4/6) = 9/36.
    expect(countBettingTail([stratum(4, 2, 2, 2), stratum(4, 2, 2, 1)])).toBeCloseTo(9 / 36, 15);
  });

  it('agrees with placing the heavy stakes every possible way', () => {
    // Strata (coups, favourable, heavy): count the placements with at least x heavy on favourable.
    const strata = [stratum(7, 3, 3, 2), stratum(6, 1, 2, 1), stratum(5, 4, 2, 2)];
    const ways = strata.map((s) => {
      const byX = new Array<bigint>(s.heavy + 1).fill(0n);
      for (let x = 0; x <= s.heavy; x++) byX[x] = choose(s.favourable, x) * choose(s.coups - s.favourable, s.heavy - x);
      return byX;
    });
    let hits = 0n;
    let all = 0n;
    for (let a = 0; a < ways[0].length; a++)
      for (let b = 0; b < ways[1].length; b++)
        for (let c = 0; c < ways[2].length; c++) {
          const n = ways[0][a] * ways[1][b] * ways[2][c];
          all += n;
          if (a + b + c >= 5) hits += n;
        }
    expect(countBettingTail(strata)).toBeCloseTo(Number(hits) / Number(all), 14);
  });

  it('a counter who bets only on favourable coups, 12 times over a day, is far past any threshold', () => {
    // Late in the shoe: 20 coups, 3 favourable, bet heavily on exactly those; four such shoes.
    const p = countBettingTail([stratum(20, 3, 3, 3), stratum(20, 3, 3, 3), stratum(20, 3, 3, 3), stratum(20, 3, 3, 3)]);
    expect(p).toBeCloseTo(1 / Number(choose(20, 3)) ** 4, 20);
    expect(p).toBeLessThan(1e-12);
  });

  it('refuses an impossible stratum', () => {
    expect(() => countBettingTail([stratum(5, 2, 3, 3)])).toThrow(RangeError);
    expect(() => countBettingTail([stratum(5, 6, 3, 1)])).toThrow(RangeError);
  });

  it('heavy stakes: above the patron’s own median, a coup without the bet counting as zero', () => {
    expect(heavyStakes([0n, 0n, 0n, 500n])).toEqual([false, false, false, true]);
    expect(heavyStakes([100n, 1000n, 100n, 100n, 1000n])).toEqual([false, true, false, false, true]);
    expect(heavyStakes([100n, 100n, 100n])).toEqual([false, false, false]);
    expect(heavyStakes([])).toEqual([]);
  });
});

describe('the normal tail (money won beyond the odds)', () => {
  it.each([
    [0, 0.5],
    [1.96, 0.024997895148220435],
    [-1, 0.8413447460685429],
    [3, 0.0013498980316300946],
    [5, 2.866515718791939e-7],
    [8, 6.220960574271785e-16],
    [12, 1.7764821120776016e-33],
  ])('P(Z ≥ %p) = %p', (z, p) => {
    expect(Math.abs(normalUpperTail(z) - p) / p).toBeLessThan(1e-12);
  });

  it('a sum’s distance from its expectation in standard deviations', () => {
    expect(upperTailOfSum(130, 100, 225)).toEqual({ z: 2, pValue: normalUpperTail(2) });
    expect(upperTailOfSum(5, 5, 0)).toEqual({ z: 0, pValue: 1 });
  });
});

describe('a shoe seen before: runs of cards repeated from an earlier shoe', () => {
  const earlier = shuffledShoe(8, seededRandom(1));
  it('finds a 12-card slug carried into a new shoe, at its full length, and nothing by chance', () => {
    const fresh = shuffledShoe(8, seededRandom(2));
    const slug = earlier.slice(300, 312);
    const shoe = [...fresh.slice(0, 40), ...slug, ...fresh.slice(40, 404)];
    const runs = repeatedRuns(shoe, earlier, RUN_WINDOW);
    expect(runs).toContainEqual({ at: 40, earlierAt: 300, length: 12 });
    // The chance of that run at one place is about 52^-12; over every pair of places compared, still negligible.
    const chance = chanceOfRun(slug, 8) * shoe.length * earlier.length;
    expect(chance).toBeLessThan(1e-14);
    expect(runs.every((r) => r.length >= RUN_WINDOW)).toBe(true);
  });

  it('runs at the very start and the very end, and one a card too short', () => {
    const a = parseCards(['AS', '2S', '3S', '4S', '5S', '6S', '7S', '8S', '9S', 'TS', 'JS', 'QS', 'KS']);
    const b = parseCards(['AS', '2S', '3S', '4S', '5S', '6S', '7S', '8S', 'AH', 'TS', 'JS', 'QS', 'KS']);
    expect(repeatedRuns(a, b, 8)).toEqual([{ at: 0, earlierAt: 0, length: 8 }]);
    expect(repeatedRuns(a, b, 4)).toEqual([
      { at: 0, earlierAt: 0, length: 8 },
      { at: 9, earlierAt: 9, length: 4 },
    ]);
    expect(repeatedRuns(a, b, 9)).toEqual([]);
  });

  it('index keys: equal exactly when the windows are equal', () => {
    const cards = shuffledShoe(8, seededRandom(3));
    const keys = runKeys(cards);
    expect(keys).toHaveLength(cards.length - RUN_WINDOW + 1);
    const copy = [...cards.slice(100, 100 + RUN_WINDOW)];
    expect(runKeys(copy)).toEqual([keys[100]]);
    expect(keys.every((k) => Number.isSafeInteger(k))).toBe(true);
    copy[7] = (copy[7] + 1) % 52;
    expect(runKeys(copy)[0]).not.toBe(keys[100]);
  });

  it('the chance of a run counts the copies left', () => {
    expect(chanceOfRun(parseCards(['AS', 'KD']), 8)).toBeCloseTo((8 / 416) * (8 / 415), 18);
    expect(chanceOfRun(parseCards(['AS', 'AS']), 8)).toBeCloseTo((8 / 416) * (7 / 415), 18);
    expect(chanceOfRun(parseCards(['AS', 'AS']), 1)).toBe(0);
  });
});
