import { Card, CARDS_PER_DECK, formatCard } from '../game/cards';
import { BetChances, betChances, chancesWithFirstCard, Composition, exactOdds, fullShoe, removeCards } from '../game/odds';
import { BET_TYPES, BetType, MAIN_BETS, MainBet, offeredBets, RuleSet } from '../game/rules';
import { seededRandom } from '../game/simulation';
import { chanceOfAnyMatch, exchangeableEValue, FRACTION_WEIGHTS, logBettingGrowth, RepeatedRun, seedOf, shiryaevRoberts } from './surveillance';

/**
 * The integrity detectors (docs/domain.md §9): records of play in, findings out. Pure: the service
 * and `npm run sim:surveillance` run the same code on the same records.
 *
 * Every record detector is an e-detector: each shoe of a record gives an e-value (evidence whose
 * expectation is at most 1 if nobody knows more than the cards left), and the Shiryaev–Roberts
 * statistic gathers them over the record. An alarm at a level A bounds the false alarms of each
 * detector to one per A honest shoes on average, at every look and over records of any length.
 */

/** What surveillance knows of a coup before its cards came out: the exact chances on the shoe as it stood. */
export interface CoupOdds {
  /** How deep the shoe had been dealt: 0 (first quarter of its cards) to 3 (last quarter). */
  readonly depth: number;
  /** Every offered bet's chances. */
  readonly chances: Partial<Record<BetType, BetChances>>;
  /** P(the first card out has point value v), v = 0–9. */
  readonly firstCardChance: readonly number[];
  /** E[profit per unit | the first card has point value v] for each main bet (NaN where none is left). */
  readonly meanGivenFirst: Readonly<Record<MainBet, readonly number[]>>;
}

/** The odds a coup was played at: from the shoe's composition before it, under the table's rules. */
export function coupOdds(rules: RuleSet, composition: Composition): CoupOdds {
  const odds = chancesWithFirstCard(rules, composition, MAIN_BETS);
  const size = rules.decks * CARDS_PER_DECK;
  const depth = Math.min(3, Math.floor((4 * (size - odds.cards)) / size));
  return { depth, chances: odds.chances, firstCardChance: odds.firstCardChance, meanGivenFirst: odds.meanGivenFirst as CoupOdds['meanGivenFirst'] };
}

/**
 * A coup's odds as one row of doubles, for storage (77 numbers, 616 bytes, against about 1.5 kB as
 * JSON): the depth, the first card's chances, the means given the first card (Player, Banker, Tie),
 * then each bet type in BET_TYPES order as paid, mean, variance (NaN for a bet the table does not
 * offer). NaN (a first card none of which is left) is kept as NaN.
 */
export function packOdds(odds: CoupOdds): number[] {
  const out = [odds.depth, ...odds.firstCardChance, ...MAIN_BETS.flatMap((b) => odds.meanGivenFirst[b])];
  for (const b of BET_TYPES) {
    const c = odds.chances[b];
    out.push(c ? c.paid : NaN, c ? c.mean : NaN, c ? c.variance : NaN);
  }
  return out;
}

export function unpackOdds(packed: readonly number[]): CoupOdds {
  if (packed.length !== PACKED_ODDS_LENGTH) throw new Error(`packed odds hold ${PACKED_ODDS_LENGTH} numbers, not ${packed.length}`);
  const chances: Partial<Record<BetType, BetChances>> = {};
  BET_TYPES.forEach((b, i) => {
    const [paid, mean, variance] = packed.slice(41 + 3 * i, 44 + 3 * i);
    if (!Number.isNaN(paid)) chances[b] = { paid, mean, variance };
  });
  const given = (i: number) => packed.slice(11 + 10 * i, 21 + 10 * i);
  return { depth: packed[0], chances, firstCardChance: packed.slice(1, 11), meanGivenFirst: { PLAYER: given(0), BANKER: given(1), TIE: given(2) } };
}

export const PACKED_ODDS_LENGTH = 41 + 3 * BET_TYPES.length;

// ---------------------------------------------------------------------------------------------
// Records.

/** One wager as settled. */
export interface PlayedWager {
  readonly betType: BetType;
  /** Stake in minor units. */
  readonly stake: bigint;
  /** Whether the wager was paid (a push is not). */
  readonly paid: boolean;
  /** The customer's result in minor units. */
  readonly net: bigint;
}

/** Where a coup was, for the person reading the evidence. */
export interface CoupLabel {
  readonly table: string;
  readonly shoe: number;
  readonly coup: number;
  /** The cards as dealt, e.g. "P 9S 2H · B KD 5C 3S". */
  readonly cards: string;
  readonly currency: string;
  /** The currency's minor digits (2 for MOP, HKD, SGD, USD; 0 for JPY). */
  readonly digits: number;
}

/** A coup as one patron (or seat) played it. */
export interface PlayedCoup {
  readonly coupId: string;
  readonly shoeId: string;
  readonly dealerId: string | null;
  readonly odds: CoupOdds;
  /** The point value of the coup's first card (Player's first). */
  readonly firstValue: number;
  /** Cards out of the shoe before this coup, the burn included: where the shoe stood. */
  readonly position: number;
  /** When it was settled (ms since 1970): a detector started again after a closed alert reads what came after. */
  readonly at: number;
  readonly wagers: readonly PlayedWager[];
  /** The table's rounding unit for pays, in minor units (1 when not given). */
  readonly roundingUnit?: number;
  readonly label?: CoupLabel;
}

