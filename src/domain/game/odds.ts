import { ALL_CARDS, Card, CARDS_PER_DECK, formatCard, MAX_DECKS, MIN_DECKS, parseCard, pointOf, rankOf } from './cards';
import { DomainError } from '../errors';
import { Odds } from '../money/money';
import { BetType, isCasinoBanked, offeredBets, RuleSet } from './rules';
import { puntoBancoBankerDraw } from './tableau';

/** How many of each of the 52 cards a shoe holds (index = card). */
export type Composition = readonly number[];

/** A full shoe of `decks` decks. */
export function fullShoe(decks: number): number[] {
  if (!Number.isInteger(decks) || decks < MIN_DECKS || decks > MAX_DECKS) {
    throw new DomainError('INVALID_SHOE', `A shoe holds ${MIN_DECKS} to ${MAX_DECKS} decks, not ${decks}`);
  }
  return new Array<number>(CARDS_PER_DECK).fill(decks);
}

/** Removes cards from a composition; a card the shoe no longer holds is CARD_NOT_IN_SHOE. */
export function removeCards(composition: Composition, cards: readonly Card[]): number[] {
  const left = [...composition];
  for (const c of cards) {
    if (left[c] <= 0) {
      throw new DomainError('CARD_NOT_IN_SHOE', `${formatCard(c)} is not in the shoe: all ${composition[c]} of them have already been dealt or burned`, {
        card: formatCard(c),
      });
    }
    left[c] -= 1;
  }
  return left;
}

/** A composition from a count per card in wire notation, e.g. `{ "AS": 8, "TD": 3 }` (others 0). */
export function compositionFromCounts(counts: Readonly<Record<string, number>>): number[] {
  const comp = new Array<number>(CARDS_PER_DECK).fill(0);
  for (const [text, n] of Object.entries(counts)) {
    const card = parseCard(text);
    if (!Number.isInteger(n) || n < 0 || n > MAX_DECKS) {
      throw new DomainError('INVALID_SHOE', `A shoe holds 0 to ${MAX_DECKS} of each card, not ${n} × ${text}`);
    }
    comp[card] = n;
  }
  return comp;
}

export function cardsIn(composition: Composition): number {
  return composition.reduce((a, b) => a + b, 0);
}

/**
 * Exact counts of ordered 6-card sequences from a composition (docs/domain.md §4), per outcome and
 * per event a bet depends on. `total` = n(n−1)(n−2)(n−3)(n−4)(n−5).
 */
export interface OddsCounts {
  readonly cards: number;
  readonly total: bigint;
  readonly banker: bigint;
  readonly player: bigint;
  readonly tie: bigint;
  readonly natural: bigint;
  readonly fourCards: bigint;
  readonly fiveCards: bigint;
  readonly sixCards: bigint;
  readonly bankerWin6TwoCards: bigint;
  readonly bankerWin6ThreeCards: bigint;
  readonly bankerWin6: bigint;
  readonly dragon7: bigint;
  readonly panda8: bigint;
  readonly playerPair: bigint;
  readonly bankerPair: bigint;
  readonly eitherPair: bigint;
  readonly perfectPairEither: bigint;
  readonly perfectPairBoth: bigint;
}

/** drawTable[bankerTotal * 10 + playerThird] = 1 when Banker must draw (punto banco). */
export const BANKER_DRAWS = Uint8Array.from({ length: 100 }, (_, i) => (puntoBancoBankerDraw(Math.floor(i / 10), i % 10) === 'DRAW' ? 1 : 0));

