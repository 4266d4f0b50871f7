import { MAX_DECKS, MIN_DECKS } from './cards';
import { DomainError } from '../errors';
import { Odds } from '../money/money';
import { BANKER_DRAWS, fallingProduct, Fraction, fractionToDecimal, reduceFraction } from './odds';
import { BetType, offeredBets, RuleSet } from './rules';
import { settleWager } from './settlement';
import { CoupOutcome, HandsSummary, outcomeOfHands } from './tableau';

/**
 * The joint distribution of a coup's outcome from a full shoe, and from it the exact mean and
 * covariance of every bet's result: what the statistical band of a theoretical win is made of.
 *
 * Bets on one coup are not independent (a Banker and a Player bet on the same coup nearly cancel),
 * so the variance of a coup's result for the house is the quadratic form Σ_b Σ_c S_b S_c Cov(b, c)
 * of the stakes per bet, not a sum of the wagers' own variances (docs/domain.md §6).
 */

/** One class of outcomes that settle every bet alike, and how many ordered 6-card sequences give it. */
export interface OutcomeClass {
  readonly outcome: CoupOutcome;
  readonly count: bigint;
}

const RANKS = 13;
const SUITS = 4;
/** A rank's point value: A=1, 2–9, then T, J, Q, K = 0 (ranks are indexed A, 2, …, 9, T, J, Q, K). */
const POINT = Array.from({ length: RANKS }, (_, r) => (r >= 9 ? 0 : r + 1));

const classCache = new Map<number, { classes: OutcomeClass[]; total: bigint }>();

/**
 * Every class of punto banco outcomes from a full shoe of `decks` decks, with its count of ordered
 * 6-card sequences (as exactOdds counts them: a coup of k cards stands for the (n−k)…(n−5) ways the
 * unused positions can be filled). The first four cards are enumerated by rank (pairs), and by suit
 * where a pair is possible (perfect pairs); third cards by point value. Counts stay below 2^53, so the
 * sums are exact in doubles. Cached per deck count.
 */