/** A shoe as dealt: its cards in dealing order (the burn first) and the rules of its table. */
export interface DealtShoe {
  readonly id: string;
  readonly cards: readonly Card[];
  /** Where each of its coups began (cards out before it, the burn included), in order. */
  readonly coupStarts: readonly number[];
  readonly rules: RuleSet;
  /**
   * Closed: no coup will be added. The per-shoe detectors (count, dealers) test a shoe once, when it
   * is complete: an e-value of a shoe still being dealt, looked at again at each later look, would be
   * several looks at one shoe, and the largest of them is no e-value.
   */
  readonly complete: boolean;
}

export type FindingKind = 'COUNT_BETTING' | 'WINS_BEYOND_ODDS' | 'MONEY_BEYOND_ODDS' | 'FIRST_CARD_KNOWLEDGE' | 'DEALER_PAIRING' | 'REPEATED_RUN';
export type RecordKind = Exclude<FindingKind, 'REPEATED_RUN'>;
export type Severity = 'MEDIUM' | 'HIGH';

/**
 * The alarm level of the e-detectors. An honest record reaches a detector's level, on average, at
 * most once in that many of its shoes (the Shiryaev–Roberts bound). A patron-shoe is examined by
 * the count, wins and money detectors at 1 in 100,000 each, the first-card detector (what edge
 * sorting, marked cards and a peeking dealer leave) at 1 in 25,000, and one detector for each dealer
 * who dealt them beside another at 1 in 100,000 (three as dealers rotate): at most 1 false alarm in
 * 10,000 honest patron-shoes, the goal, with no approximation to leave room for.
 */
export const ALARM = 1e5;
/** Each record detector's alarm level (ALARM but for the first card's, which gets a larger share of the false-alarm budget). */
export const ALARM_LEVELS: Readonly<Record<RecordKind, number>> = {
  COUNT_BETTING: ALARM,
  WINS_BEYOND_ODDS: ALARM,
  MONEY_BEYOND_ODDS: ALARM,
  FIRST_CARD_KNOWLEDGE: 2.5e4,
  DEALER_PAIRING: ALARM,
};
/** A repeated run is an alert when the chance of a match that long, anywhere it was looked for, is below this. */
export const REPEATED_RUN_P_VALUE = 1e-6;
/** An alert is HIGH when its statistic is a thousand times past its alarm level. */
export const HIGH_SEVERITY_FACTOR = 1e3;
/** Shoes shuffled afresh for each shoe of a record the count-betting detector examines. */
export const REFERENCE_SHOES = 1000;
/** Random reassignments of a shoe's coups among its dealers for the dealer detector. */
export const DEALER_PERMUTATIONS = 999;

export interface Finding {
  readonly kind: FindingKind;
  /** The e-detector's statistic (1 for a repeated run, which has a p-value instead). */
  readonly eValue: number;
  /**
   * For an e-detector, 1 ÷ the statistic: an honest record reaches a statistic this large at most
   * this often per shoe. For a repeated run, the chance of a match this long by luck.
   */
  readonly pValue: number;
  readonly threshold: number;
  readonly alert: boolean;
  readonly severity: Severity | null;
  /** What a surveillance officer reads: a one-line reason, the money, the coups that tell. */
  readonly evidence: Record<string, unknown>;
}

function eFinding(kind: RecordKind, statistic: number, evidence: Record<string, unknown>): Finding {
  const level = ALARM_LEVELS[kind];
  const alert = statistic >= level;
  return {
    kind,
    eValue: statistic,
    pValue: Math.min(1, 1 / statistic),
    threshold: 1 / level,
    alert,
    severity: alert ? (statistic >= level * HIGH_SEVERITY_FACTOR ? 'HIGH' : 'MEDIUM') : null,
    evidence: { ...evidence, eValue: statistic, alarmAt: level },
  };
}

const isMain = (b: BetType): b is MainBet => (MAIN_BETS as readonly string[]).includes(b);

/**
 * The record's steps for the per-coup detectors: its coups in order, cut after each coup that is the
 * last the record holds of its shoe. Each step is a stretch of time (so each factor is an e-value
 * given everything before it), and there are never more steps than shoes, however a patron moves
 * between tables.
 */
function timeSteps(record: readonly PlayedCoup[]): PlayedCoup[][] {
  const last = new Map<string, number>();
  record.forEach((c, i) => last.set(c.shoeId, i));
  const steps: PlayedCoup[][] = [];
  let step: PlayedCoup[] = [];
  record.forEach((c, i) => {
    step.push(c);
    if (last.get(c.shoeId) === i) {
      steps.push(step);
      step = [];
    }
  });
  return steps;
}

/**
 * The record's shoes for the per-shoe detectors (count, dealer): all its coups of each shoe, the
 * shoes in the order of their last coup. One e-value a shoe, so that no shoe is tested twice
 * against the same references.
 */
function shoeSteps(record: readonly PlayedCoup[]): PlayedCoup[][] {
  const byShoe = new Map<string, PlayedCoup[]>();
  for (const c of record) {
    const mine = byShoe.get(c.shoeId);
    if (mine) {
      mine.push(c);
      byShoe.delete(c.shoeId); // re-inserted: the map's order is that of each shoe's last coup
      byShoe.set(c.shoeId, mine);
    } else byShoe.set(c.shoeId, [c]);
  }
  return [...byShoe.values()];
}

interface Decision {
  readonly coup: PlayedCoup;
  readonly wager: PlayedWager & { betType: MainBet };
  readonly chances: BetChances;
}