/**
 * The exact odds of the punto banco tableau for any composition of at least 6 cards.
 *
 * Outcomes are enumerated by point value (10 values, not 52 cards), in two steps:
 * - **The first four cards** as two unordered pairs of values, Player's {p1 ≤ p2} and Banker's
 *   {b1 ≤ b2} (55 × 55 = 3,025 leaves instead of 10^4 ordered ones): the number of ordered card
 *   sequences giving four values is the same product of falling counts whatever their order, and a
 *   hand's total and its two orders (twice when the values differ) are what the tableau reads.
 * - **The third cards** without a loop over Banker's third card: with the four cards out, the counts
 *   of the cards that would bring Banker to each final total j are the remaining counts rotated by
 *   Banker's two-card total, and a running sum over them answers "Banker ends above / equal to /
 *   below Player" at once; when Player has drawn a card, that card is taken out of its own slot.
 *
 * A leaf that uses k cards stands for all the ways to fill the remaining 6 − k positions, so it is
 * weighted by (n−k)…(n−5). Every weight and every sum is at most n(n−1)…(n−5), which for n ≤ 416
 * (8 decks) is below 2^53, so plain doubles are exact here; the results are handed out as bigint.
 * `test/domain/game/odds.spec.ts` checks this against a brute-force enumeration of card sequences and
 * against the engine's first, plainer enumeration (`test/support/value-enumeration.ts`).
 */
export function exactOdds(composition: Composition): OddsCounts {
  const { c, n } = pointCounts(composition);
  const tally = new Float64Array(TALLY);
  const n4 = n - 4;
  const f5 = n - 5;
  const leaf = new Leaf(c, n);
  for (let p1 = 0; p1 < 10; p1++) {
    const w1 = c[p1];
    if (w1 === 0) continue;
    c[p1]--;
    for (let p2 = p1; p2 < 10; p2++) {
      const w2 = w1 * c[p2] * (p1 === p2 ? 1 : 2);
      if (w2 === 0) continue;
      c[p2]--;
      const pt = (p1 + p2) % 10;
      for (let b1 = 0; b1 < 10; b1++) {
        const w3 = w2 * c[b1];
        if (w3 === 0) continue;
        c[b1]--;
        for (let b2 = b1; b2 < 10; b2++) {
          const w4 = w3 * c[b2] * (b1 === b2 ? 1 : 2);
          if (w4 === 0) continue;
          c[b2]--;
          leaf.add(tally, 0, w4, pt, (b1 + b2) % 10, n4, f5);
          c[b2]++;
        }
        c[b1]++;
      }
      c[p2]++;
    }
    c[p1]++;
  }
  return { ...countsOf(tally, 0, n, fallingProduct(n, 6)), ...pairCounts(composition, n) };
}

/**
 * The tableau's odds given the first card out (Player's first), one entry per point value 0–9 the
 * shoe still holds (null for a value it does not): what a player who saw that card would know.
 * Each entry counts the ordered sequences that begin with a card of that value, so its total is
 * (cards of that value) × (n−1)…(n−5), and the ten entries add up to exactOdds'. Pairs are left out.
 */
export function oddsByFirstCard(composition: Composition): (Omit<OddsCounts, PairEvent> | null)[] {
  const { c, n } = pointCounts(composition);
  const tally = new Float64Array(TALLY * 10);
  const n4 = n - 4;
  const f5 = n - 5;
  const leaf = new Leaf(c, n);
  const totals = c.map((k) => BigInt(k) * fallingProduct(n - 1, 5));
  for (let p1 = 0; p1 < 10; p1++) {
    const w1 = c[p1];
    if (w1 === 0) continue;
    c[p1]--;
    for (let p2 = 0; p2 < 10; p2++) {
      const w2 = w1 * c[p2];
      if (w2 === 0) continue;
      c[p2]--;
      const pt = (p1 + p2) % 10;
      for (let b1 = 0; b1 < 10; b1++) {
        const w3 = w2 * c[b1];
        if (w3 === 0) continue;
        c[b1]--;
        for (let b2 = b1; b2 < 10; b2++) {
          const w4 = w3 * c[b2] * (b1 === b2 ? 1 : 2);
          if (w4 === 0) continue;
          c[b2]--;
          leaf.add(tally, p1 * TALLY, w4, pt, (b1 + b2) % 10, n4, f5);
          c[b2]++;
        }
        c[b1]++;
      }
      c[p2]++;
    }
    c[p1]++;
  }
  return totals.map((total, v) => (total === 0n ? null : countsOf(tally, v * TALLY, n, total)));
}

