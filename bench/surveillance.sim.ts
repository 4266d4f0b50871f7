/**
 * npm run sim:surveillance — an examiner's casino for the integrity detectors (docs/domain.md §9).
 *
 * Real shuffled 8-deck shoes are dealt through the engine at an EZ Baccarat table (Dragon 7, Panda 8
 * and Tie offered), cut 14 cards from the end, three dealers rotating every 30 coups (a dealer-shift).
 * Each run is one table over SHOES shoes with seven seats; a patron's record runs across the shoes
 * (and days) of the run, and after every shoe each patron who played it goes through the detectors,
 * as the service does. An alert stays open (nobody closes one here), so a patron is flagged at most
 * once per detector.
 *
 * The honest patrons are built to break naive nulls, not to suit the detectors: flat Tie and flat
 * Player bettors, Martingale progressions (on the main bets and on the Dragon), a Dragon bettor
 * who waits until one is "due", road chasers, Dragon bettors in streaks with rising
 * stakes, a Panda chaser who bets it after seeing one, players who sit out and come back, a few
 * very large stakes, side bets more often late in the shoe, and unrated play (examined by seat).
 * The cheats use none of the detectors' quantities:
 * - counter: a simple running count for Dragon 7 (4–7 count −1, 8 and 9 count +2), Dragon 7 bet at a
 *   true count of 4 or more, Banker flat throughout;
 * - sit-out counter: the same count, and plays only when it says so;
 * - edge sorter: knows whether the first card is a 7, 8 or 9 (right with ACCURACY), every coup;
 * - quiet sorter: the same, 20–30 coups a day, one shoe a day, over QUIET_DAYS days;
 * - dealer: one dealer shows them the first card: 7–9 Player big, 0–3 Banker big, else Banker small;
 * - slug: from the second shoe on, the last SLUG cards the shoe before dealt are put back in order.
 *
 * The alarm level is fixed by the theory (ALARM: at most one false alarm per 100,000 honest shoes
 * per detector), not tuned here. Prints, for each kind, when the cheat was flagged; false alarms per
 * 10,000 honest patron-shoes and innocent dealers named per 10,000 dealer-shifts, each with its exact
 * one-sided 95 % upper bound; writes bench/results/surveillance.json.
 */
import { performance } from 'node:perf_hooks';
import {
  ALARM,
  BetType,
  burnCountOf,
  Card,
  coupOdds,
  CoupOdds,
  dealPuntoBanco,
  DealtShoe,
  detectorKey,
  evaluateCoup,
  fullShoe,
  PlayedCoup,
  pointOf,
  poissonBinomialTail,
  Random,
  RECENT_SHOES,
  removeCards,
  repeatedRunFinding,
  repeatedRuns,
  RUN_WINDOW,
  ruleSet,
  seededRandom,
  settleWager,
  shuffledShoe,
  StepMemo,
  surveyRecord,
} from '../src/domain';
import { machine, writeJson } from './stats';

const RUNS = Number(process.env.RUNS ?? 60);
const SHOES = Number(process.env.SHOES ?? 8);
const QUIET_DAYS = Number(process.env.QUIET_DAYS ?? 12);
const ACCURACY = Number(process.env.ACCURACY ?? 0.9);
const SLUGS = (process.env.SLUGS ?? '8,10,14').split(',').map(Number);
const SEED = Number(process.env.SEED ?? 20261127);
/** The run index's size the slugs' chance is reported at (shoes indexed at the property). */
const INDEXED_SHOES = Number(process.env.INDEXED_SHOES ?? 1_000_000);
const DECKS = 8;
const CUT = 14;
const DEALER_SHIFT = 30;

const rules = ruleSet({ variant: 'EZ', decks: DECKS, sideBets: ['DRAGON_7', 'PANDA_8'] });

type Bet = { betType: BetType; stake: bigint };
/** What a patron sees before a coup: the shoe as dealt so far, the results, and (for a cheat) more. */
interface Seen {
  readonly dealt: readonly Card[];
  readonly history: readonly ('BANKER' | 'PLAYER' | 'TIE')[];
  readonly dragons: readonly boolean[];
  readonly pandas: readonly boolean[];
  readonly firstCard: number;
  readonly dealer: number;
  readonly coupInShoe: number;
}
interface Patron {
  readonly id: string;
  readonly honest: boolean;
  readonly style: string;
  /** Whether they sit at this shoe at all (some come and go). */
  playsShoe?(shoe: number, random: Random): boolean;
  bets(seen: Seen, random: Random): Bet[];
  settled?(net: bigint): void;
}