/** Each coup's main decision: the main-bet wager with the largest stake (one per coup, so the trials are the coups). */
function decisionOf(coup: PlayedCoup): Decision | null {
  let top: (PlayedWager & { betType: MainBet }) | null = null;
  for (const w of coup.wagers) if (isMain(w.betType) && w.stake > 0n && (top === null || w.stake > top.stake)) top = w as PlayedWager & { betType: MainBet };
  const chances = top && coup.odds.chances[top.betType];
  return top && chances ? { coup, wager: top, chances } : null;
}

/**
 * The per-coup detectors' bet on one decision: z has mean 0 under the null and is at least −1; w is
 * the stake against the largest seen so far in the record (known before the cards come out).
 */
type CoupBet = (d: Decision) => number | null;

/** Wins: 1 + λz is the likelihood ratio of "paid (1 + λ) times as often as the cards allow". */
const winsBet: CoupBet = (d) => (d.chances.paid > 0 ? ((d.wager.paid ? 1 : 0) - d.chances.paid) / d.chances.paid : null);

/**
 * Money: the result per unit staked against its exact mean, scaled so that losing the stake is −1.
 * A table's rounding of a pay can add up to one rounding unit to a win: the mean is taken that much
 * higher, so that rounding in the player's favour is never evidence.
 */
const moneyBet: CoupBet = (d) => {
  const slack = Math.max(1, d.coup.roundingUnit ?? 1) / Number(d.wager.stake);
  return (Number(d.wager.net) / Number(d.wager.stake) - d.chances.mean - slack) / (1 + d.chances.mean + slack);
};

/** The first card's worth to the bet chosen, against its mean over every first card the shoe could show. */
function firstCardWorth(d: Decision): { worth: number; scale: number; sd: number } | null {
  const given = d.coup.odds.meanGivenFirst[d.wager.betType];
  const chance = d.coup.odds.firstCardChance;
  let mean = 0;
  for (let v = 0; v < 10; v++) if (chance[v] > 0) mean += chance[v] * given[v];
  let scale = 0;
  let variance = 0;
  for (let v = 0; v < 10; v++) {
    if (chance[v] > 0) {
      scale = Math.max(scale, mean - given[v]);
      variance += chance[v] * (given[v] - mean) ** 2;
    }
  }
  const seen = given[d.coup.firstValue];
  if (!(scale > 0) || !(chance[d.coup.firstValue] > 0) || Number.isNaN(seen)) return null;
  return { worth: seen - mean, scale, sd: Math.sqrt(variance) };
}
const firstCardBet: CoupBet = (d) => {
  const f = firstCardWorth(d);
  return f ? f.worth / f.scale : null;
};

/**
 * The Shiryaev–Roberts statistic of a per-coup bet over the record, a shoe a step, mixed over the
 * betting fractions (weighted by FRACTION_WEIGHTS) and two ways of weighting the coups: each alike, and by the stake against the
 * largest the record has seen so far (a cheat often stakes more when they know more; the choice of
 * side tells as much at any stake).
 */
function perCoupStatistic(record: readonly PlayedCoup[], bet: CoupBet): number {
  let largest = 0n;
  const steps: number[][] = [];
  for (const step of timeSteps(record)) {
    const alike: { z: number; w: number }[] = [];
    const byStake: { z: number; w: number }[] = [];
    for (const coup of step) {
      const d = decisionOf(coup);
      if (!d) continue;
      if (d.wager.stake > largest) largest = d.wager.stake;
      const z = bet(d);
      if (z === null || !Number.isFinite(z)) continue;
      alike.push({ z: Math.max(-1, z), w: 1 });
      byStake.push({ z: Math.max(-1, z), w: Number(d.wager.stake) / Number(largest) });
    }
    if (alike.length > 0) steps.push([...logBettingGrowth(alike), ...logBettingGrowth(byStake)]);
  }
  return shiryaevRoberts(steps, [...FRACTION_WEIGHTS, ...FRACTION_WEIGHTS]);
}

// ---------------------------------------------------------------------------------------------
// Evidence a person reads.

