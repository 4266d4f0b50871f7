import { ALL_CARDS, Card, CARDS_PER_DECK, formatCard, MAX_DECKS, MIN_DECKS, parseCard, pointOf, rankOf } from './cards';
import { DomainError } from './errors';
import { Odds } from './money';
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
 * Outcomes are enumerated by point value (10 values, not 52 cards): the first four cards, then
 * only the third cards the tableau calls for. A leaf that uses k cards stands for all the ways to
 * fill the remaining 6 − k positions, so it is weighted by (n−k)…(n−5). Every weight and every
 * sum is at most n(n−1)…(n−5), which for n ≤ 416 (8 decks) is below 2^53, so plain doubles are
 * exact here; the results are handed out as bigint.
 */
export function exactOdds(composition: Composition): OddsCounts {
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
  const v = new Array<number>(10).fill(0);
  for (const card of ALL_CARDS) v[pointOf(card)] += composition[card];

  const f5 = n - 5;
  const f45 = (n - 4) * f5;
  let banker = 0,
    player = 0,
    tie = 0,
    natural = 0,
    four = 0,
    five = 0,
    six = 0;
  let b6two = 0,
    b6three = 0,
    d7 = 0,
    p8 = 0;

  const c = v;
  for (let p1 = 0; p1 < 10; p1++) {
    const w1 = c[p1];
    if (w1 === 0) continue;
    c[p1]--;
    for (let b1 = 0; b1 < 10; b1++) {
      const w2 = w1 * c[b1];
      if (w2 === 0) continue;
      c[b1]--;
      for (let p2 = 0; p2 < 10; p2++) {
        const w3 = w2 * c[p2];
        if (w3 === 0) continue;
        c[p2]--;
        const pt = (p1 + p2) % 10;
        for (let b2 = 0; b2 < 10; b2++) {
          const w4 = w3 * c[b2];
          if (w4 === 0) continue;
          c[b2]--;
          const bt = (b1 + b2) % 10;
          if (pt >= 8 || bt >= 8 || (pt >= 6 && bt >= 6)) {
            // Natural, or both stand on 6–7: four cards.
            const w = w4 * f45;
            four += w;
            if (pt >= 8 || bt >= 8) natural += w;
            if (bt > pt) {
              banker += w;
              if (bt === 6) b6two += w;
            } else if (pt > bt) player += w;
            else tie += w;
          } else if (pt >= 6) {
            // Player stands on 6–7, Banker (0–5) draws.
            for (let b3 = 0; b3 < 10; b3++) {
              const k = c[b3];
              if (k === 0) continue;
              const w = w4 * k * f5;
              five += w;
              const bf = (bt + b3) % 10;
              if (bf > pt) {
                banker += w;
                if (bf === 6) b6three += w;
                else if (bf === 7) d7 += w;
              } else if (pt > bf) player += w;
              else tie += w;
            }
          } else {
            // Player draws.
            for (let p3 = 0; p3 < 10; p3++) {
              const w5 = w4 * c[p3];
              if (w5 === 0) continue;
              const pf = (pt + p3) % 10;
              if (BANKER_DRAWS[bt * 10 + p3] === 1) {
                c[p3]--;
                for (let b3 = 0; b3 < 10; b3++) {
                  const w = w5 * c[b3];
                  if (w === 0) continue;
                  six += w;
                  const bf = (bt + b3) % 10;
                  if (bf > pf) {
                    banker += w;
                    if (bf === 6) b6three += w;
                    else if (bf === 7) d7 += w;
                  } else if (pf > bf) {
                    player += w;
                    if (pf === 8) p8 += w;
                  } else tie += w;
                }
                c[p3]++;
              } else {
                const w = w5 * f5;
                five += w;
                if (bt > pf) {
                  banker += w;
                  if (bt === 6) b6two += w;
                } else if (pf > bt) {
                  player += w;
                  if (pf === 8) p8 += w;
                } else tie += w;
              }
            }
          }
          c[b2]++;
        }
        c[p2]++;
      }
      c[b1]++;
    }
    c[p1]++;
  }

  const pairs = pairCounts(composition, n);
  return {
    cards: n,
    total: fallingProduct(n, 6),
    banker: BigInt(banker),
    player: BigInt(player),
    tie: BigInt(tie),
    natural: BigInt(natural),
    fourCards: BigInt(four),
    fiveCards: BigInt(five),
    sixCards: BigInt(six),
    bankerWin6TwoCards: BigInt(b6two),
    bankerWin6ThreeCards: BigInt(b6three),
    bankerWin6: BigInt(b6two + b6three),
    dragon7: BigInt(d7),
    panda8: BigInt(p8),
    ...pairs,
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
  const byRank = new Array<bigint>(13).fill(0n);
  for (const card of ALL_CARDS) byRank[rankOf(card)] += BigInt(comp[card]);
  const rest2 = fallingProduct(n - 2, 4);
  const rest4 = fallingProduct(n - 4, 2);
  const ordered2 = (k: bigint) => (k >= 2n ? k * (k - 1n) : 0n);

  // Same-rank pairs: one hand; both hands (same rank for both uses 4 of that rank).
  const pairPlacements = (counts: readonly bigint[]) => {
    let one = 0n;
    let both = 0n;
    for (let i = 0; i < counts.length; i++) {
      const pi = ordered2(counts[i]);
      if (pi === 0n) continue;
      one += pi;
      for (let j = 0; j < counts.length; j++) both += pi * (i === j ? ordered2(counts[j] - 2n) : ordered2(counts[j]));
    }
    return { one: one * rest2, both: both * rest4 };
  };
  const rank = pairPlacements(byRank);
  const suited = pairPlacements(comp.map((k) => BigInt(k)));
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