// ---------------------------------------------------------------------------------------------
// Honest patrons.

const units = (n: number) => BigInt(Math.round(n)) * 100n;
const side = (random: Random): 'BANKER' | 'PLAYER' => (random() < 0.5 ? 'BANKER' : 'PLAYER');
const comesAndGoes = (p: number) => (_shoe: number, random: Random) => random() < p;

const HONEST: Record<string, (id: string, random: Random) => Patron> = {
  'flat Tie': (id, random) => {
    const stake = units(5 + Math.floor(random() * 20));
    return { id, honest: true, style: 'flat Tie', bets: () => [{ betType: 'TIE', stake }] };
  },
  'flat Player': (id, random) => {
    const stake = units(10 + Math.floor(random() * 90));
    return { id, honest: true, style: 'flat Player', bets: () => [{ betType: 'PLAYER', stake }] };
  },
  martingale: (id, random) => {
    const base = units(5 + Math.floor(random() * 5));
    let stake = base;
    return {
      id,
      honest: true,
      style: 'martingale',
      bets: (_s, r) => [{ betType: side(r), stake }],
      settled(net) {
        if (net < 0n) stake = stake * 2n > base * 64n ? base : stake * 2n;
        else if (net > 0n) stake = base;
      },
    };
  },
  'road chaser': (id, random) => {
    const stake = units(10 + Math.floor(random() * 30));
    return {
      id,
      honest: true,
      style: 'road chaser',
      bets: (s, r) => {
        const last = s.history.findLast((w) => w !== 'TIE') ?? 'BANKER';
        const bets: Bet[] = [{ betType: last, stake }];
        if (s.history.at(-1) === 'TIE' || r() < 0.05) bets.push({ betType: 'TIE', stake: stake / 5n });
        return bets;
      },
    };
  },
  'Dragon streaks': (id, random) => {
    const base = units(5 + Math.floor(random() * 20));
    let streak = 0;
    return {
      id,
      honest: true,
      style: 'Dragon streaks',
      bets: (_s, r) => {
        streak = streak > 0 ? (r() < 0.85 ? streak + 1 : 0) : r() < 0.06 ? 1 : 0;
        const bets: Bet[] = [{ betType: 'BANKER', stake: units(20) }];
        if (streak > 0) bets.push({ betType: 'DRAGON_7', stake: base * BigInt(Math.min(streak, 8)) });
        return bets;
      },
    };
  },
  // Result-driven: both depend on the cards only through what the roads show, and so follow the
  // count a little without meaning to (a long wait for a Dragon 7 leaves its cards in the shoe).
  'Dragon martingale': (id, random) => {
    const base = units(1 + Math.floor(random() * 4));
    return {
      id,
      honest: true,
      style: 'Dragon martingale',
      bets: (s) => {
        let lost = 0;
        for (let j = s.dragons.length - 1; j >= 0 && !s.dragons[j]; j--) lost++;
        return [
          { betType: 'BANKER', stake: units(20) },
          { betType: 'DRAGON_7', stake: base * 2n ** BigInt(Math.min(lost, 6)) },
        ];
      },
    };
  },
  'Dragon due': (id) => ({
    id,
    honest: true,
    style: 'Dragon due',
    bets: (s) => {
      let since = 0;
      for (let j = s.dragons.length - 1; j >= 0 && !s.dragons[j]; j--) since++;
      const bets: Bet[] = [{ betType: 'BANKER', stake: units(20) }];
      if (since >= 30) bets.push({ betType: 'DRAGON_7', stake: units(10) });
      return bets;
    },
  }),
  'Panda chaser': (id) => ({
    id,
    honest: true,
    style: 'Panda chaser',
    bets: (s) => {
      const bets: Bet[] = [{ betType: 'PLAYER', stake: units(25) }];
      if (s.pandas.slice(-6).some(Boolean)) bets.push({ betType: 'PANDA_8', stake: units(10) });
      if (s.dragons.slice(-6).some(Boolean)) bets.push({ betType: 'DRAGON_7', stake: units(10) });
      return bets;
    },
  }),
  'sits out': (id, random) => {
    const stake = units(20 + Math.floor(random() * 40));
    let sitting = false;
    return {
      id,
      honest: true,
      style: 'sits out',
      playsShoe: comesAndGoes(0.6),
      bets: (_s, r) => {
        sitting = sitting ? r() > 0.15 : r() < 0.1;
        if (sitting) return [];
        const bets: Bet[] = [{ betType: side(r), stake }];
        if (r() < 0.15) bets.push({ betType: r() < 0.5 ? 'DRAGON_7' : 'PANDA_8', stake: stake / 2n });
        return bets;
      },
    };
  },
  'big now and then': (id, random) => {
    const scale = 50 + Math.floor(random() * 200);
    return {
      id,
      honest: true,
      style: 'big now and then',
      bets: (_s, r) => {
        const big = r() < 0.03;
        const bets: Bet[] = [{ betType: big ? 'PLAYER' : side(r), stake: units(big ? scale * 100 : scale) }];
        if (r() < 0.05) bets.push({ betType: 'DRAGON_7', stake: units(big ? scale * 20 : scale / 5) });
        return bets;
      },
    };
  },
  'late side bets': (id, random) => {
    const stake = units(10 + Math.floor(random() * 20));
    return {
      id,
      honest: true,
      style: 'late side bets',
      bets: (s, r) => {
        const depth = Math.min(3, Math.floor((4 * s.dealt.length) / (DECKS * 52)));
        const bets: Bet[] = [{ betType: side(r), stake }];
        const often = [0.02, 0.08, 0.2, 0.45][depth];
        for (const b of ['DRAGON_7', 'PANDA_8'] as const) if (r() < often) bets.push({ betType: b, stake: units(2 + depth * 3) });
        return bets;
      },
    };
  },
  unrated: (id, random) => {
    const stake = units(10 + Math.floor(random() * 50));
    return {
      id: `seat:${id}`,
      honest: true,
      style: 'unrated (by seat)',
      bets: (_s, r) => {
        const bets: Bet[] = [{ betType: side(r), stake }];
        if (r() < 0.1) bets.push({ betType: 'TIE', stake: stake / 4n });
        if (r() < 0.1) bets.push({ betType: 'DRAGON_7', stake: stake / 4n });
        return bets;
      },
    };
  },
};
const HONEST_STYLES = Object.keys(HONEST);

