import { Card, CARDS_PER_DECK, formatCard } from './cards';
import { BetChances, betChances, Composition, exactOdds, oddsByFirstCard } from './odds';
import { BET_TYPES, BetType, MAIN_BETS, MainBet, offeredBets, RuleSet } from './rules';
import { chanceOfRun, countBettingTail, CountStratum, heavyStakes, poissonBinomialTail, RepeatedRun, upperTailOfSum } from './surveillance';

/**
 * The integrity detectors (docs/domain.md §7): records of play in, findings out. Pure: the service
 * and `npm run sim:surveillance` run the same code on the same records.
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
  const counts = exactOdds(composition);
  const size = rules.decks * CARDS_PER_DECK;
  const depth = Math.min(3, Math.floor((4 * (size - counts.cards)) / size));
  const slices = oddsByFirstCard(composition);
  const total = Number(counts.total);
  const firstCardChance = slices.map((s) => (s === null ? 0 : Number(s.total) / total));
  const meanGivenFirst = { PLAYER: [] as number[], BANKER: [] as number[], TIE: [] as number[] };
  for (const slice of slices) {
    const given = slice === null ? null : betChances(rules, { ...slice, ...NO_PAIRS }, MAIN_BETS);
    for (const bet of MAIN_BETS) meanGivenFirst[bet].push(given === null ? NaN : given[bet]!.mean);
  }
  return { depth, chances: betChances(rules, counts, offeredBets(rules)), firstCardChance, meanGivenFirst };
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

const NO_PAIRS = { playerPair: 0n, bankerPair: 0n, eitherPair: 0n, perfectPairEither: 0n, perfectPairBoth: 0n };

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

/** A coup as one patron (or seat) played it. */
export interface PlayedCoup {
  readonly coupId: string;
  readonly shoeId: string;
  readonly dealerId: string | null;
  readonly odds: CoupOdds;
  /** The point value of the coup's first card (Player's first). */
  readonly firstValue: number;
  readonly wagers: readonly PlayedWager[];
}

export type FindingKind = 'COUNT_BETTING' | 'WINS_BEYOND_ODDS' | 'MONEY_BEYOND_ODDS' | 'FIRST_CARD_KNOWLEDGE' | 'DEALER_PAIRING' | 'REPEATED_RUN';
export type Severity = 'MEDIUM' | 'HIGH';

/**
 * Each detector's threshold on its p-value (after its own Bonferroni correction). A patron's record
 * is examined once a shoe, by five detectors: 5 × 10^-5 = 5·10^-5, half the goal of 1 false alarm in
 * 10,000 honest patron-shoes (Boole's inequality), leaving the other half for the approximations:
 * the normal tail of the money and first-card sums, and wins whose chances follow the shoe. With
 * 2·10^-5 each the simulation measured 1.29 in 10,000 (BENCHMARKS.md).
 */
export const ALERT_P_VALUE: Readonly<Record<Exclude<FindingKind, 'REPEATED_RUN'>, number>> = {
  COUNT_BETTING: 1e-5,
  WINS_BEYOND_ODDS: 1e-5,
  MONEY_BEYOND_ODDS: 1e-5,
  FIRST_CARD_KNOWLEDGE: 1e-5,
  DEALER_PAIRING: 1e-5,
};
/** A repeated run is an alert when its chance by luck, over every pair of places compared, is below this. */
export const REPEATED_RUN_P_VALUE = 1e-6;
/** An alert is HIGH when its p-value is a thousand times below its threshold. */
export const HIGH_SEVERITY_FACTOR = 1e-3;

export interface Finding {
  readonly kind: FindingKind;
  /** The p-value after the detector's correction for the several tests it ran. */
  readonly pValue: number;
  readonly threshold: number;
  readonly alert: boolean;
  readonly severity: Severity | null;
  /** What a surveillance officer reads: the figures behind the p-value. */
  readonly evidence: Record<string, unknown>;
}

function finding(kind: FindingKind, pValue: number, threshold: number, evidence: Record<string, unknown>): Finding {
  const alert = pValue < threshold;
  return { kind, pValue, threshold, alert, severity: alert ? (pValue < threshold * HIGH_SEVERITY_FACTOR ? 'HIGH' : 'MEDIUM') : null, evidence };
}