const FORMATS = new Map<number, Intl.NumberFormat>();
const money = (minor: number, label: CoupLabel | undefined): string => {
  const digits = label?.digits ?? 2;
  let format = FORMATS.get(digits);
  if (!format) FORMATS.set(digits, (format = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })));
  return `${minor < 0 ? '−' : ''}${format.format(Math.abs(minor) / 10 ** digits)}${label ? ` ${label.currency}` : ''}`;
};
const percent = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(2)} %`;

/** One coup as the evidence lists it: where, the cards, the bet, its exact edge for the player, the result. */
function coupLine(coup: PlayedCoup, wager: PlayedWager, extra: Record<string, unknown> = {}) {
  const c = coup.odds.chances[wager.betType];
  return {
    table: coup.label?.table ?? null,
    shoe: coup.label?.shoe ?? null,
    coup: coup.label?.coup ?? null,
    cards: coup.label?.cards ?? null,
    dealerId: coup.dealerId,
    bet: wager.betType,
    stake: { minor: Number(wager.stake), currency: coup.label?.currency ?? null },
    playerEdge: c ? percent(c.mean) : null,
    net: { minor: Number(wager.net), currency: coup.label?.currency ?? null },
    ...extra,
  };
}

/** Sums of minor units by currency (a record may span tables in several currencies). */
function byCurrency(items: { coup: PlayedCoup; minor: number }[]): { currency: string | null; minor: number }[] {
  const sums = new Map<string | null, number>();
  for (const { coup, minor } of items) sums.set(coup.label?.currency ?? null, (sums.get(coup.label?.currency ?? null) ?? 0) + minor);
  return [...sums].map(([currency, minor]) => ({ currency, minor: Math.round(minor) }));
}
const moneyText = (sums: { currency: string | null; minor: number }[], digits = 2) =>
  sums.map((s) => money(s.minor, s.currency ? ({ currency: s.currency, digits } as CoupLabel) : undefined)).join(' and ') || '0';

const TELLING_COUPS = 8;

// ---------------------------------------------------------------------------------------------
// The record detectors.

/** 2a. More main-bet decisions won than the exact chances allow. */
export function winsBeyondOdds(record: readonly PlayedCoup[]): Finding {
  const d = record.map(decisionOf).filter((x): x is Decision => x !== null);
  const wins = d.filter((x) => x.wager.paid).length;
  const expected = d.reduce((s, x) => s + x.chances.paid, 0);
  return eFinding('WINS_BEYOND_ODDS', perCoupStatistic(record, winsBet), {
    reason: `Won ${wins} of ${d.length} decisions where the cards left in the shoe gave ${expected.toFixed(1)} on average`,
    decisions: d.length,
    wins,
    expectedWins: expected,
  });
}

/** 2b. More money won on the main decisions than the exact odds allow. */
export function moneyBeyondOdds(record: readonly PlayedCoup[]): Finding {
  const d = record.map(decisionOf).filter((x): x is Decision => x !== null);
  const actual = byCurrency(d.map((x) => ({ coup: x.coup, minor: Number(x.wager.net) })));
  const expected = byCurrency(d.map((x) => ({ coup: x.coup, minor: Number(x.wager.stake) * x.chances.mean })));
  const digits = d[0]?.coup.label?.digits ?? 2;
  const telling = [...d].sort((a, b) => Number(b.wager.net) - Number(a.wager.net)).slice(0, TELLING_COUPS);
  return eFinding('MONEY_BEYOND_ODDS', perCoupStatistic(record, moneyBet), {
    reason: `Won ${moneyText(actual, digits)} on ${d.length} main-bet decisions where the exact odds expected ${moneyText(expected, digits)}`,
    decisions: d.length,
    actual,
    expected,
    coups: telling.map((x) => coupLine(x.coup, x.wager)),
  });
}

/**
 * 2c. Choosing the side the first card favours: at each decision, E[profit of the bet chosen | the
 * first card dealt] − E[profit of the bet chosen]. Someone who cannot see the first card chooses
 * before it comes out, so each term has mean exactly 0 whatever they choose.
 */
export function firstCardKnowledge(record: readonly PlayedCoup[]): Finding {
  const d = record.map(decisionOf).filter((x): x is Decision => x !== null);
  const worth = d.map((x) => ({ x, f: firstCardWorth(x) })).filter((y) => y.f !== null);
  const gained = byCurrency(worth.map(({ x, f }) => ({ coup: x.coup, minor: Number(x.wager.stake) * f!.worth })));
  const digits = d[0]?.coup.label?.digits ?? 2;
  const telling = [...worth].sort((a, b) => Number(b.x.wager.stake) * b.f!.worth - Number(a.x.wager.stake) * a.f!.worth).slice(0, TELLING_COUPS);
  return eFinding('FIRST_CARD_KNOWLEDGE', perCoupStatistic(record, firstCardBet), {
    reason: `Chose the side the first card favoured: knowing it was worth ${moneyText(gained, digits)} over ${worth.length} decisions, where a player who cannot see it averages 0`,
    decisions: d.length,
    worthOfTheFirstCard: gained,
    coups: telling.map(({ x, f }) => coupLine(x.coup, x.wager, { firstCard: x.coup.firstValue, worthOfTheFirstCard: percent(f!.worth) })),
  });
}

// ---------------------------------------------------------------------------------------------
// 1. Betting with the count, against shoes shuffled afresh.

/** The bets a count can move: Tie and every side bet the table offers. */
function countedBets(rules: RuleSet): BetType[] {
  return offeredBets(rules).filter((b) => b !== 'PLAYER' && b !== 'BANKER');
}

const EFFECTS = new WeakMap<RuleSet, Map<BetType, Float64Array>>();
/**
 * Each card's effect of removal on each counted bet: how much taking one of it out of a full shoe
 * moves the bet's exact mean (from 53 exact computations, once per rule set). A running count of
 * these is what a card counter keeps in their head.
 */
export function effectsOfRemoval(rules: RuleSet): Map<BetType, Float64Array> {
  let effects = EFFECTS.get(rules);
  if (!effects) {
    const bets = countedBets(rules);
    const full = fullShoe(rules.decks);
    const base = betChances(rules, exactOdds(full), bets);
    effects = new Map(bets.map((b) => [b, new Float64Array(CARDS_PER_DECK)]));
    for (let card = 0; card < CARDS_PER_DECK; card++) {
      const less = betChances(rules, exactOdds(removeCards(full, [card])), bets);
      for (const b of bets) effects.get(b)![card] = less[b]!.mean - base[b]!.mean;
    }
    EFFECTS.set(rules, effects);
  }
  return effects;
}

/**
 * A shoe's reference shuffles: REFERENCE_SHOES shoes of the same decks shuffled afresh (seeded by the
 * shoe's id, so the same every time it is examined), and in each, the running count of every
 * counted bet at every place one of the real shoe's coups began. Drawn once for a shoe; every patron
 * who played it is set against them. Nothing about any patron goes into them.
 */
interface ReferenceCounts {
  readonly bets: readonly BetType[];
  /** Each place (where a coup began) and its index, in the order of the shoe. */
  readonly places: ReadonlyMap<number, number>;
  /** One per reference, then the real shoe's (filled in by realCounts): for each bet, the shoe's places from the highest count to the lowest. */
  readonly orders: Uint16Array[][];
  /** The same, whether each place in that order is the last of its count (a cut can fall only between two counts). */
  readonly lastOfCount: Uint8Array[][];
}

function runningCounts(cards: ArrayLike<Card>, size: number, effects: readonly Float64Array[], places: readonly number[], into: Float64Array[]) {
  const running = new Float64Array(effects.length);
  let at = 0;
  places.forEach((place, p) => {
    for (; at < place; at++) {
      const card = cards[at];
      for (let k = 0; k < effects.length; k++) running[k] += effects[k][card];
    }
    const scale = size / (size - place);
    for (let k = 0; k < effects.length; k++) into[k][p] = running[k] * scale;
  });
}

/** Counts are ordered at this resolution (the same for the real shoe and its references, so the test stays exact). */
const COUNT_RESOLUTION = 2 ** 30;
const MAX_PLACES = 1024;
const SORT_KEYS = new Float64Array(MAX_PLACES);

/**
 * For each bet, the places from the highest running count to the lowest, and where one count ends.
 * Each place is packed with its count into one double (the count at COUNT_RESOLUTION, negated, times
 * MAX_PLACES, plus the place), so that a typed array's own numeric sort orders them: about four
 * times quicker than sorting indices with a comparator, and this runs a thousand times a shoe.
 */
function countOrders(counts: readonly Float64Array[]): { orders: Uint16Array[]; lastOfCount: Uint8Array[] } {
  const orders: Uint16Array[] = [];
  const lastOfCount: Uint8Array[] = [];
  for (const count of counts) {
    const m = count.length;
    if (m > MAX_PLACES) throw new RangeError(`a shoe of ${m} coups`);
    if (m === 0) {
      orders.push(new Uint16Array(0));
      lastOfCount.push(new Uint8Array(0));
      continue;
    }
    const keys = SORT_KEYS.subarray(0, m);
    for (let i = 0; i < m; i++) {
      const level = Math.round(count[i] * COUNT_RESOLUTION);
      keys[i] = (Number.isFinite(level) ? -level : 0) * MAX_PLACES + i;
    }
    keys.sort();
    const order = new Uint16Array(m);
    const last = new Uint8Array(m);
    let band = Math.floor(keys[0] / MAX_PLACES);
    for (let i = 0; i < m; i++) {
      order[i] = keys[i] - band * MAX_PLACES;
      const next = i + 1 < m ? Math.floor(keys[i + 1] / MAX_PLACES) : NaN;
      last[i] = next !== band ? 1 : 0;
      band = next;
    }
    orders.push(order);
    lastOfCount.push(last);
  }
  return { orders, lastOfCount };
}

function shoeCounts(shoe: DealtShoe, cards: ArrayLike<Card>, bets: readonly BetType[], places: readonly number[]) {
  const byBet = effectsOfRemoval(shoe.rules);
  const counts = bets.map(() => new Float64Array(places.length));
  runningCounts(
    cards,
    shoe.rules.decks * CARDS_PER_DECK,
    bets.map((b) => byBet.get(b)!),
    places,
    counts,
  );
  return countOrders(counts);
}

function referenceCounts(shoe: DealtShoe, memo: StepMemo, referenceShoes: number): ReferenceCounts {
  const key = `references:${shoe.id}:${cardsDigest(shoe)}:${shoe.coupStarts.length}:${referenceShoes}`;
  const known = memo.get(key) as ReferenceCounts | undefined;
  if (known) return known;
  const bets = [...effectsOfRemoval(shoe.rules).keys()];
  const places = [...new Set(shoe.coupStarts)].sort((a, b) => a - b);
  const size = shoe.rules.decks * CARDS_PER_DECK;
  const random = seededRandom(seedOf(`references:${shoe.id}`));
  const deck = new Uint8Array(size);
  for (let i = 0; i < size; i++) deck[i] = i % CARDS_PER_DECK;
  const orders: Uint16Array[][] = [];
  const lastOfCount: Uint8Array[][] = [];
  for (let r = 0; r < referenceShoes; r++) {
    // A fresh shuffle of the whole shoe (Fisher–Yates): the same draws whichever places are read.
    for (let i = 0; i < size - 1; i++) {
      const j = i + Math.floor(random() * (size - i));
      const t = deck[i];
      deck[i] = deck[j];
      deck[j] = t;
    }
    const o = shoeCounts(shoe, deck, bets, places);
    orders.push(o.orders);
    lastOfCount.push(o.lastOfCount);
  }
  const real = shoeCounts(shoe, shoe.cards, bets, places);
  orders.push(real.orders);
  lastOfCount.push(real.lastOfCount);
  const out = { bets, places: new Map(places.map((p, i) => [p, i])), orders, lastOfCount };
  // A shoe's references are needed while its patrons are examined: keep the last few shoes'.
  const kept = [...memo.keys()].filter((k) => k.startsWith('references:'));
  for (const k of kept.slice(0, Math.max(0, kept.length - 3))) memo.delete(k);
  memo.set(key, out);
  return out;
}

/**
 * One shoe's count-betting e-value. The statistic: for each counted bet, how far the patron's stakes
 * on it lean to the coups where its running count was high, measured as the largest gap, over every
 * level of the count, between the share of the stakes and the share of the shoe's coups at that
 * count or above (the one-sided Kolmogorov–Smirnov distance between where the money went and where
 * the coups were); the largest over the bets. Every coup of the shoe counts, played or not, so that
 * sitting out until the count is up tells as much as betting more. The real shoe's statistic is
 * ranked among the same on the shoe's reference shuffles.
 */
function countEValue(played: readonly PlayedCoup[], refs: ReferenceCounts): number {
  const B = refs.bets.length;
  const m = refs.places.size;
  const stakes = refs.bets.map(() => new Float64Array(m));
  for (const c of played) {
    const place = refs.places.get(c.position);
    if (place === undefined) continue;
    for (const w of c.wagers) {
      const k = refs.bets.indexOf(w.betType);
      if (k >= 0 && w.stake > 0n) stakes[k][place] += Number(w.stake);
    }
  }
  const shares = stakes.map((x) => {
    const total = x.reduce((a, b) => a + b, 0);
    return total > 0 ? x.map((v) => v / total) : null;
  });
  const statistic = (r: number): number => {
    let largest = -Infinity;
    for (let k = 0; k < B; k++) {
      const share = shares[k];
      if (!share) continue;
      const order = refs.orders[r][k];
      const last = refs.lastOfCount[r][k];
      let gap = 0;
      for (let i = 0; i < m; i++) {
        gap += share[order[i]] - 1 / m;
        if (last[i] && gap > largest) largest = gap;
      }
    }
    return largest;
  };
  const n = refs.orders.length - 1;
  const references: number[] = [];
  for (let r = 0; r < n; r++) references.push(statistic(r));
  return exchangeableEValue(statistic(n), references);
}

/**
 * 1. Betting with the count (Dragon 7, Panda 8, Tie and the pairs turn in the player's favour in some
 * shoes). For each shoe of the record, conditionally on the patron's own pattern: the same bets at
 * the same places (how deep in the shoe, how much, on which bet) are set against REFERENCE_SHOES
 * shoes shuffled afresh. If the patron's stakes do not follow this shoe's cards, the shoe as dealt is
 * one more fair shuffle among them, and the e-value of its rank is exact (exchangeableEValue),
 * however the patron bets: in streaks, by progressions, only now and then.
 */
export function countBetting(
  subject: string,
  record: readonly PlayedCoup[],
  shoes: ReadonlyMap<string, DealtShoe>,
  memo: StepMemo = new Map(),
  referenceShoes = REFERENCE_SHOES,
): Finding {
  const steps: number[][] = [];
  const placed: { coup: PlayedCoup; wager: PlayedWager }[] = [];
  let shoesTested = 0;
  for (const step of shoeSteps(record)) {
    const shoe = shoes.get(step[0].shoeId);
    if (!shoe?.complete) continue;
    const size = shoe.rules.decks * CARDS_PER_DECK;
    // A coup needs up to six cards: a place past that is no place in this shoe (a corrupt record), and is left out.
    const played = step.filter((c) => Number.isInteger(c.position) && c.position >= 0 && c.position <= size - 6 && c.position < shoe.cards.length);
    const counted = new Set(effectsOfRemoval(shoe.rules).keys());
    for (const coup of played) for (const w of coup.wagers) if (counted.has(w.betType) && w.stake > 0n) placed.push({ coup, wager: w });
    if (!played.some((c) => c.wagers.some((w) => counted.has(w.betType) && w.stake > 0n))) continue;
    shoesTested++;
    const stakeKey = played.map((c) => `${c.position}:${c.wagers.map((w) => `${w.betType}/${w.stake}`).join('+')}`).join(',');
    const key = `count:${digestOf(`${subject}:${shoe.id}:${cardsDigest(shoe)}:${step[0].coupId}:${stakeKey}`)}`;
    let logE = memo.get(key) as number | undefined;
    if (logE === undefined) {
      logE = Math.log(countEValue(played, referenceCounts(shoe, memo, referenceShoes)));
      memo.set(key, logE);
    }
    steps.push([logE]);
  }
  const theoretical = byCurrency(placed.map(({ coup, wager }) => ({ coup, minor: Number(wager.stake) * (coup.odds.chances[wager.betType]?.mean ?? 0) })));
  const staked = placed.reduce((s, p) => s + Number(p.wager.stake), 0);
  const edge = placed.reduce((s, p) => s + Number(p.wager.stake) * (p.coup.odds.chances[p.wager.betType]?.mean ?? 0), 0) / (staked || 1);
  const favourable = placed.filter((p) => (p.coup.odds.chances[p.wager.betType]?.mean ?? 0) > 0);
  const digits = record[0]?.label?.digits ?? 2;
  const betTypes = [...new Set(placed.map((p) => p.wager.betType))].sort();
  return eFinding('COUNT_BETTING', shiryaevRoberts(steps), {
    reason:
      placed.length === 0
        ? 'No Tie or side bets to examine'
        : `${favourable.length} of ${placed.length} ${betTypes.join(', ')} bets fell where the cards left favoured the player; the exact edge at the bets averaged ${percent(edge)} for the player (expected win ${moneyText(theoretical, digits)})`,
    betTypes,
    bets: placed.length,
    favourableBets: favourable.length,
    shoesTested,
    referenceShoes,
    playerEdgeAtTheBets: percent(edge),
    expectedWin: theoretical,
    coups: [...favourable]
      .sort((a, b) => Number(b.wager.stake) * b.coup.odds.chances[b.wager.betType]!.mean - Number(a.wager.stake) * a.coup.odds.chances[a.wager.betType]!.mean)
      .slice(0, TELLING_COUPS)
      .map((p) => coupLine(p.coup, p.wager)),
  });
}

// ---------------------------------------------------------------------------------------------
// 4. A dealer and a patron together.

/**
 * One shoe's e-value for each of its dealers: the dealer's share of the patron's first-card worth
 * against random reassignments of the coups among the dealers, each coup staying in its quarter of
 * the shoe (so that a patron whose knowledge grows or fades as the shoe is dealt is compared with
 * themselves at the same depth). A dealer who shares no quarter with another dealer is not tested.
 */
function stepDealerEValues(
  subject: string,
  firstCoupId: string,
  rows: readonly { dealer: string; y: number; stratum: number }[],
  dealers: readonly string[],
  permutations: number,
): Map<string, number> {
  const random = seededRandom(seedOf(`${subject}:dealers:${firstCoupId}`));
  const strata = [...new Set(rows.map((r) => r.stratum))].map((stratum) => rows.map((r, i) => ({ r, i })).filter((x) => x.r.stratum === stratum));
  const shared = strata.filter((members) => new Set(members.map((m) => m.r.dealer)).size > 1);
  const tested = dealers.filter((d) => shared.some((members) => members.some((m) => m.r.dealer === d)));
  const labels = Int32Array.from(rows, (r) => dealers.indexOf(r.dealer));
  const y = Float64Array.from(rows, (r) => r.y);
  const references = dealers.map(() => new Array<number>(permutations));
  const sums = new Float64Array(dealers.length);
  for (let p = 0; p < permutations; p++) {
    for (const members of shared) {
      for (let k = members.length - 1; k > 0; k--) {
        const j = Math.floor(random() * (k + 1));
        const a = members[k].i;
        const b = members[j].i;
        const t = labels[a];
        labels[a] = labels[b];
        labels[b] = t;
      }
    }
    sums.fill(0);
    for (let i = 0; i < labels.length; i++) sums[labels[i]] += y[i];
    for (let d = 0; d < dealers.length; d++) references[d][p] = sums[d];
  }
  const out = new Map<string, number>();
  for (const dealer of tested) {
    const d = dealers.indexOf(dealer);
    const observed = rows.reduce((s, r) => (r.dealer === dealer ? s + r.y : s), 0);
    out.set(dealer, Math.log(exchangeableEValue(observed, references[d])));
  }
  return out;
}

/**
 * 4. A dealer showing one patron the first card: within each shoe, the patron's first-card worth
 * (standardised, stakes left out) on the coups a dealer dealt, against the same patron's coups of
 * that shoe, in the same quarter of it, dealt by the others. The dealers' coups are reassigned at random DEALER_PERMUTATIONS
 * times: if the patron's knowledge does not depend on who deals, the dealer's share is one more
 * such reassignment, and the e-value is exact. A patron who sees the first card with every dealer (an
 * edge sorter) names no dealer; one who plays with only one dealer cannot be compared, and names
 * none. One finding per dealer who dealt the patron coups beside another.
 */
export function dealerPairing(
  subject: string,
  record: readonly PlayedCoup[],
  shoes: ReadonlyMap<string, DealtShoe>,
  memo: StepMemo = new Map(),
  permutations = DEALER_PERMUTATIONS,
): Finding[] {
  const steps = new Map<string, number[][]>();
  const coupsOf = new Map<string, { decision: Decision; y: number }[]>();
  for (const step of shoeSteps(record)) {
    if (!shoes.get(step[0].shoeId)?.complete) continue; // tested once, when the shoe is closed
    const rows: { dealer: string; y: number; stratum: number; decision: Decision }[] = [];
    for (const coup of step) {
      const d = decisionOf(coup);
      const f = d && firstCardWorth(d);
      if (!d || !f || coup.dealerId === null || !(f.sd > 0)) continue;
      rows.push({ dealer: coup.dealerId, y: f.worth / f.sd, stratum: coup.odds.depth, decision: d });
    }
    const dealers = [...new Set(rows.map((r) => r.dealer))].sort();
    if (dealers.length < 2) continue;
    const key = `dealers:${digestOf(`${subject}:${step[0].coupId}:${rows.map((r) => `${r.dealer}/${r.stratum}/${r.y}`).join(',')}`)}`;
    let logE = memo.get(key) as Map<string, number> | undefined;
    if (!logE) {
      logE = stepDealerEValues(subject, step[0].coupId, rows, dealers, permutations);
      memo.set(key, logE);
    }
    for (const dealer of logE.keys()) {
      const mine = rows.filter((r) => r.dealer === dealer);
      steps.set(dealer, [...(steps.get(dealer) ?? []), [logE.get(dealer)!]]);
      coupsOf.set(dealer, [...(coupsOf.get(dealer) ?? []), ...mine.map((r) => ({ decision: r.decision, y: r.y }))]);
    }
  }
  return [...steps].map(([dealerId, s]) => {
    const mine = coupsOf.get(dealerId)!;
    const mean = mine.reduce((a, r) => a + r.y, 0) / mine.length;
    return eFinding('DEALER_PAIRING', shiryaevRoberts(s), {
      reason: `On the ${mine.length} coups dealer ${dealerId} dealt, the patron chose the side the first card favoured by ${mean.toFixed(2)} standard deviations a coup more than on the same shoes' coups from other dealers`,
      dealerId,
      shoesCompared: s.length,
      coups: [...mine]
        .sort((a, b) => b.y - a.y)
        .slice(0, TELLING_COUPS)
        .map((r) => coupLine(r.decision.coup, r.decision.wager, { firstCard: r.decision.coup.firstValue })),
    });
  });
}