// ---------------------------------------------------------------------------------------------
// Cheats: none reads the detectors' quantities.

/** The Dragon 7 true count a counter keeps: 4–7 count −1, 8 and 9 count +2, per deck left. */
function dragonTrueCount(dealt: readonly Card[]): number {
  let running = 0;
  for (const c of dealt) {
    const v = pointOf(c);
    if (v >= 4 && v <= 7) running -= 1;
    else if (v >= 8) running += 2;
  }
  return running / ((DECKS * 52 - dealt.length) / 52);
}

function counter(id: string, sitsOut: boolean): Patron {
  return {
    id,
    honest: false,
    style: sitsOut ? 'sit-out counter' : 'counter',
    bets: (s) => {
      const go = dragonTrueCount(s.dealt) >= 4;
      if (sitsOut && !go) return [];
      const bets: Bet[] = [{ betType: 'BANKER', stake: units(10) }];
      if (go) bets.push({ betType: 'DRAGON_7', stake: units(50) });
      return bets;
    },
  };
}

function edgeSorter(id: string, quiet: boolean, random: Random): Patron {
  let from = 0;
  return {
    id,
    honest: false,
    style: quiet ? 'quiet sorter' : 'edge sorter',
    bets: (s, r) => {
      if (quiet) {
        if (s.coupInShoe === 0) from = Math.floor(random() * 40);
        const length = 20 + (from % 11);
        if (s.coupInShoe < from || s.coupInShoe >= from + length) return [];
      }
      const high = s.firstCard >= 7;
      const thinksHigh = r() < ACCURACY ? high : !high;
      return thinksHigh ? [{ betType: 'PLAYER', stake: units(100) }] : [{ betType: 'BANKER', stake: units(20) }];
    },
  };
}

function dealersFriend(id: string): Patron {
  return {
    id,
    honest: false,
    style: 'dealer',
    bets: (s) => {
      if (s.dealer !== 0) return [{ betType: 'BANKER', stake: units(20) }];
      if (s.firstCard >= 7) return [{ betType: 'PLAYER', stake: units(100) }];
      if (s.firstCard <= 3) return [{ betType: 'BANKER', stake: units(100) }];
      return [{ betType: 'BANKER', stake: units(20) }];
    },
  };
}