const isMain = (b: BetType): b is MainBet => (MAIN_BETS as readonly string[]).includes(b);

/**
 * 1. Betting with the count: for each side bet (and Tie) the patron staked heavily at least once,
 * the exact stratified test of heavy stakes against the coups where that bet favoured the player.
 * The p-value is the smallest over the bets tested, times their number.
 */
export function countBetting(record: readonly PlayedCoup[]): Finding {
  const betTypes = new Set<BetType>();
  for (const c of record) for (const w of c.wagers) if (!isMain(w.betType) || w.betType === 'TIE') betTypes.add(w.betType);
  let best: { betType: BetType; p: number; strata: CountStratum[]; onFavourable: string[] } | null = null;
  let tested = 0;
  for (const betType of betTypes) {
    const stakes = record.map((c) => c.wagers.reduce((sum, w) => (w.betType === betType ? sum + w.stake : sum), 0n));
    const heavy = heavyStakes(stakes);
    if (!heavy.some(Boolean)) continue;
    tested++;
    const strata = [0, 1, 2, 3].map(() => ({ coups: 0, favourable: 0, heavy: 0, heavyFavourable: 0 }));
    const onFavourable: string[] = [];
    record.forEach((c, i) => {
      const chances = c.odds.chances[betType];
      if (!chances) return;
      const s = strata[c.odds.depth];
      const favourable = chances.mean > 0;
      s.coups++;
      if (favourable) s.favourable++;
      if (heavy[i]) s.heavy++;
      if (heavy[i] && favourable) {
        s.heavyFavourable++;
        onFavourable.push(c.coupId);
      }
    });
    const p = countBettingTail(strata);
    if (best === null || p < best.p) best = { betType, p, strata, onFavourable };
  }
  if (best === null) return finding('COUNT_BETTING', 1, ALERT_P_VALUE.COUNT_BETTING, { betsTested: 0 });
  return finding('COUNT_BETTING', Math.min(1, best.p * tested), ALERT_P_VALUE.COUNT_BETTING, {
    betType: best.betType,
    betsTested: tested,
    strata: best.strata,
    heavyStakesOnFavourableCoups: best.onFavourable,
  });
}

/** Each coup's main decision: the main-bet wager with the largest stake (one per coup, so the trials are the coups). */
function decisions(record: readonly PlayedCoup[]) {
  const out: { coup: PlayedCoup; wager: PlayedWager & { betType: MainBet }; chances: BetChances }[] = [];
  for (const coup of record) {
    let top: (PlayedWager & { betType: MainBet }) | null = null;
    for (const w of coup.wagers) if (isMain(w.betType) && (top === null || w.stake > top.stake)) top = w as PlayedWager & { betType: MainBet };
    const chances = top && coup.odds.chances[top.betType];
    if (top && chances) out.push({ coup, wager: top, chances });
  }
  return out;
}

/** 2a. More main-bet decisions won than the exact chances allow: the Poisson-binomial tail. */
export function winsBeyondOdds(record: readonly PlayedCoup[]): Finding {
  const d = decisions(record);
  const wins = d.filter((x) => x.wager.paid).length;
  const expected = d.reduce((s, x) => s + x.chances.paid, 0);
  const p = poissonBinomialTail(
    d.map((x) => x.chances.paid),
    wins,
  );
  return finding('WINS_BEYOND_ODDS', p, ALERT_P_VALUE.WINS_BEYOND_ODDS, { decisions: d.length, wins, expectedWins: expected });
}

/** 2b. More money won on the main decisions than the exact odds allow: the sum's upper tail. */
export function moneyBeyondOdds(record: readonly PlayedCoup[]): Finding {
  const d = decisions(record);
  let actual = 0;
  let expected = 0;
  let variance = 0;
  for (const x of d) {
    const stake = Number(x.wager.stake);
    actual += Number(x.wager.net);
    expected += stake * x.chances.mean;
    variance += stake * stake * x.chances.variance;
  }
  const { z, pValue } = upperTailOfSum(actual, expected, variance);
  return finding('MONEY_BEYOND_ODDS', pValue, ALERT_P_VALUE.MONEY_BEYOND_ODDS, {
    decisions: d.length,
    actualWin: Math.round(actual),
    expectedWin: Math.round(expected),
    standardDeviation: Math.round(Math.sqrt(variance)),
    z,
  });
}