/**
 * A 53-bit digest of a memo's key text (cyrb53), so that the cache holds short keys: two of a few
 * thousand keys collide with a chance below 10⁻⁸.
 */
function digestOf(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

const DIGESTS = new WeakMap<DealtShoe, string>();
/** A shoe's cards and coups as a digest, for the memo's keys: a shoe read again with other cards is not the one remembered. */
function cardsDigest(shoe: DealtShoe): string {
  let digest = DIGESTS.get(shoe);
  if (digest === undefined) DIGESTS.set(shoe, (digest = digestOf(`${shoe.cards.join(',')}/${shoe.coupStarts.join(',')}`)));
  return digest;
}

/** Per-shoe e-values already worked out, by what they were worked out from (a cache: the same inputs give the same value). */
export type StepMemo = Map<string, unknown>;

/** Which part of a record a detector reads: the coups after the last alert of its kind was closed. */
export type RestartTimes = ReadonlyMap<string, number>;
/** The key of a detector in RestartTimes: its kind, and the dealer for DEALER_PAIRING. */
export const detectorKey = (kind: RecordKind, dealerId?: string | null) => (kind === 'DEALER_PAIRING' ? `${kind}:${dealerId}` : kind);

/**
 * Every record detector on one patron's (or seat's) record, oldest coup first. `restart` gives, for
 * a detector whose last alert was closed, the time it was closed: that detector reads only the coups
 * settled after it.
 */
export function surveyRecord(
  subject: string,
  record: readonly PlayedCoup[],
  shoes: ReadonlyMap<string, DealtShoe>,
  restart: RestartTimes = new Map(),
  memo: StepMemo = new Map(),
): Finding[] {
  const after = (key: string) => {
    const t = restart.get(key);
    return t === undefined ? record : record.filter((c) => c.at > t);
  };
  const findings = [
    countBetting(subject, after('COUNT_BETTING'), shoes, memo),
    winsBeyondOdds(after('WINS_BEYOND_ODDS')),
    moneyBeyondOdds(after('MONEY_BEYOND_ODDS')),
    firstCardKnowledge(after('FIRST_CARD_KNOWLEDGE')),
  ];
  // The dealers read on the whole record at once; one whose last alert was closed, on what came after.
  const restarted = new Set([...restart.keys()].filter((k) => k.startsWith('DEALER_PAIRING:')).map((k) => k.slice('DEALER_PAIRING:'.length)));
  findings.push(...dealerPairing(subject, record, shoes, memo).filter((f) => !restarted.has(f.evidence.dealerId as string)));
  for (const dealer of restarted) {
    findings.push(...dealerPairing(subject, after(detectorKey('DEALER_PAIRING', dealer)), shoes, memo).filter((f) => f.evidence.dealerId === dealer));
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------
// 3. A shoe seen before.

/** How many of a table's latest shoes the repeated-run detector compares with on their own (the discards a slug is taken from). */
export const RECENT_SHOES = 8;

/**
 * 3. A shoe seen before: a run of cards this shoe dealt in the same order as an earlier one. Its
 * chance by luck is bounded twice, for the run's full length: against the table's last
 * RECENT_SHOES shoes (where a slug comes from: a few thousand places, so 8 cards are enough
 * whatever the size of the index) and against every place indexed at the property; the p-value is
 * twice the smaller (Bonferroni over the two looks).
 */
export function repeatedRunFinding(
  cards: readonly Card[],
  run: RepeatedRun,
  earlier: { shoeId: string; recent: boolean; label?: string },
  decks: number,
  places: { recent: number; indexed: number },
): Finding {
  const recent = earlier.recent ? chanceOfAnyMatch(run.length, decks, places.recent) : 1;
  const anywhere = chanceOfAnyMatch(run.length, decks, places.indexed);
  const p = Math.min(1, 2 * Math.min(recent, anywhere));
  const alert = p < REPEATED_RUN_P_VALUE;
  const shown = cards.slice(run.at, run.at + run.length).map(formatCard);
  return {
    kind: 'REPEATED_RUN',
    eValue: 1,
    pValue: p,
    threshold: REPEATED_RUN_P_VALUE,
    alert,
    severity: alert ? (p < REPEATED_RUN_P_VALUE / HIGH_SEVERITY_FACTOR ? 'HIGH' : 'MEDIUM') : null,
    evidence: {
      reason: `${run.length} cards came out in the same order as in ${earlier.label ?? 'an earlier shoe'}${earlier.recent ? ', one of the table’s last shoes' : ''}: a fair shuffle does that by luck with a chance of ${p.toExponential(1)}`,
      earlierShoeId: earlier.shoeId,
      earlierShoe: earlier.label ?? null,
      at: run.at,
      earlierAt: run.earlierAt,
      length: run.length,
      cards: shown,
      placesCompared: { recent: earlier.recent ? places.recent : 0, indexed: places.indexed },
    },
  };
}