/**
 * exactOdds and oddsByFirstCard of one composition in one enumeration, for surveillance's odds of
 * every coup: the four first cards are enumerated with Player's two as an unordered pair, and each
 * leaf is credited to the slice of either of Player's cards as the first (the ordered pairs (p1, p2)
 * and (p2, p1) weigh the same), so the work is exactOdds' alone; the whole is the slices' sum, with
 * the pairs counted as exactOdds counts them. Equal to both, count for count
 * (test/domain/game/odds.spec.ts). Its loops repeat exactOdds' on purpose: one enumeration shared by the
 * two through a callback made exactOdds, the API's odds, 1.09× slower (measured side by side).
 */
export function oddsWithFirstCard(composition: Composition): { whole: OddsCounts; byFirst: (Omit<OddsCounts, PairEvent> | null)[] } {
  const { tally, n, totals } = tallyWithFirstCard(composition);
  return {
    whole: { ...countsOf(tally, 10 * TALLY, n, fallingProduct(n, 6)), ...pairCounts(composition, n) },
    byFirst: totals.map((total, v) => (total === 0n ? null : countsOf(tally, v * TALLY, n, total))),
  };
}

/** oddsWithFirstCard's enumeration: the slices' tallies (v × TALLY) and the whole's (10 × TALLY), in doubles (every count below 2⁵³). */
function tallyWithFirstCard(composition: Composition): { tally: Float64Array; n: number; totals: bigint[] } {
  const { c, n } = pointCounts(composition);
  const tally = new Float64Array(TALLY * 11);
  const scratch = new Float64Array(TALLY);
  const n4 = n - 4;
  const f5 = n - 5;
  const leaf = new Leaf(c, n);
  const totals = c.map((k) => BigInt(k) * fallingProduct(n - 1, 5));
  for (let p1 = 0; p1 < 10; p1++) {
    const w1 = c[p1];
    if (w1 === 0) continue;
    c[p1]--;
    for (let p2 = p1; p2 < 10; p2++) {
      const w2 = w1 * c[p2];
      if (w2 === 0) continue;
      c[p2]--;
      const pt = (p1 + p2) % 10;
      scratch.fill(0);
      for (let b1 = 0; b1 < 10; b1++) {
        const w3 = w2 * c[b1];
        if (w3 === 0) continue;
        c[b1]--;
        for (let b2 = b1; b2 < 10; b2++) {
          const w4 = w3 * c[b2] * (b1 === b2 ? 1 : 2);
          if (w4 === 0) continue;
          c[b2]--;
          leaf.add(scratch, 0, w4, pt, (b1 + b2) % 10, n4, f5);
          c[b2]++;
        }
        c[b1]++;
      }
      for (let k = 0; k < TALLY; k++) {
        tally[p1 * TALLY + k] += scratch[k];
        if (p2 !== p1) tally[p2 * TALLY + k] += scratch[k];
        tally[10 * TALLY + k] += p2 === p1 ? scratch[k] : 2 * scratch[k];
      }
      c[p2]++;
    }
    c[p1]++;
  }
  return { tally, n, totals };
}

type PairEvent = 'playerPair' | 'bankerPair' | 'eitherPair' | 'perfectPairEither' | 'perfectPairBoth';

/** The slots of a tally: the events counted for each leaf of the enumeration. */
const BANKER = 0,
  PLAYER = 1,
  TIE = 2,
  NATURAL = 3,
  FOUR = 4,
  FIVE = 5,
  SIX = 6,
  B6_TWO = 7,
  B6_THREE = 8,
  D7 = 9,
  P8 = 10,
  TALLY = 11;

/** Counts by point value (0 for tens and faces), after checking the composition. */
function pointCounts(composition: Composition): { c: number[]; n: number } {
  if (composition.length !== CARDS_PER_DECK) throw new DomainError('INVALID_SHOE', 'A composition lists 52 card counts');
  for (const k of composition) {
    if (!Number.isInteger(k) || k < 0 || k > MAX_DECKS) {
      throw new DomainError('INVALID_SHOE', `A shoe holds 0 to ${MAX_DECKS} of each card`);
    }
  }
  const n = cardsIn(composition);
  if (n < 6) {
    throw new DomainError('INVALID_SHOE', `Only ${n} card(s) left: a coup can need six, so no odds can be given`);
  }
  const c = new Array<number>(10).fill(0);
  for (const card of ALL_CARDS) c[pointOf(card)] += composition[card];
  return { c, n };
}

