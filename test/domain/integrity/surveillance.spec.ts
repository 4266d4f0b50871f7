import {
  BETTING_FRACTIONS,
  FRACTION_WEIGHTS,
  chanceOfAnyMatch,
  chanceOfAnyRun,
  chanceOfRun,
  exchangeableEValue,
  logBettingGrowth,
  parseCards,
  poissonBinomialTail,
  repeatedRuns,
  RUN_WINDOW,
  runKeys,
  seededRandom,
  shiryaevRoberts,
  shiryaevRobertsStep,
  shiryaevRobertsValue,
  shuffledShoe,
} from '../../../src/domain';

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

describe('a bet on the record: each factor is an e-value', () => {
  it('is Σ ln(1 + λwz) for each betting fraction', () => {
    const growth = logBettingGrowth([
      { z: 1, w: 1 },
      { z: -1, w: 0.5 },
    ]);
    expect(growth).toHaveLength(BETTING_FRACTIONS.length);
    BETTING_FRACTIONS.forEach((lambda, i) => expect(growth[i]).toBeCloseTo(Math.log(1 + lambda) + Math.log(1 - lambda / 2), 14));
  });

  it('has mean exactly 1 when z has mean 0, and is never negative (z ≥ −1, λ < 1)', () => {
    // z takes −1 with chance 2/3 and 2 with chance 1/3: mean 0.
    for (const i of BETTING_FRACTIONS.keys()) {
      const e = (z: number) => Math.exp(logBettingGrowth([{ z, w: 1 }])[i]);
      expect((2 / 3) * e(-1) + (1 / 3) * e(2)).toBeCloseTo(1, 14);
      expect(e(-1)).toBeGreaterThan(0);
    }
  });

  it('refuses a z below −1 or a weight outside [0, 1]', () => {
    expect(() => logBettingGrowth([{ z: -1.01, w: 1 }])).toThrow(RangeError);
    expect(() => logBettingGrowth([{ z: 0.5, w: 1.5 }])).toThrow(RangeError);
    expect(() => logBettingGrowth([{ z: NaN, w: 1 }])).toThrow(RangeError);
  });
});

describe('the Shiryaev–Roberts e-detector', () => {
  it('by hand: R₁ = E₁, R₂ = (1 + R₁) E₂, the components averaged', () => {
    expect(shiryaevRoberts([])).toBe(0);
    expect(shiryaevRoberts([[Math.log(2)], [Math.log(3)]])).toBeCloseTo(9, 12);
    expect(
      shiryaevRoberts([
        [Math.log(2), Math.log(4)],
        [Math.log(3), 0],
      ]),
    ).toBeCloseTo((9 + 5) / 2, 12);
    // Evidence that would overflow a double stays finite in logarithms until the very end.
    expect(shiryaevRoberts([[700], [700]])).toBe(Infinity);
    expect(shiryaevRoberts([[300], [-290]])).toBeCloseTo(Math.exp(10), 0);
  });

  it('weighted: the components’ weighted mean, and no weights that are not one nonnegative number per component', () => {
    const steps = [
      [Math.log(2), Math.log(4)],
      [Math.log(3), 0],
    ];
    expect(shiryaevRoberts(steps, [1, 3])).toBeCloseTo((9 * 1 + 5 * 3) / 4, 12);
    expect(shiryaevRoberts(steps, [0, 2])).toBeCloseTo(5, 12);
    expect(() => shiryaevRoberts(steps, [1])).toThrow(RangeError);
    expect(() => shiryaevRoberts(steps, [1, -1])).toThrow(RangeError);
    expect(() => shiryaevRoberts(steps, [0, 0])).toThrow(RangeError);
  });

  it('refuses steps of different widths', () => {
    expect(() => shiryaevRoberts([[0], [0, 0]])).toThrow(RangeError);
  });

  /**
   * The property the alarm level rests on: with an alarm whenever R reaches A (and R started again
   * after it), the expected number of false alarms in n steps is at most n / A. Enumerated exactly
   * over every outcome of n steps, each a bet on an event of chance p (a win, a first card), for
   * several chances and alarm levels small enough to be reached.
   */
  it('false alarms: at most n ÷ A in expectation over n steps, enumerated exactly, the fractions mixed alike and as weighted', () => {
    for (const weights of [undefined, FRACTION_WEIGHTS])
      for (const p of [0.1, 0.45, 0.7]) {
        for (const A of [3, 8, 20]) {
          const n = 14;
          const bets = [0, 1].map((won) => logBettingGrowth([{ z: (won - p) / p, w: 1 }]));
          // Every outcome sequence, as a tree: each node a prefix, with its chance and alarms so far.
          let expected = 0;
          const walk = (k: number, logR: number[] | null, chance: number, alarms: number): void => {
            if (k === n) {
              expected += chance * alarms;
              return;
            }
            for (const won of [0, 1]) {
              const next = shiryaevRobertsStep(logR, bets[won]);
              const alarm = shiryaevRobertsValue(next, weights) >= A;
              walk(k + 1, alarm ? null : next, chance * (won ? p : 1 - p), alarms + (alarm ? 1 : 0)); // started again after an alarm
            }
          };
          walk(0, null, 1, 0);
          expect(expected).toBeLessThanOrEqual(n / A + 1e-12);
          expect(expected).toBeGreaterThan(0);
        }
      }
  });

  it('false alarms over 10⁶ simulated coups of honest play: below n ÷ A, and the bound is not loose by orders', () => {
    const random = seededRandom(20261127);
    const A = 50;
    let steps = 0;
    let alarms = 0;
    let logR: number[] | null = null;
    for (let shoe = 0; shoe < 20_000; shoe++) {
      // A shoe of 50 decisions, each with its own chance of being paid (as the cards left give it).
      const observations: { z: number; w: number }[] = [];
      for (let i = 0; i < 50; i++) {
        const p = 0.3 + 0.4 * random();
        const won = random() < p ? 1 : 0;
        observations.push({ z: (won - p) / p, w: 0.2 + 0.8 * random() });
      }
      logR = shiryaevRobertsStep(logR, logBettingGrowth(observations));
      steps++;
      if (shiryaevRobertsValue(logR) >= A) {
        alarms++;
        logR = null;
      }
    }
    expect(steps * 50).toBe(1_000_000);
    expect(alarms).toBeLessThanOrEqual(steps / A);
    expect(alarms).toBeGreaterThan(0);
  });
});