export function outcomeClasses(decks: number): { classes: OutcomeClass[]; total: bigint } {
  if (!Number.isInteger(decks) || decks < MIN_DECKS || decks > MAX_DECKS)
    throw new DomainError('INVALID_SHOE', `A shoe holds ${MIN_DECKS} to ${MAX_DECKS} decks, not ${decks}`);
  const hit = classCache.get(decks);
  if (hit) return hit;

  const n = RANKS * SUITS * decks;
  const rankLeft = new Array<number>(RANKS).fill(SUITS * decks);
  const cardLeft = new Array<number>(RANKS * SUITS).fill(decks);
  const counts = new Map<string, number>();
  const summaries = new Map<string, HandsSummary>();
  const add = (s: HandsSummary, w: number) => {
    const key = `${s.playerTotal}${s.bankerTotal}${s.playerCards}${s.bankerCards}${+s.natural}${+s.playerPair}${+s.bankerPair}${+s.playerPerfectPair}${+s.bankerPerfectPair}`;
    counts.set(key, (counts.get(key) ?? 0) + w);
    if (!summaries.has(key)) summaries.set(key, s);
  };
  const f5 = n - 5;
  const f45 = (n - 4) * f5;

  // The third-card stage for four cards dealt: each leaf's weight per way of dealing the four.
  const thirdCards = (pt: number, bt: number, leaf: (playerCards: number, bankerCards: number, pf: number, bf: number, w: number) => void) => {
    const v = new Array<number>(10).fill(0);
    for (let r = 0; r < RANKS; r++) v[POINT[r]] += rankLeft[r];
    if (pt >= 8 || bt >= 8 || (pt >= 6 && bt >= 6)) return leaf(2, 2, pt, bt, f45);
    if (pt >= 6) {
      for (let b3 = 0; b3 < 10; b3++) if (v[b3] > 0) leaf(2, 3, pt, (bt + b3) % 10, v[b3] * f5);
      return;
    }
    for (let p3 = 0; p3 < 10; p3++) {
      const w5 = v[p3];
      if (w5 === 0) continue;
      const pf = (pt + p3) % 10;
      if (BANKER_DRAWS[bt * 10 + p3] === 1) {
        v[p3]--;
        for (let b3 = 0; b3 < 10; b3++) if (v[b3] > 0) leaf(3, 3, pf, (bt + b3) % 10, w5 * v[b3]);
        v[p3]++;
      } else leaf(3, 2, pf, bt, w5 * f5);
    }
  };

  // How the ways of dealing four cards of these ranks split by perfect pairs (same rank and suit).
  const suitSplit = (ranks: number[]): { pp: boolean; bp: boolean; w: number }[] => {
    const out = new Map<string, { pp: boolean; bp: boolean; w: number }>();
    const suits = [0, 0, 0, 0];
    const go = (i: number, w: number) => {
      if (i === 4) {
        const pp = ranks[0] === ranks[2] && suits[0] === suits[2];
        const bp = ranks[1] === ranks[3] && suits[1] === suits[3];
        const key = `${+pp}${+bp}`;
        const e = out.get(key) ?? { pp, bp, w: 0 };
        e.w += w;
        out.set(key, e);
        return;
      }
      for (let s = 0; s < SUITS; s++) {
        const card = ranks[i] * SUITS + s;
        const k = cardLeft[card];
        if (k === 0) continue;
        suits[i] = s;
        cardLeft[card]--;
        go(i + 1, w * k);
        cardLeft[card]++;
      }
    };
    go(0, 1);
    return [...out.values()];
  };

  const ranks = [0, 0, 0, 0];
  for (let p1 = 0; p1 < RANKS; p1++) {
    const w1 = rankLeft[p1];
    rankLeft[p1]--;
    for (let b1 = 0; b1 < RANKS; b1++) {
      const w2 = w1 * rankLeft[b1];
      if (w2 === 0) continue;
      rankLeft[b1]--;
      for (let p2 = 0; p2 < RANKS; p2++) {
        const w3 = w2 * rankLeft[p2];
        if (w3 === 0) continue;
        rankLeft[p2]--;
        const pt = (POINT[p1] + POINT[p2]) % 10;
        for (let b2 = 0; b2 < RANKS; b2++) {
          const w4 = w3 * rankLeft[b2];
          if (w4 === 0) continue;
          rankLeft[b2]--;
          const bt = (POINT[b1] + POINT[b2]) % 10;
          const playerPair = p1 === p2;
          const bankerPair = b1 === b2;
          ranks[0] = p1;
          ranks[1] = b1;
          ranks[2] = p2;
          ranks[3] = b2;
          const split = playerPair || bankerPair ? suitSplit(ranks) : [{ pp: false, bp: false, w: w4 }];
          const natural = pt >= 8 || bt >= 8;
          thirdCards(pt, bt, (playerCards, bankerCards, pf, bf, w) => {
            for (const s of split)
              add(
                {
                  playerTotal: pf,
                  bankerTotal: bf,
                  playerCards,
                  bankerCards,
                  natural,
                  playerPair,
                  bankerPair,
                  playerPerfectPair: s.pp,
                  bankerPerfectPair: s.bp,
                },
                s.w * w,
              );
          });
          rankLeft[b2]++;
        }
        rankLeft[p2]++;
      }
      rankLeft[b1]++;
    }
    rankLeft[p1]++;
  }

  const classes = [...counts].map(([key, c]) => ({ outcome: outcomeOfHands(summaries.get(key)!), count: BigInt(c) }));
  const result = { classes, total: fallingProduct(n, 6) };
  classCache.set(decks, result);
  return result;
}

/** Exact mean and covariance of the customer's result per unit staked, for every bet a table offers. */
export interface BetMoments {
  readonly bets: readonly BetType[];
  /** E[result per unit]: minus the house edge. */
  readonly mean: ReadonlyMap<BetType, Fraction>;
  /** Cov(b, c) of the results per unit of two bets on the same coup (b = c: the variance). */
  covariance(b: BetType, c: BetType): Fraction;
}

/**
 * A stake that every pay, Super 6 half-pay and commission of these rules divides exactly, so that
 * settling it gives the result per unit without rounding: 10,000 (commission in basis points) times
 * the denominators of the pays.
 */
function exactUnit(rules: RuleSet): bigint {
  const pays: Odds[] = [...Object.values(rules.pays), rules.bankerSixPays, ...(rules.perfectPairBothPays ? [rules.perfectPairBothPays] : [])];
  let unit = 10_000n;
  for (const p of new Set(pays.map((o) => o.denominator))) unit *= BigInt(p);
  return unit;
}

/**
 * The moments of every offered bet under these rules, from a full shoe: each outcome class settled
 * once per bet by the engine's own settleWager (so the results are the ones paid), at a stake
 * (exactUnit) that makes every result exact.
 */