/**
 * One leaf of the enumeration: the first four cards dealt (weight w4, totals pt and bt, the counts
 * `c` already without them), the third cards counted without a loop over Banker's.
 */
class Leaf {
  // r[j]: the cards left that bring Banker's total to j; below[j] = r[0] + … + r[j − 1].
  private readonly r = new Array<number>(10).fill(0);
  private readonly below = new Array<number>(11).fill(0);

  constructor(
    private readonly c: number[],
    n: number,
  ) {
    this.f45 = (n - 4) * (n - 5);
  }

  private readonly f45: number;

  add(t: Float64Array, at: number, w4: number, pt: number, bt: number, n4: number, f5: number): void {
    const { c, r, below } = this;
    if (pt >= 8 || bt >= 8 || (pt >= 6 && bt >= 6)) {
      // Natural, or both stand on 6–7: four cards.
      const w = w4 * this.f45;
      t[at + FOUR] += w;
      if (pt >= 8 || bt >= 8) t[at + NATURAL] += w;
      if (bt > pt) {
        t[at + BANKER] += w;
        if (bt === 6) t[at + B6_TWO] += w;
      } else if (pt > bt) t[at + PLAYER] += w;
      else t[at + TIE] += w;
      return;
    }
    for (let j = 0; j < 10; j++) {
      r[j] = c[(j + 10 - bt) % 10];
      below[j + 1] = below[j] + r[j];
    }
    if (pt >= 6) {
      // Player stands on 6–7, Banker (0–5) draws: five cards.
      const w = w4 * f5;
      t[at + FIVE] += w * n4;
      t[at + BANKER] += w * (n4 - below[pt + 1]);
      t[at + TIE] += w * r[pt];
      t[at + PLAYER] += w * below[pt];
      if (pt < 7) t[at + D7] += w * r[7];
      return;
    }
    // Player draws.
    for (let p3 = 0; p3 < 10; p3++) {
      const w5 = w4 * c[p3];
      if (w5 === 0) continue;
      const pf = (pt + p3) % 10;
      if (BANKER_DRAWS[bt * 10 + p3] === 1) {
        // Six cards; Player's third card is no longer in its slot jp of r.
        const jp = (bt + p3) % 10;
        const under = below[pf] - (jp < pf ? 1 : 0);
        t[at + SIX] += w5 * (n4 - 1);
        t[at + BANKER] += w5 * (n4 - below[pf + 1] - (jp > pf ? 1 : 0));
        t[at + TIE] += w5 * (r[pf] - (jp === pf ? 1 : 0));
        t[at + PLAYER] += w5 * under;
        if (pf < 6) t[at + B6_THREE] += w5 * (r[6] - (jp === 6 ? 1 : 0));
        if (pf < 7) t[at + D7] += w5 * (r[7] - (jp === 7 ? 1 : 0));
        if (pf === 8) t[at + P8] += w5 * under;
      } else {
        const w = w5 * f5;
        t[at + FIVE] += w;
        if (bt > pf) {
          t[at + BANKER] += w;
          if (bt === 6) t[at + B6_TWO] += w;
        } else if (pf > bt) {
          t[at + PLAYER] += w;
          if (pf === 8) t[at + P8] += w;
        } else t[at + TIE] += w;
      }
    }
  }
}

function countsOf(t: Float64Array, at: number, n: number, total: bigint): Omit<OddsCounts, PairEvent> {
  return {
    cards: n,
    total,
    banker: BigInt(t[at + BANKER]),
    player: BigInt(t[at + PLAYER]),
    tie: BigInt(t[at + TIE]),
    natural: BigInt(t[at + NATURAL]),
    fourCards: BigInt(t[at + FOUR]),
    fiveCards: BigInt(t[at + FIVE]),
    sixCards: BigInt(t[at + SIX]),
    bankerWin6TwoCards: BigInt(t[at + B6_TWO]),
    bankerWin6ThreeCards: BigInt(t[at + B6_THREE]),
    bankerWin6: BigInt(t[at + B6_TWO] + t[at + B6_THREE]),
    dragon7: BigInt(t[at + D7]),
    panda8: BigInt(t[at + P8]),
  };
}

