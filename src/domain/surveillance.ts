import { Card, CARDS_PER_DECK } from './cards';

/**
 * The statistics of integrity surveillance (docs/domain.md §7): how unlikely a patron's, a seat's,
 * a dealer's or a shoe's record is if nobody knows more than the cards left in the shoe. Each
 * function answers a p-value: the chance, under that null, of a record at least as extreme. These
 * are probabilities, not money, so they are doubles; every sum here adds positive terms, so the
 * relative error stays near the double's own (about 10^-15) far into the tail.
 */

// ---------------------------------------------------------------------------------------------
// Winning more often than the odds allow: the Poisson-binomial tail.

/**
 * P(W ≥ wins) where W counts the successes of independent trials, trial i succeeding with
 * probability p[i] (the exact chance that the bet made at that coup is paid, from the cards left
 * in the shoe before it). Dynamic programming over the trials, O(n × wins) with the tail folded
 * into one cell, so a patron's thousand coups cost a million multiplications at most.
 */
export function poissonBinomialTail(p: readonly number[], wins: number): number {
  if (wins <= 0) return 1;
  if (wins > p.length) return 0;
  // dist[k] = P(exactly k successes so far) for k < wins; dist[wins] = P(at least wins).
  const dist = new Float64Array(wins + 1);
  dist[0] = 1;
  for (let i = 0; i < p.length; i++) {
    const q = p[i];
    if (!(q >= 0 && q <= 1)) throw new RangeError(`a probability must lie in [0, 1], not ${q}`);
    dist[wins] += dist[wins - 1] * q;
    for (let k = Math.min(i + 1, wins - 1); k >= 1; k--) dist[k] = dist[k] * (1 - q) + dist[k - 1] * q;
    dist[0] *= 1 - q;
  }
  return Math.min(1, dist[wins]);
}

// ---------------------------------------------------------------------------------------------
// Betting with the count: an exact conditional test, stratified by depth of the shoe.

/**
 * One depth of the shoe in a patron's record of one bet: of the `coups` they played there,
 * `favourable` had the bet in the player's favour (its exact house edge below zero), `heavy` carried
 * a heavy stake on it, and `heavyFavourable` were both.
 */
export interface CountStratum {
  readonly coups: number;
  readonly favourable: number;
  readonly heavy: number;
  readonly heavyFavourable: number;
}

/**
 * P(Σ X_s ≥ Σ heavyFavourable_s), where in each stratum X_s is hypergeometric: the heavy stakes
 * placed on `heavy` of the stratum's coups drawn at random, how many fall on its `favourable` coups.
 * That is the exact distribution of the statistic if the patron's heavy stakes do not depend on the
 * cards left (within each depth: a patron who simply bets more late in the shoe is not suspected),
 * conditioned on what was observed (the Mantel–Haenszel setting, computed exactly by convolution
 * instead of its normal approximation).
 */
export function countBettingTail(strata: readonly CountStratum[]): number {
  let dist = [1];
  let observed = 0;
  for (const s of strata) {
    if (s.heavyFavourable > Math.min(s.heavy, s.favourable) || s.heavy > s.coups || s.favourable > s.coups || s.heavyFavourable < 0) {
      throw new RangeError(`an impossible stratum: ${JSON.stringify(s)}`);
    }
    observed += s.heavyFavourable;
    const pmf = hypergeometric(s.coups, s.favourable, s.heavy);
    const next = new Array<number>(dist.length + pmf.from + pmf.values.length - 1).fill(0);
    for (let i = 0; i < dist.length; i++) {
      if (dist[i] === 0) continue;
      for (let j = 0; j < pmf.values.length; j++) next[i + j + pmf.from] += dist[i] * pmf.values[j];
    }
    dist = trimTrailingZeros(next);
  }
  let tail = 0;
  for (let k = observed; k < dist.length; k++) tail += dist[k];
  return Math.min(1, tail);
}

/**
 * The heavy stakes of a patron on one bet: those above their own median stake on it over the coups
 * they played, a coup without that bet counting as a stake of zero. A patron who never varies their
 * stake has none; one who bets it now and then has their bets; one who bets the minimum always and
 * more at times has the times.
 */