// ---------------------------------------------------------------------------------------------
// One run: a table over its shoes.

type Kind = 'honest' | 'counter' | 'sit-out counter' | 'edge sorter' | 'quiet sorter' | 'dealer' | 'slug';
const KINDS: Kind[] = ['honest', 'counter', 'sit-out counter', 'edge sorter', 'quiet sorter', 'dealer', 'slug'];

interface RunResult {
  honestPatronShoes: number;
  falseAlarms: { patron: string; style: string; shoe: number; kind: string; eValue: number }[];
  byStyle: Record<string, { patronShoes: number; alarms: number }>;
  dealerShifts: number;
  innocentDealersNamed: { dealer: string; patron: string; shoe: number }[];
  /** The cheat flagged: after how many of the shoes they played (or days), how, and after how many of their coups; null if never. */
  flagged: { shoes: number; coups: number; kind: string } | null;
  /** For the dealer kind: whether the accomplice was named, after how many shoes. */
  accompliceNamed: number | null;
  slugs: { length: number; found: number | null; p: number; pAtIndex: number }[];
  luckyRuns: number;
  shoes: number;
  coups: number;
  surveySeconds: number;
}

function run(kind: Kind, seed: number): RunResult {
  const random = seededRandom(seed);
  const shoes = kind === 'quiet sorter' ? QUIET_DAYS : SHOES;
  const cheat =
    kind === 'counter' || kind === 'sit-out counter'
      ? counter(`cheat-${seed}`, kind === 'sit-out counter')
      : kind === 'edge sorter' || kind === 'quiet sorter'
        ? edgeSorter(`cheat-${seed}`, kind === 'quiet sorter', random)
        : kind === 'dealer'
          ? dealersFriend(`cheat-${seed}`)
          : null;
  const patrons: Patron[] = [];
  for (let i = 0; i < 7 - (cheat ? 1 : 0); i++) {
    const style = HONEST_STYLES[Math.floor(random() * HONEST_STYLES.length)];
    patrons.push(HONEST[style](`${seed}-${i}`, random));
  }
  if (cheat) patrons.push(cheat);
  const records = new Map<string, PlayedCoup[]>(patrons.map((p) => [p.id, []]));
  const alerted = new Map<string, Set<string>>(patrons.map((p) => [p.id, new Set()]));
  const memo: StepMemo = new Map();
  const dealtShoes = new Map<string, DealtShoe>();
  const result: RunResult = {
    honestPatronShoes: 0,
    falseAlarms: [],
    byStyle: {},
    dealerShifts: 0,
    innocentDealersNamed: [],
    flagged: null,
    accompliceNamed: null,
    slugs: [],
    luckyRuns: 0,
    shoes: 0,
    coups: 0,
    surveySeconds: 0,
  };
  const earlier: { shoeId: string; cards: Card[] }[] = [];
  let coupNo = 0;
  let cheatShoes = 0;
  let cheatCoups = 0;

  for (let shoe = 1; shoe <= shoes; shoe++) {
    let cards = shuffledShoe(DECKS, random);
    let slug: { length: number; at: number } | null = null;
    if (kind === 'slug' && earlier.length > 0) {
      const length = SLUGS[(shoe - 2) % SLUGS.length];
      const previous = earlier[earlier.length - 1].cards;
      const taken = previous.slice(previous.length - length);
      const rest = removeOnce(cards, taken);
      const at = Math.floor(random() * (rest.length - CUT - length - 20)) + 20;
      cards = [...rest.slice(0, at), ...taken, ...rest.slice(at)];
      slug = { length, at };
    }
    const shoeId = `${seed}-shoe-${shoe}`;
    let left = fullShoe(DECKS);
    let pos = 1 + burnCountOf(cards[0]);
    left = removeCards(left, cards.slice(0, pos));
    const history: ('BANKER' | 'PLAYER' | 'TIE')[] = [];
    const dragons: boolean[] = [];
    const pandas: boolean[] = [];
    const playing = patrons.filter((p) => p.playsShoe?.(shoe, random) ?? true);
    const played = new Set<string>();
    let coupInShoe = 0;
    const shifts = new Set<number>();
    const coupStarts: number[] = [];
    while (cards.length - pos > CUT) {
      const deal = dealPuntoBanco(cards, pos)!;
      coupStarts.push(pos);
      const odds: CoupOdds = coupOdds(rules, left);
      const dealer = Math.floor(coupNo / DEALER_SHIFT) % 3;
      shifts.add(Math.floor(coupNo / DEALER_SHIFT));
      const firstCard = pointOf(cards[pos]);
      const outcome = evaluateCoup('EZ', deal);
      const coupId = `${seed}-c${++coupNo}`;
      for (const patron of playing) {
        const bets = patron.bets({ dealt: cards.slice(0, pos), history, dragons, pandas, firstCard, dealer, coupInShoe }, random);
        if (bets.length === 0) continue;
        let net = 0n;
        const wagers = bets.map((b) => {
          const s = settleWager(rules, outcome, { betType: b.betType, amount: b.stake });
          net += s.net;
          return { betType: b.betType, stake: b.stake, paid: s.result === 'WIN', net: s.net };
        });
        patron.settled?.(net);
        records.get(patron.id)!.push({ coupId, shoeId, dealerId: `dealer-${dealer}`, odds, firstValue: firstCard, position: pos, at: coupNo, wagers });
        played.add(patron.id);
        if (!patron.honest) cheatCoups++;
      }
      history.push(outcome.winner);
      dragons.push(outcome.dragon7);
      pandas.push(outcome.panda8);
      left = removeCards(left, [...deal.player, ...deal.banker]);
      pos += deal.used;
      coupInShoe++;
      result.coups++;
    }
    result.dealerShifts += shifts.size;
    const dealt = cards.slice(0, pos);
    dealtShoes.set(shoeId, { id: shoeId, cards: dealt, coupStarts, rules, complete: true });
    result.shoes++;

    // A shoe seen before: its runs of at least RUN_WINDOW cards against the table's last shoes.
    const recent = earlier.slice(-RECENT_SHOES);
    const recentPlaces = recent.reduce((s, e) => s + e.cards.length - RUN_WINDOW + 1, 0);
    let found: number | null = null;
    let bestP = 1;
    let bestAtIndex = 1;
    for (const e of recent) {
      for (const r of repeatedRuns(dealt, e.cards)) {
        const places = { recent: recentPlaces, indexed: Math.max(recentPlaces, INDEXED_SHOES * (DECKS * 52 - CUT)) };
        const f = repeatedRunFinding(dealt, r, { shoeId: e.shoeId, recent: true }, DECKS, places);
        const inSlug = slug !== null && r.at < slug.at + slug.length && r.at + r.length > slug.at;
        if (inSlug) {
          if (f.alert) found = Math.max(found ?? 0, r.length);
          bestP = Math.min(bestP, f.pValue);
          bestAtIndex = Math.min(bestAtIndex, f.pValue);
        } else if (f.alert) result.luckyRuns++;
      }
    }
    if (slug !== null && slug.at + slug.length <= pos) result.slugs.push({ length: slug.length, found, p: bestP, pAtIndex: bestAtIndex });
    earlier.push({ shoeId, cards: dealt });

    // The end of the shoe: every patron who played it, on their whole record so far.
    const t0 = performance.now();
    for (const patron of playing) {
      if (!played.has(patron.id)) continue;
      const record = records.get(patron.id)!;
      if (!patron.honest) cheatShoes++;
      const findings = surveyRecord(patron.id, record, dealtShoes, new Map(), memo);
      const mine = alerted.get(patron.id)!;
      if (patron.honest) {
        result.honestPatronShoes++;
        const s = (result.byStyle[patron.style] ??= { patronShoes: 0, alarms: 0 });
        s.patronShoes++;
      }
      for (const f of findings) {
        if (!f.alert) continue;
        const dealer = f.kind === 'DEALER_PAIRING' ? (f.evidence.dealerId as string) : null;
        const key = detectorKey(f.kind as Exclude<typeof f.kind, 'REPEATED_RUN'>, dealer);
        if (mine.has(key)) continue; // the alert is open already: its evidence grows
        mine.add(key);
        const innocentDealer = dealer !== null && !(kind === 'dealer' && !patron.honest && dealer === 'dealer-0');
        if (innocentDealer) result.innocentDealersNamed.push({ dealer, patron: patron.id, shoe });
        if (patron.honest) {
          result.falseAlarms.push({ patron: patron.id, style: patron.style, shoe, kind: f.kind, eValue: f.eValue });
          result.byStyle[patron.style].alarms++;
        } else {
          if (dealer === 'dealer-0' && kind === 'dealer') result.accompliceNamed ??= cheatShoes;
          if (!innocentDealer) result.flagged ??= { shoes: kind === 'quiet sorter' ? shoe : cheatShoes, coups: cheatCoups, kind: f.kind };
        }
      }
    }
    result.surveySeconds += (performance.now() - t0) / 1000;
  }
  return result;
}