/** n(n−1)…(n−k+1) as bigint. */
export function fallingProduct(n: number, k: number): bigint {
  let r = 1n;
  for (let i = 0; i < k; i++) r *= BigInt(Math.max(n - i, 0));
  return r;
}

/**
 * Pair events depend only on each hand's first two cards (positions 1,3 for Player and 2,4 for
 * Banker); by symmetry of positions they are counted from the composition directly.
 */
function pairCounts(comp: Composition, n: number) {
  const byRank = new Array<number>(13).fill(0);
  for (const card of ALL_CARDS) byRank[rankOf(card)] += comp[card];
  const rest2 = fallingProduct(n - 2, 4);
  const rest4 = fallingProduct(n - 4, 2);
  const ordered2 = (k: number) => (k >= 2 ? k * (k - 1) : 0);

  // Same-rank pairs: one hand (`one` ordered ways to deal its two cards); both hands, where a
  // second pair of the same rank comes from what the first left. Both sums stay below n^4.
  const pairPlacements = (counts: readonly number[]) => {
    let one = 0;
    for (const k of counts) one += ordered2(k);
    let both = 0;
    for (const k of counts) {
      const pi = ordered2(k);
      if (pi !== 0) both += pi * (one - pi + ordered2(k - 2));
    }
    return { one: BigInt(one) * rest2, both: BigInt(both) * rest4 };
  };
  const rank = pairPlacements(byRank);
  const suited = pairPlacements(comp);
  return {
    playerPair: rank.one,
    bankerPair: rank.one,
    eitherPair: 2n * rank.one - rank.both,
    perfectPairEither: 2n * suited.one - suited.both,
    perfectPairBoth: suited.both,
  };
}

// ---------------------------------------------------------------------------------------------
// Bets: probability of each result and the house edge, as exact fractions.