describe('an e-value from exchangeable references', () => {
  it('averages exactly 1 over which value is the observed one (the whole proof), ties counting against it', () => {
    const random = seededRandom(11);
    for (const n of [2, 5, 40, 300]) {
      const values = Array.from({ length: n }, () => Math.round(random() * 20) / 4);
      let sum = 0;
      for (let i = 0; i < n; i++) sum += exchangeableEValue(values[i], [...values.slice(0, i), ...values.slice(i + 1)]);
      expect(sum / n).toBeLessThanOrEqual(1 + 1e-12);
      const distinct = values.map((v, i) => v + i * 1e-6);
      let exact = 0;
      for (let i = 0; i < n; i++) exact += exchangeableEValue(distinct[i], [...distinct.slice(0, i), ...distinct.slice(i + 1)]);
      expect(exact / n).toBeCloseTo(1, 12);
    }
  });

  it('an observed value far above 999 references is worth hundreds; one among them, about 1; no spread, exactly 1', () => {
    const random = seededRandom(3);
    const references = Array.from({ length: 999 }, () => random());
    expect(exchangeableEValue(10, references)).toBeGreaterThan(500);
    expect(exchangeableEValue(10, references)).toBeLessThanOrEqual(1000);
    expect(exchangeableEValue(0.5, references)).toBeLessThan(2);
    expect(exchangeableEValue(1, [1, 1, 1])).toBeLessThan(1);
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

  it('the chance of any run: that of distinct cards, never below the chance of the cards that matched', () => {
    expect(chanceOfAnyRun(2, 8)).toBeCloseTo((8 / 416) * (8 / 415), 18);
    const random = seededRandom(9);
    for (let i = 0; i < 200; i++) {
      const run = Array.from({ length: 8 }, () => Math.floor(random() * 52));
      expect(chanceOfRun(run, 8)).toBeLessThanOrEqual(chanceOfAnyRun(8, 8));
    }
    // The look-elsewhere effect: an 8-card match is luck at a million shoes' places, not against a table's last 8 shoes.
    expect(chanceOfAnyMatch(8, 8, 1_000_000 * 402)).toBeGreaterThan(1e-3);
    expect(2 * chanceOfAnyMatch(8, 8, 8 * 402)).toBeCloseTo(5.356e-8, 10);
    expect(chanceOfAnyMatch(14, 8, 1_000_000 * 402)).toBeLessThan(1e-12);
  });

  it('the chance of a run counts the copies left', () => {
    expect(chanceOfRun(parseCards(['AS', 'KD']), 8)).toBeCloseTo((8 / 416) * (8 / 415), 18);
    expect(chanceOfRun(parseCards(['AS', 'AS']), 8)).toBeCloseTo((8 / 416) * (7 / 415), 18);
    expect(chanceOfRun(parseCards(['AS', 'AS']), 1)).toBe(0);
  });
});