export function betMoments(rules: RuleSet): BetMoments {
  const { classes, total } = outcomeClasses(rules.decks);
  const bets = offeredBets(rules);
  const unit = exactUnit(rules);
  // Each bet's result (in 1/unit) per class.
  const results = bets.map((b) => classes.map((c) => settleWager(rules, c.outcome, { betType: b, amount: unit }).net));
  const denominator = total * unit;
  const sums = results.map((r) => r.reduce((acc, x, i) => acc + x * classes[i].count, 0n));
  const mean = new Map(bets.map((b, i) => [b, reduceFraction({ numerator: sums[i], denominator })]));
  const cov = new Map<string, Fraction>();
  const covariance = (b: BetType, c: BetType): Fraction => {
    const i = bets.indexOf(b);
    const j = bets.indexOf(c);
    if (i < 0 || j < 0) throw new DomainError('BET_NOT_OFFERED', `${i < 0 ? b : c} is not offered under these rules`);
    const key = i <= j ? `${i}:${j}` : `${j}:${i}`;
    let f = cov.get(key);
    if (!f) {
      let cross = 0n;
      for (let k = 0; k < classes.length; k++) cross += results[i][k] * results[j][k] * classes[k].count;
      // E[XY] − E[X]E[Y], over the common denominator (total · unit)².
      f = reduceFraction({ numerator: cross * total - sums[i] * sums[j], denominator: denominator * denominator });
      cov.set(key, f);
    }
    return f;
  };
  return { bets, mean, covariance };
}

/**
 * The covariances of these rules' bets per unit², quantised to 10^-12 (half away from zero), as
 * the ledger keeps theoretical win: each coup's variance is then Σ S_b S_c cov_bc, exact integers.
 */
export function quantisedCovariances(rules: RuleSet): Map<BetType, Map<BetType, bigint>> {
  const m = betMoments(rules);
  const out = new Map<BetType, Map<BetType, bigint>>();
  for (const b of m.bets) {
    const row = new Map<BetType, bigint>();
    for (const c of m.bets) row.set(c, quantise(m.covariance(b, c)));
    out.set(b, row);
  }
  return out;
}

/** A coup's variance of result ×10^12 (minor units²): the stakes per bet through the covariances. */
export function coupVarianceE12(stakes: ReadonlyMap<BetType, bigint>, covE12: Map<BetType, Map<BetType, bigint>>): bigint {
  let v = 0n;
  for (const [b, sb] of stakes) {
    const row = covE12.get(b);
    if (!row) continue;
    for (const [c, sc] of stakes) v += sb * sc * (row.get(c) ?? 0n);
  }
  return v;
}

/**
 * What the rollups keep of a coup's variance: each bet type's own part (its stakes² × its variance,
 * the bet-type grain) and the coup's whole variance (the quadratic form, the table-day grain).
 */
export function coupVariances(stakes: ReadonlyMap<BetType, bigint>, covE12: Map<BetType, Map<BetType, bigint>>): { own: Map<BetType, bigint>; whole: bigint } {
  const own = new Map([...stakes].map(([b, s]) => [b, coupVarianceE12(new Map([[b, s]]), covE12)] as const));
  return { own, whole: coupVarianceE12(stakes, covE12) };
}

/** Quantised to 10^-12, half away from zero: the rounding of quantisedEdges. */
function quantise(f: Fraction): bigint {
  return BigInt(fractionToDecimal(f, 12).replace('.', ''));
}

/**
 * The exact probability that each offered bet loses its stake on a coup from a full shoe (a push or
 * a win keeps it): what a dead chip staked on it is rolled with (src/domain/patrons/rolling.ts). Settled by
 * the engine's settleWager over the outcome classes, like the moments.
 */
export function lossProbabilities(rules: RuleSet): Map<BetType, Fraction> {
  const { classes, total } = outcomeClasses(rules.decks);
  const unit = exactUnit(rules);
  return new Map(
    offeredBets(rules).map((b) => {
      let lost = 0n;
      for (const c of classes) if (settleWager(rules, c.outcome, { betType: b, amount: unit }).result === 'LOSE') lost += c.count;
      return [b, reduceFraction({ numerator: lost, denominator: total })];
    }),
  );
}

/** Each offered bet's probability of losing × 10^12, half away from zero (as the edges are kept). */
export function quantisedLossProbabilities(rules: RuleSet): Partial<Record<BetType, bigint>> {
  return Object.fromEntries([...lossProbabilities(rules)].map(([b, p]) => [b, quantise(p)]));
}