/**
 * 2c. Choosing the side the first card favours: Σ stake × (E[profit | the first card dealt] −
 * E[profit]) over the decisions. Someone who cannot see the first card has each term's expectation
 * zero whatever they bet (the first card is still in the shoe when they choose), with a variance
 * known exactly from the shoe; an edge sorter or a player shown the card makes it grow.
 */
export function firstCardKnowledge(
  record: readonly PlayedCoup[],
  kind: 'FIRST_CARD_KNOWLEDGE' | 'DEALER_PAIRING' = 'FIRST_CARD_KNOWLEDGE',
  tests = 1,
): Finding {
  const d = decisions(record);
  let gain = 0;
  let variance = 0;
  for (const x of d) {
    const stake = Number(x.wager.stake);
    const given = x.coup.odds.meanGivenFirst[x.wager.betType];
    const mean = x.chances.mean;
    gain += stake * (given[x.coup.firstValue] - mean);
    let v = 0;
    x.coup.odds.firstCardChance.forEach((chance, value) => {
      if (chance > 0) v += chance * (given[value] - mean) ** 2;
    });
    variance += stake * stake * v;
  }
  const { z, pValue } = upperTailOfSum(gain, 0, variance);
  return finding(kind, Math.min(1, pValue * tests), ALERT_P_VALUE[kind], {
    decisions: d.length,
    worthOfTheFirstCard: Math.round(gain),
    standardDeviation: Math.round(Math.sqrt(variance)),
    z,
  });
}

/**
 * 4. A dealer and a patron together: the first-card test on the coups each dealer dealt to the
 * patron, corrected for the number of dealers (each with at least `minCoups` coups) tested.
 */
export function dealerPairing(record: readonly PlayedCoup[], minCoups = 20): Finding {
  const byDealer = new Map<string, PlayedCoup[]>();
  for (const c of record) if (c.dealerId !== null) byDealer.set(c.dealerId, [...(byDealer.get(c.dealerId) ?? []), c]);
  const tested = [...byDealer].filter(([, coups]) => coups.length >= minCoups);
  let worst: Finding | null = null;
  let dealer: string | null = null;
  for (const [dealerId, coups] of tested) {
    const f = firstCardKnowledge(coups, 'DEALER_PAIRING', tested.length);
    if (worst === null || f.pValue < worst.pValue) {
      worst = f;
      dealer = dealerId;
    }
  }
  if (worst === null) return finding('DEALER_PAIRING', 1, ALERT_P_VALUE.DEALER_PAIRING, { dealersTested: 0 });
  return { ...worst, evidence: { ...worst.evidence, dealerId: dealer, dealersTested: tested.length } };
}

/** Every record detector on one patron's (or seat's) record. */
export function surveyRecord(record: readonly PlayedCoup[]): Finding[] {
  return [countBetting(record), winsBeyondOdds(record), moneyBeyondOdds(record), firstCardKnowledge(record), dealerPairing(record)];
}

/**
 * 3. A shoe seen before: a run of cards this shoe dealt in the same order as an earlier one, with
 * its chance by luck: the run's chance at one place times the number of pairs of places compared
 * (places dealt here × places indexed from earlier shoes), which bounds the chance that any run this
 * long would match somewhere by luck alone.
 */
export function repeatedRunFinding(cards: readonly Card[], run: RepeatedRun, earlierShoeId: string, decks: number, comparedPlaces: number): Finding {
  const p = Math.min(1, chanceOfRun(cards.slice(run.at, run.at + run.length), decks) * comparedPlaces);
  return finding('REPEATED_RUN', p, REPEATED_RUN_P_VALUE, {
    earlierShoeId,
    at: run.at,
    earlierAt: run.earlierAt,
    length: run.length,
    cards: cards.slice(run.at, run.at + run.length).map(formatCard),
  });
}