function removeOnce(cards: readonly Card[], take: readonly Card[]): Card[] {
  const out = [...cards];
  for (const c of take) out.splice(out.indexOf(c), 1);
  return out;
}

/** The exact (Clopper–Pearson) one-sided 95 % upper bound of a binomial proportion, by bisection. */
function upperBound95(k: number, n: number): number {
  if (n === 0) return 1;
  if (k >= n) return 1;
  // The p at which P(X ≤ k) = 0.05.
  let lo = k / n;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    const atMost = 1 - poissonBinomialTail(new Array<number>(Math.min(n, 200_000)).fill(mid), k + 1);
    if (atMost > 0.05) lo = mid;
    else hi = mid;
  }
  return hi;
}
/** A one-sided 95 % interval for a share (exact): [lower, upper]. */
function interval95(k: number, n: number): [number, number] {
  return [k === 0 ? 0 : 1 - upperBound95(n - k, n), upperBound95(k, n)];
}

function main() {
  const t0 = performance.now();
  const kinds = process.env.KINDS ? KINDS.filter((k) => process.env.KINDS!.split(',').includes(k)) : KINDS;
  const report: Record<string, unknown> = {};
  let honestPatronShoes = 0;
  const falseAlarms: RunResult['falseAlarms'] = [];
  const byStyle: RunResult['byStyle'] = {};
  let dealerShifts = 0;
  const innocent: RunResult['innocentDealersNamed'] = [];
  let coups = 0;
  let surveySeconds = 0;
  let luckyRuns = 0;
  let shoesDealt = 0;
  const share = (x: number) => `${(100 * x).toFixed(1)} %`;
  console.log(`\nsim:surveillance — ${RUNS} runs of each kind, ${SHOES} shoes a run (quiet sorter: ${QUIET_DAYS} days), EZ Baccarat 8 decks, seed ${SEED}`);
  kinds.forEach((kind) => {
    const k = KINDS.indexOf(kind);
    const flagged: NonNullable<RunResult['flagged']>[] = [];
    const accomplice: number[] = [];
    const slugs: RunResult['slugs'] = [];
    for (let s = 0; s < RUNS; s++) {
      const r = run(kind, SEED + k * 1_000_003 + s * 7919);
      honestPatronShoes += r.honestPatronShoes;
      falseAlarms.push(...r.falseAlarms);
      for (const [style, v] of Object.entries(r.byStyle)) {
        const t = (byStyle[style] ??= { patronShoes: 0, alarms: 0 });
        t.patronShoes += v.patronShoes;
        t.alarms += v.alarms;
      }
      dealerShifts += r.dealerShifts;
      innocent.push(...r.innocentDealersNamed);
      coups += r.coups;
      surveySeconds += r.surveySeconds;
      luckyRuns += r.luckyRuns;
      shoesDealt += r.shoes;
      if (r.flagged) flagged.push(r.flagged);
      if (r.accompliceNamed !== null) accomplice.push(r.accompliceNamed);
      slugs.push(...r.slugs);
    }
    if (kind === 'honest') return;
    if (kind === 'slug') {
      const lengths = [...new Set(slugs.map((x) => x.length))].sort((a, b) => a - b);
      const byLength = lengths.map((length) => {
        const of = slugs.filter((x) => x.length === length);
        const found = of.filter((x) => x.found !== null);
        const worstP = Math.max(...of.map((x) => x.pAtIndex));
        return { length, dealt: of.length, found: found.length, fullLength: found.filter((x) => x.found! >= length).length, worstP };
      });
      for (const b of byLength)
        console.log(
          `slug of ${String(b.length).padStart(2)} cards  found in ${b.found} of ${b.dealt} shoes that dealt it (${share(b.found / b.dealt)}), at its full length in ${b.fullLength}; largest p with ${INDEXED_SHOES.toExponential(0)} shoes indexed: ${b.worstP.toExponential(1)}`,
        );
      report[kind] = { byLength, indexedShoes: INDEXED_SHOES };
      return;
    }
    const within = (n: number) => flagged.filter((f) => f.shoes <= n).length;
    const target = kind === 'counter' || kind === 'sit-out counter' ? 3 : kind === 'quiet sorter' ? 10 : kind === 'edge sorter' ? 1 : 3;
    const unit = kind === 'quiet sorter' ? 'days' : 'shoes played';
    const [lo] = interval95(within(target), RUNS);
    const coupsToFlag = flagged.map((f) => f.coups).sort((a, b) => a - b);
    console.log(
      `${kind.padEnd(16)} flagged in ${share(flagged.length / RUNS)} of runs; within ${target} ${unit}: ${share(within(target) / RUNS)} (95 % lower bound ${share(lo)}); ` +
        `the cheat's coups until flagged: median ${coupsToFlag[Math.floor((coupsToFlag.length - 1) / 2)] ?? '—'}; by ${JSON.stringify(countKinds(flagged.map((f) => f.kind)))}` +
        (kind === 'dealer'
          ? `; the accomplice named in ${share(accomplice.length / RUNS)} of runs (within 3 shoes: ${share(accomplice.filter((a) => a <= 3).length / RUNS)})`
          : ''),
    );
    report[kind] = {
      runs: RUNS,
      flagged: flagged.length,
      withinTarget: { target, unit, share: within(target) / RUNS, lower95: lo },
      byShoe: [1, 2, 3, 5, 8, 10, 12].map((n) => ({ n, share: within(n) / RUNS })),
      coupsToFlagMedian: coupsToFlag[Math.floor((coupsToFlag.length - 1) / 2)] ?? null,
      how: countKinds(flagged.map((f) => f.kind)),
      ...(kind === 'dealer' ? { accompliceNamed: accomplice.length, accompliceWithin3: accomplice.filter((a) => a <= 3).length } : {}),
    };
  });
  const per10k = (x: number) => (x * 10_000).toFixed(2);
  const [, hi] = interval95(falseAlarms.length, honestPatronShoes);
  console.log(
    `false alarms: ${falseAlarms.length} in ${honestPatronShoes} honest patron-shoes = ${per10k(falseAlarms.length / honestPatronShoes)} per 10,000 (one-sided 95 % upper bound ${per10k(hi)})`,
  );
  for (const [style, v] of Object.entries(byStyle).sort()) console.log(`  ${style.padEnd(20)} ${v.alarms} in ${v.patronShoes}`);
  for (const f of falseAlarms.slice(0, 10)) console.log(`  ${f.patron} (${f.style}), shoe ${f.shoe}: ${f.kind} e = ${f.eValue.toExponential(2)}`);
  const [, dealerHi] = interval95(innocent.length, dealerShifts);
  console.log(
    `innocent dealers named: ${innocent.length} in ${dealerShifts} dealer-shifts = ${per10k(innocent.length / dealerShifts)} per 10,000 (one-sided 95 % upper bound ${per10k(dealerHi)})`,
  );
  console.log(`repeated runs alerted by luck (no slug in them): ${luckyRuns} in ${shoesDealt} shoes`);
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `${coups} coups dealt in ${seconds.toFixed(0)} s; the detectors at shoe closes took ${surveySeconds.toFixed(1)} s (${((1000 * surveySeconds) / coups).toFixed(3)} ms a coup)`,
  );
  console.log(
    `written ${writeJson(process.env.SIM_OUT ?? 'surveillance', {
      when: new Date().toISOString(),
      machine: machine(),
      settings: { runs: RUNS, shoes: SHOES, quietDays: QUIET_DAYS, accuracy: ACCURACY, slugs: SLUGS, seed: SEED, alarm: ALARM, indexedShoes: INDEXED_SHOES },
      ...report,
      falseAlarms: {
        count: falseAlarms.length,
        honestPatronShoes,
        per10k: (falseAlarms.length / honestPatronShoes) * 10_000,
        upper95per10k: hi * 10_000,
        byStyle,
      },
      innocentDealers: { count: innocent.length, dealerShifts, per10k: (innocent.length / dealerShifts) * 10_000, upper95per10k: dealerHi * 10_000 },
      luckyRuns: { count: luckyRuns, shoes: shoesDealt },
      coups,
      seconds,
      surveySeconds,
    })}`,
  );
}

function countKinds(kinds: string[]) {
  const out: Record<string, number> = {};
  for (const k of kinds) out[k] = (out[k] ?? 0) + 1;
  return out;
}

main();