/** An exact fraction. */
export interface Fraction {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

export interface BetTier {
  /** WIN, LOSE or PUSH; a bet with two winning pays (Super 6 Banker) has two WIN tiers. */
  readonly result: 'WIN' | 'LOSE' | 'PUSH';
  /** Profit per unit staked, "to 1" basis, after any commission (LOSE: −1; PUSH: 0). */
  readonly profit: Fraction;
  /** Pay as written on the layout (null for LOSE/PUSH). */
  readonly pays: Odds | null;
  readonly count: bigint;
  readonly label: string;
}

export interface BetOdds {
  readonly betType: BetType;
  readonly pays: Odds;
  readonly tiers: readonly BetTier[];
  /** Expected loss per unit staked: −E[profit]. Positive favours the house. */
  readonly houseEdge: Fraction;
}

const frac = (numerator: bigint, denominator: bigint = 1n): Fraction => ({ numerator, denominator });
const fromOdds = (o: Odds, keepBps = 10_000): Fraction => frac(BigInt(o.numerator) * BigInt(keepBps), BigInt(o.denominator) * 10_000n);

function tiersFor(rules: RuleSet, betType: BetType, k: OddsCounts): BetTier[] {
  const pays = rules.pays;
  const WIN = (count: bigint, pay: Odds, label: string, keepBps = 10_000): BetTier => ({
    result: 'WIN',
    profit: fromOdds(pay, keepBps),
    pays: pay,
    count,
    label,
  });
  const LOSE = (count: bigint): BetTier => ({ result: 'LOSE', profit: frac(-1n), pays: null, count, label: 'lose' });
  const PUSH = (count: bigint, label: string): BetTier => ({ result: 'PUSH', profit: frac(0n), pays: null, count, label });
  const winElseLose = (wins: bigint, pay: Odds, label: string) => [WIN(wins, pay, label), LOSE(k.total - wins)];

  switch (betType) {
    case 'PLAYER':
      return [WIN(k.player, pays.PLAYER, 'Player wins'), LOSE(k.banker), PUSH(k.tie, 'tie')];
    case 'BANKER': {
      const keep = 10_000 - rules.commissionBps;
      const tiers: BetTier[] = [];
      let plain = k.banker;
      if (rules.variant === 'SUPER_6') {
        tiers.push(WIN(k.bankerWin6, rules.bankerSixPays, 'Banker wins with 6', keep));
        plain -= k.bankerWin6;
      }
      if (rules.variant === 'EZ') {
        tiers.push(PUSH(k.dragon7, 'Banker wins with a three-card 7'));
        plain -= k.dragon7;
      }
      tiers.unshift(WIN(plain, pays.BANKER, 'Banker wins', keep));
      return [...tiers, LOSE(k.player), PUSH(k.tie, 'tie')];
    }
    case 'TIE':
      return winElseLose(k.tie, pays.TIE, 'tie');
    case 'PLAYER_PAIR':
      return winElseLose(k.playerPair, pays.PLAYER_PAIR, 'Player pair');
    case 'BANKER_PAIR':
      return winElseLose(k.bankerPair, pays.BANKER_PAIR, 'Banker pair');
    case 'EITHER_PAIR':
      return winElseLose(k.eitherPair, pays.EITHER_PAIR, 'either hand a pair');
    case 'PERFECT_PAIR':
      if (!rules.perfectPairBothPays) return winElseLose(k.perfectPairEither, pays.PERFECT_PAIR, 'a perfect pair');
      return [
        WIN(k.perfectPairEither - k.perfectPairBoth, pays.PERFECT_PAIR, 'one perfect pair'),
        WIN(k.perfectPairBoth, rules.perfectPairBothPays, 'two perfect pairs'),
        LOSE(k.total - k.perfectPairEither),
      ];
    case 'BIG':
      return winElseLose(k.fiveCards + k.sixCards, pays.BIG, '5 or 6 cards');
    case 'SMALL':
      return winElseLose(k.fourCards, pays.SMALL, '4 cards');
    case 'SUPER_6':
      return winElseLose(k.bankerWin6, pays.SUPER_6, 'Banker wins with 6');
    case 'DRAGON_7':
      return winElseLose(k.dragon7, pays.DRAGON_7, 'Banker wins with a three-card 7');
    case 'PANDA_8':
      return winElseLose(k.panda8, pays.PANDA_8, 'Player wins with a three-card 8');
  }
}

/** Every bet the table offers, with its result probabilities and exact house edge. */
export function betOdds(rules: RuleSet, counts: OddsCounts): BetOdds[] {
  if (!isCasinoBanked(rules.variant)) {
    throw new DomainError('ODDS_NOT_AVAILABLE', `${rules.variant} is banked by a player whose draws are partly free choices: its odds depend on how they play`);
  }
  return offeredBets(rules).map((betType) => {
    const tiers = tiersFor(rules, betType, counts);
    return { betType, pays: betType === 'TIE' ? rules.pays.TIE : rules.pays[betType], tiers, houseEdge: houseEdgeOf(tiers, counts.total) };
  });
}

/** A bet's chances as a surveillance statistic reads them (probabilities, so doubles). */
export interface BetChances {
  /** P(the bet is paid). */
  readonly paid: number;
  /** E[profit per unit staked] (the house edge is its negative). */
  readonly mean: number;
  /** Var[profit per unit staked]. */
  readonly variance: number;
}

/**
 * The chances of these bets under these rules, from exact counts (the whole shoe's, or one first
 * card's slice of them), as doubles: the exact fractions divided once.
 */
export function betChances(rules: RuleSet, counts: Omit<OddsCounts, 'cards'>, betTypes: readonly BetType[]): Partial<Record<BetType, BetChances>> {
  return betChancesOf(
    rules,
    COUNT_FIELDS.map((f) => Number(counts[f])),
    betTypes,
  );
}

/** The counts a bet's tiers are made of, in the order betChancesOf reads them. */
const COUNT_FIELDS = [
  'total',
  'banker',
  'player',
  'tie',
  'natural',
  'fourCards',
  'fiveCards',
  'sixCards',
  'bankerWin6TwoCards',
  'bankerWin6ThreeCards',
  'bankerWin6',
  'dragon7',
  'panda8',
  'playerPair',
  'bankerPair',
  'eitherPair',
  'perfectPairEither',
  'perfectPairBoth',
] as const satisfies readonly Exclude<keyof OddsCounts, 'cards'>[];

/** A tier as a linear form: its count is Σ coefficient × count over COUNT_FIELDS. */
interface TierForm {
  readonly paid: boolean;
  readonly profit: number;
  readonly coefficients: Float64Array;
}

const TIER_FORMS = new WeakMap<RuleSet, Map<BetType, TierForm[]>>();

/**
 * tiersFor, the one place each bet's pay is written, read once per rule set as linear forms: every
 * tier's count is a sum and difference of the counts, so it is found by giving tiersFor each count
 * alone. Surveillance then needs no bigint and no fraction per coup.
 */
function tierForms(rules: RuleSet, betType: BetType): TierForm[] {
  let byBet = TIER_FORMS.get(rules);
  if (!byBet) TIER_FORMS.set(rules, (byBet = new Map<BetType, TierForm[]>()));
  let forms = byBet.get(betType);
  if (!forms) {
    const unit = (field: number) => Object.fromEntries([['cards', 0], ...COUNT_FIELDS.map((f, i) => [f, i === field ? 1n : 0n])]) as unknown as OddsCounts;
    const byField = COUNT_FIELDS.map((_, i) => tiersFor(rules, betType, unit(i)));
    forms = byField[0].map((tier, t) => ({
      paid: tier.result === 'WIN',
      profit: Number(tier.profit.numerator) / Number(tier.profit.denominator),
      coefficients: Float64Array.from(byField, (tiers) => Number(tiers[t].count)),
    }));
    byBet.set(betType, forms);
  }
  return forms;
}

/** betChances from the counts as doubles, in COUNT_FIELDS order (exact: every count is an integer below 2⁵³). */
function betChancesOf(rules: RuleSet, fields: ArrayLike<number>, betTypes: readonly BetType[]): Partial<Record<BetType, BetChances>> {
  const total = fields[0];
  const out: Partial<Record<BetType, BetChances>> = {};
  for (const betType of betTypes) {
    let paid = 0;
    let mean = 0;
    let square = 0;
    for (const tier of tierForms(rules, betType)) {
      let count = 0;
      for (let f = 0; f < COUNT_FIELDS.length; f++) if (tier.coefficients[f] !== 0) count += tier.coefficients[f] * fields[f];
      const chance = count / total;
      if (tier.paid) paid += chance;
      mean += chance * tier.profit;
      square += chance * tier.profit * tier.profit;
    }
    out[betType] = { paid, mean, variance: square - mean * mean };
  }
  return out;
}

/** The odds surveillance reads for a coup: every offered bet's chances, the first card's chances and each main bet's mean given it. */
export interface ChancesWithFirstCard {
  readonly cards: number;
  readonly chances: Partial<Record<BetType, BetChances>>;
  /** P(the first card out has point value v), v = 0–9. */
  readonly firstCardChance: number[];
  /** E[profit per unit | the first card has point value v] for each given bet (NaN where none is left). */
  readonly meanGivenFirst: Partial<Record<BetType, number[]>>;
}

/**
 * oddsWithFirstCard's enumeration read straight into chances, in doubles: betChances of the whole
 * for the bets offered, and of each first card's slice for `givenFirst` (equal to betChances of
 * oddsWithFirstCard's counts, test/domain/game/odds.spec.ts).
 */
export function chancesWithFirstCard(rules: RuleSet, composition: Composition, givenFirst: readonly BetType[]): ChancesWithFirstCard {
  const { tally, n, totals } = tallyWithFirstCard(composition);
  const pairs = pairCounts(composition, n);
  const fields = new Float64Array(COUNT_FIELDS.length);
  const fill = (at: number, total: number) => {
    fields[0] = total;
    fields[1] = tally[at + BANKER];
    fields[2] = tally[at + PLAYER];
    fields[3] = tally[at + TIE];
    fields[4] = tally[at + NATURAL];
    fields[5] = tally[at + FOUR];
    fields[6] = tally[at + FIVE];
    fields[7] = tally[at + SIX];
    fields[8] = tally[at + B6_TWO];
    fields[9] = tally[at + B6_THREE];
    fields[10] = tally[at + B6_TWO] + tally[at + B6_THREE];
    fields[11] = tally[at + D7];
    fields[12] = tally[at + P8];
  };
  fill(10 * TALLY, Number(fallingProduct(n, 6)));
  const total = fields[0];
  fields[13] = Number(pairs.playerPair);
  fields[14] = Number(pairs.bankerPair);
  fields[15] = Number(pairs.eitherPair);
  fields[16] = Number(pairs.perfectPairEither);
  fields[17] = Number(pairs.perfectPairBoth);
  const chances = betChancesOf(rules, fields, offeredBets(rules));
  fields.fill(0, 13);
  const firstCardChance: number[] = [];
  const meanGivenFirst: Partial<Record<BetType, number[]>> = {};
  for (const bet of givenFirst) meanGivenFirst[bet] = [];
  totals.forEach((t, v) => {
    const sliceTotal = Number(t);
    firstCardChance.push(sliceTotal / total);
    if (sliceTotal === 0) {
      for (const bet of givenFirst) meanGivenFirst[bet]!.push(NaN);
      return;
    }
    fill(v * TALLY, sliceTotal);
    const given = betChancesOf(rules, fields, givenFirst);
    for (const bet of givenFirst) meanGivenFirst[bet]!.push(given[bet]!.mean);
  });
  return { cards: n, chances, firstCardChance, meanGivenFirst };
}

/** −Σ count × profit / total, as a reduced fraction. */
export function houseEdgeOf(tiers: readonly BetTier[], total: bigint): Fraction {
  let num = 0n;
  let den = 1n;
  for (const t of tiers) {
    // num/den + count × p.n / p.d
    num = num * t.profit.denominator + den * t.count * t.profit.numerator;
    den = den * t.profit.denominator;
  }
  return reduceFraction(frac(-num, den * total));
}

/** A fraction in lowest terms. */
export function reduceFraction(f: Fraction): Fraction {
  const g = bigGcd(f.numerator < 0n ? -f.numerator : f.numerator, f.denominator);
  return g > 1n ? frac(f.numerator / g, f.denominator / g) : f;
}

function bigGcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** A fraction as a decimal string with `digits` places, rounded half away from zero. */
export function fractionToDecimal(f: Fraction, digits: number): string {
  const neg = f.numerator < 0n !== f.denominator < 0n && f.numerator !== 0n;
  const n = f.numerator < 0n ? -f.numerator : f.numerator;
  const d = f.denominator < 0n ? -f.denominator : f.denominator;
  const scale = 10n ** BigInt(digits);
  const q = (2n * n * scale + d) / (2n * d);
  const s = q.toString().padStart(digits + 1, '0');
  const body = digits > 0 ? `${s.slice(0, -digits)}.${s.slice(-digits)}` : s;
  return (neg && q !== 0n ? '-' : '') + body;
}

// ---------------------------------------------------------------------------------------------
// Theoretical win: Σ stake × house edge, accumulated in integers.

/** House edges are carried as integers of 10^-12 so that Σ stake × edge stays exact integer arithmetic. */
export const EDGE_SCALE = 10n ** 12n;

/**
 * Each offered bet's exact house edge for a full shoe under these rules, quantised to 10^-12
 * (half away from zero). Over 10^11 minor units of handle the quantisation moves a theoretical
 * win by less than 0.1 of a minor unit.
 */
export function quantisedEdges(rules: RuleSet): Partial<Record<BetType, bigint>> {
  const counts = exactOdds(fullShoe(rules.decks));
  const edges: Partial<Record<BetType, bigint>> = {};
  for (const b of betOdds(rules, counts)) edges[b.betType] = BigInt(fractionToDecimal(b.houseEdge, 12).replace('.', ''));
  return edges;
}

/** Probabilities of Banker, Player, Tie and a natural for a full shoe of `decks` decks. */
export function outcomeProbabilities(decks: number): { banker: Fraction; player: Fraction; tie: Fraction; natural: Fraction } {
  const k = exactOdds(fullShoe(decks));
  const of = (n: bigint): Fraction => ({ numerator: n, denominator: k.total });
  return { banker: of(k.banker), player: of(k.player), tie: of(k.tie), natural: of(k.natural) };
}
