import { Card, CARDS_PER_DECK } from '../game/cards';

/**
 * The statistics of integrity surveillance (docs/domain.md §9): how much evidence a patron's, a
 * seat's, a dealer's or a shoe's record holds against "nobody knows more than the cards left in the
 * shoe". E-values (whose expectation is at most 1 under that null), gathered by the Shiryaev–Roberts
 * e-detector, and bounds on the chance of a repeated run that no run's own cards can beat. These are
 * probabilities and evidence, not money, so they are doubles (the evidence in logarithms).
 */

// ---------------------------------------------------------------------------------------------
// Winning more often than the odds allow: the Poisson-binomial tail.

/**
 * P(W ≥ wins) where W counts the successes of independent trials, trial i succeeding with
 * probability p[i] (the exact chance that the bet made at that coup is paid, from the cards left
 * in the shoe before it). Dynamic programming over the trials, O(n × wins) with the tail folded
 * into one cell, so a patron's thousand coups cost a million multiplications at most.
 */
export function poissonBinomialTail(p: readonly number[], atLeast: number): number {
  const wins = Math.ceil(atLeast);
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
// Evidence that stays valid however often it is looked at: e-values and the Shiryaev–Roberts e-detector.

/**
 * The betting fractions every e-detector mixes over. A record is scored as a bettor who, at each
 * coup, stakes the fraction λ of their wealth on the coup going the way a cheat's would; under the
 * null (nobody knows more than the cards left) each bet is fair or worse, so the wealth is a
 * nonnegative supermartingale. The mixture over λ adapts to how strong a cheat's edge is without
 * looking at the data first.
 */
export const BETTING_FRACTIONS: readonly number[] = [1 / 16, 1 / 8, 1 / 4, 1 / 2, 3 / 4];

/**
 * The mixture's weight on each fraction, in proportion to it. What the mixture costs is the log of
 * one over a component's weight, paid once; that matters only to a record caught in its first shoe,
 * and only a strong edge (a large fraction) is caught that soon. A weak one takes thousands of coups,
 * against which the extra nat the small fractions lose is nothing. Measured on an edge sorter's
 * shoes: caught within the shoe 82 % of the time instead of 76 % with equal weights.
 */
export const FRACTION_WEIGHTS: readonly number[] = BETTING_FRACTIONS;

/**
 * A bet's log-growth per fraction: Σ ln(1 + λ × w × z) over the observations, for each λ in
 * BETTING_FRACTIONS. Each z must have a conditional mean of at most 0 under the null and be at least
 * −1; w ∈ [0, 1] must be known before the outcome. Then every 1 + λwz is at least 0 and its
 * conditional mean at most 1: each product is an e-value.
 */
export function logBettingGrowth(observations: readonly { z: number; w: number }[]): number[] {
  return BETTING_FRACTIONS.map((lambda) => {
    let sum = 0;
    for (const { z, w } of observations) {
      if (!(z >= -1) || !(w >= 0 && w <= 1)) throw new RangeError(`a bet needs z ≥ −1 and w in [0, 1], not z = ${z}, w = ${w}`);
      sum += Math.log1p(lambda * w * z);
    }
    return sum;
  });
}

/** ln(e^a + e^b) without overflow. */
function logAdd(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  const m = Math.max(a, b);
  return m + Math.log(Math.exp(a - m) + Math.exp(b - m));
}

/**
 * The Shiryaev–Roberts e-detector, in logarithms. Each step (a shoe) gives one e-value per
 * component of a mixture (a betting fraction, a way of weighting the stakes; or just one); for each
 * component, R_k = (1 + R_{k−1}) × E_k from R_0 = 0. It is the sum, over every step s ≤ k, of the
 * evidence gathered since s: a cheat who starts late is seen as if the record began when they did.
 * Under the null E[R_k − k] = 0 (R_k − k is a martingale), so if an alarm is raised whenever R
 * reaches A and the statistic starts again after it, **the expected number of false alarms over any
 * n steps is at most n / A**, however long the record and however often it is looked at
 * (docs/domain.md §9). The statistic is the components' mean, which keeps that property.
 */
export function shiryaevRoberts(stepLogEValues: readonly (readonly number[])[], weights?: readonly number[]): number {
  let logR: number[] | null = null;
  for (const step of stepLogEValues) logR = shiryaevRobertsStep(logR, step);
  return shiryaevRobertsValue(logR, weights);
}

/** One step of the statistic, in logarithms, one per component: ln R_k = ln(1 + R_{k−1}) + ln E_k (null: the start, R = 0). */
export function shiryaevRobertsStep(logR: readonly number[] | null, step: readonly number[]): number[] {
  if (logR !== null && step.length !== logR.length) throw new RangeError(`every step has one e-value per component (${logR.length}), not ${step.length}`);
  // An e-value that is no number (a corrupt record) counts as 1: no evidence either way.
  return step.map((logE, i) => logAdd(0, logR === null ? -Infinity : logR[i]) + (Number.isNaN(logE) ? 0 : logE));
}

/**
 * The statistic: the components' mean (0 before any step), weighted if weights are given (any
 * nonnegative weights, fixed before the record is seen: a weighted mean of e-detectors is one).
 */
export function shiryaevRobertsValue(logR: readonly number[] | null, weights?: readonly number[]): number {
  if (logR === null || logR.length === 0) return 0;
  if (weights && (weights.length !== logR.length || !weights.every((w) => w >= 0) || !weights.some((w) => w > 0)))
    throw new RangeError(`one nonnegative weight per component (${logR.length}), not ${weights.join(', ')}`);
  let sum = -Infinity;
  let total = 0;
  logR.forEach((x, i) => {
    const w = weights ? weights[i] : 1;
    total += w;
    if (w > 0) sum = logAdd(sum, x + Math.log(w));
  });
  return Math.exp(sum - Math.log(total));
}

/**
 * An e-value from an exchangeable sample: `observed` is the statistic of the record as it was,
 * `references` the same statistic on draws that are, under the null, exchangeable with it (shoes
 * shuffled afresh, a dealer's coups reassigned). It is the mean of two e-values, each of which
 * averages exactly 1 over which of the n = references + 1 values is the observed one, so that its
 * expectation is at most 1 under the null however the references were drawn, as long as they were
 * drawn without looking at the record:
 * - by rank: n ÷ (rank × H_n), rank = 1 + the references at or above the observed (ties count
 *   against it), H_n = 1 + ½ + … + 1/n; strong for an observed value in the top few per cent;
 * - by size: the mean over λ ∈ {½, 1, 2, 3, 4} of e^(λ z₀) ÷ mean_i e^(λ z_i), every value
 *   standardised by the mean and spread of all of them; up to n for one far above the rest.
 */
export function exchangeableEValue(observed: number, references: readonly number[]): number {
  // A statistic that is no number (a corrupt record) is no evidence.
  if (!Number.isFinite(observed) || !references.every(Number.isFinite)) return 1;
  const n = references.length + 1;
  let above = 0;
  for (const r of references) if (r >= observed) above++;
  let harmonic = 0;
  for (let i = 1; i <= n; i++) harmonic += 1 / i;
  const byRank = n / ((1 + above) * harmonic);
  return (byRank + bySize(observed, references)) / 2;
}

function bySize(observed: number, references: readonly number[]): number {
  const all = [observed, ...references];
  const n = all.length;
  const mean = all.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(all.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  if (!(sd > 1e-12 * Math.max(1, Math.abs(mean)))) return 1;
  const z = all.map((x) => (x - mean) / sd);
  const zMax = Math.max(...z);
  let e = 0;
  for (const lambda of EXCHANGEABLE_LAMBDAS) {
    let denominator = 0;
    for (const zi of z) denominator += Math.exp(lambda * (zi - zMax));
    e += Math.exp(lambda * (z[0] - zMax)) / (denominator / n);
  }
  return e / EXCHANGEABLE_LAMBDAS.length;
}
const EXCHANGEABLE_LAMBDAS = [0.5, 1, 2, 3, 4];

/** A seeded generator's seed from text (FNV-1a): the same record gets the same references, so a finding can be worked out again. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
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

/**
 * The largest chance any run of `length` cards has at one place of a fairly shuffled shoe: that of
 * `length` different cards, Π decks ÷ (cards − i). A run with repeated cards is less likely still,
 * so this bounds every run of that length, whatever its cards, and the bound below cannot be made
 * smaller by which cards happened to match.
 */
export function chanceOfAnyRun(length: number, decks: number): number {
  // No shoe, or a run longer than one: nothing to bound, so no evidence.
  if (!(decks >= 1) || !(length >= 0) || length > decks * CARDS_PER_DECK) return 1;
  let chance = 1;
  for (let i = 0; i < length; i++) chance *= decks / (decks * CARDS_PER_DECK - i);
  return chance;
}

/**
 * The chance that a fairly shuffled shoe matches, somewhere, a run of at least `length` cards
 * among `comparedPlaces` places dealt before: each of its places (at most a whole shoe) against each
 * of those, bounded by Boole's inequality. The index's real size goes in, so the more shoes indexed,
 * the longer a run must be to be told from luck (the look-elsewhere effect).
 */
export function chanceOfAnyMatch(length: number, decks: number, comparedPlaces: number): number {
  if (!(decks >= 1) || !(comparedPlaces >= 0)) return 1;
  return Math.min(1, decks * CARDS_PER_DECK * comparedPlaces * chanceOfAnyRun(length, decks));
}