export function heavyStakes(stakes: readonly bigint[]): boolean[] {
  if (stakes.length === 0) return [];
  const sorted = [...stakes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  return stakes.map((s) => s > median);
}

/** Hypergeometric probabilities of k = from … from + values.length − 1 (population, successes, draws). */
function hypergeometric(population: number, successes: number, draws: number): { from: number; values: number[] } {
  const from = Math.max(0, draws - (population - successes));
  const to = Math.min(draws, successes);
  const logs: number[] = [];
  for (let k = from; k <= to; k++) {
    logs.push(logChoose(successes, k) + logChoose(population - successes, draws - k) - logChoose(population, draws));
  }
  return { from, values: logs.map(Math.exp) };
}

function trimTrailingZeros(xs: number[]): number[] {
  let end = xs.length;
  while (end > 1 && xs[end - 1] === 0) end--;
  return xs.slice(0, end);
}

const LOG_FACTORIALS: number[] = [0];
/** ln(n!), from a table grown by sums of logarithms (exact enough: each step adds one rounding). */
function logFactorial(n: number): number {
  for (let i = LOG_FACTORIALS.length; i <= n; i++) LOG_FACTORIALS.push(LOG_FACTORIALS[i - 1] + Math.log(i));
  return LOG_FACTORIALS[n];
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

// ---------------------------------------------------------------------------------------------
// Winning more money than the odds allow.

/**
 * P(Z ≥ z) for a standard normal Z: erfc by its continued fraction in the tail and its series near
 * zero (relative error below 10^-14), so that p-values of 10^-12 are read as reliably as 0.05.
 */
export function normalUpperTail(z: number): number {
  if (z < 0) return 1 - normalUpperTail(-z);
  return erfc(z / Math.SQRT2) / 2;
}

function erfc(x: number): number {
  if (x < 2) {
    // erf by its Maclaurin series: 2/√π Σ (−1)^n x^(2n+1) / (n! (2n+1)).
    let term = x;
    let sum = x;
    for (let n = 1; n < 200; n++) {
      term *= (-x * x) / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  // Lentz's continued fraction: erfc(x) = e^(−x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + …)))).
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 500; n++) {
    const a = n / 2;
    d = x + a * d;
    d = d === 0 ? tiny : d;
    c = x + a / c;
    c = c === 0 ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / (Math.sqrt(Math.PI) * f);
}

/**
 * How far a sum of independent results lies above its expectation, in standard deviations, and the
 * chance of being that far or farther (the normal approximation, which the central limit theorem
 * makes sound once a record holds many coups; the win count's tail above is exact).
 */
export function upperTailOfSum(actual: number, expected: number, variance: number): { z: number; pValue: number } {
  if (variance <= 0) return { z: actual > expected ? Infinity : 0, pValue: actual > expected ? 0 : 1 };
  const z = (actual - expected) / Math.sqrt(variance);
  return { z, pValue: normalUpperTail(z) };
}

// ---------------------------------------------------------------------------------------------
// A shoe seen before: runs of cards repeated from an earlier shoe.

/** Cards in a window of the run index: 8 cards of 6 bits each, a 48-bit integer, held exactly in a double. */
export const RUN_WINDOW = 8;

/**
 * The index keys of a dealt sequence: for each position i, the RUN_WINDOW cards from i in dealing
 * order as one integer (no hashing, so no collisions). Two shoes share a key exactly when they share
 * that run of RUN_WINDOW cards.
 */
export function runKeys(cards: readonly Card[]): number[] {
  const keys: number[] = [];
  for (let i = 0; i + RUN_WINDOW <= cards.length; i++) {
    let key = 0;
    for (let j = 0; j < RUN_WINDOW; j++) key = key * 64 + cards[i + j];
    keys.push(key);
  }
  return keys;
}

/** A run of cards dealt in a shoe in the same order as in an earlier one. */
export interface RepeatedRun {
  /** Position in the shoe (0 = the first card out, the burn card when recorded). */
  readonly at: number;
  /** Position of the same run in the earlier shoe. */
  readonly earlierAt: number;
  readonly length: number;
}

/**
 * Every maximal run of at least `minLength` cards that `cards` deals in the same order as `earlier`
 * does (each found once, at its longest). Quadratic in the worst case; the service only calls it for
 * the earlier shoes the run index points to.
 */
export function repeatedRuns(cards: readonly Card[], earlier: readonly Card[], minLength: number = RUN_WINDOW): RepeatedRun[] {
  const runs: RepeatedRun[] = [];
  // Diagonal by diagonal (offset = earlierAt − at), each maximal stretch of equal cards once.
  for (let offset = -(cards.length - 1); offset < earlier.length; offset++) {
    let length = 0;
    for (let at = Math.max(0, -offset); at < cards.length && at + offset < earlier.length; at++) {
      if (cards[at] === earlier[at + offset]) length++;
      else {
        if (length >= minLength) runs.push({ at: at - length, earlierAt: at - length + offset, length });
        length = 0;
      }
    }
    const end = Math.min(cards.length, earlier.length - offset);
    if (length >= minLength) runs.push({ at: end - length, earlierAt: end - length + offset, length });
  }
  return runs.sort((a, b) => a.at - b.at || a.earlierAt - b.earlierAt);
}

/**
 * The maximal run through one matching place (cards[at] = earlier[earlierAt]), as the run index
 * finds it: extended backwards and forwards while the two shoes agree.
 */
export function extendRun(cards: readonly Card[], earlier: readonly Card[], at: number, earlierAt: number): RepeatedRun {
  let start = 0;
  while (at - start - 1 >= 0 && earlierAt - start - 1 >= 0 && cards[at - start - 1] === earlier[earlierAt - start - 1]) start++;
  let length = start;
  while (
    at - start + length < cards.length &&
    earlierAt - start + length < earlier.length &&
    cards[at - start + length] === earlier[earlierAt - start + length]
  )
    length++;
  return { at: at - start, earlierAt: earlierAt - start, length };
}

/**
 * The chance that a fairly shuffled shoe of `decks` decks shows these cards, in this order, at one
 * given place: Π (copies of the card still unaccounted for) ÷ (cards still unaccounted for), as if
 * drawn from a fresh shoe. Times the number of (place here, place there) pairs compared, it bounds
 * the chance that any run this long matches by luck alone (Boole's inequality): the run's p-value.
 */
export function chanceOfRun(run: readonly Card[], decks: number): number {
  const used = new Array<number>(CARDS_PER_DECK).fill(0);
  let chance = 1;
  for (let i = 0; i < run.length; i++) {
    chance *= (decks - used[run[i]]) / (decks * CARDS_PER_DECK - i);
    used[run[i]]++;
  }
  return chance;
}
