/**
 * npm run sim:surveillance — a simulated casino for the integrity detectors (docs/domain.md §7).
 *
 * Real shuffled 8-deck shoes are dealt through the engine at EZ Baccarat tables (Dragon 7, Panda 8
 * and Tie offered), cut 14 cards from the end, three dealers rotating every 30 coups. Each table
 * plays a session of SHOES shoes with seven patrons; after every shoe each patron's record so far
 * (every coup they played in the session, with the exact odds of the shoe before it) goes through
 * the detectors, and every coup's cards are checked against the table's earlier shoes.
 *
 * Sessions (SESSIONS of each kind, or of the KINDS listed, e.g. KINDS=honest; seeded by SEED so a
 * run repeats):
 * - honest: seven honest patrons of the styles below;
 * - counter: six honest and one who bets Dragon 7 and Panda 8 only when the exact edge favours them;
 * - edge sorter: six honest and one who knows the first card's class (7, 8, 9 or not) with ACCURACY;
 * - false shuffle: six honest, and from the second shoe on, a slug of SLUG cards from the end of the
 *   shoe before is put back unshuffled at a random place;
 * - dealer: six honest and one shown the first card by one of the three dealers.
 * Honest patrons of every session count towards the false alarms.
 *
 * Prints, for each kind, the share of sessions in which the cheat was flagged and when; the false
 * alarms per 10,000 honest patron-shoes with an exact 95 % interval; writes
 * bench/results/surveillance.json.
 */
import { performance } from 'node:perf_hooks';
import {
  BetType,
  burnCountOf,
  Card,
  coupOdds,
  CoupOdds,
  dealPuntoBanco,
  evaluateCoup,
  extendRun,
  Finding,
  fullShoe,
  PlayedCoup,
  pointOf,
  poissonBinomialTail,
  Random,
  removeCards,
  repeatedRunFinding,
  RUN_WINDOW,
  runKeys,
  ruleSet,
  seededRandom,
  settleWager,
  shuffledShoe,
  surveyRecord,
} from '../src/domain';
import { machine, writeJson } from './stats';

const SESSIONS = Number(process.env.SESSIONS ?? 200);
const SHOES = Number(process.env.SHOES ?? 5);
const ACCURACY = Number(process.env.ACCURACY ?? 0.9);
const SLUG = Number(process.env.SLUG ?? 12);
const SEED = Number(process.env.SEED ?? 20261123);
const DECKS = 8;
const CUT = 14;
const DEALER_SHIFT = 30;

const rules = ruleSet({ variant: 'EZ', decks: DECKS, sideBets: ['DRAGON_7', 'PANDA_8'] });

type Bet = { betType: BetType; stake: bigint };
/** What a patron sees before a coup: the coup's odds, the shoe so far, and (for a cheat) more. */
interface Seen {
  readonly odds: CoupOdds;
  readonly history: readonly ('BANKER' | 'PLAYER' | 'TIE')[];
  readonly firstCard: number;
  readonly dealer: number;
}
interface Patron {
  readonly id: string;
  readonly honest: boolean;
  bets(seen: Seen, random: Random): Bet[];
  settled?(net: bigint): void;
}

// ---------------------------------------------------------------------------------------------
// Honest patrons, of many styles.

const units = (n: number) => BigInt(Math.round(n)) * 100n;
const side = (random: Random) => (random() < 0.5 ? 'BANKER' : 'PLAYER');

function flat(id: string, random: Random): Patron {
  const bet = side(random);
  const stake = units(5 + Math.floor(random() * 20));
  return { id, honest: true, bets: () => [{ betType: bet, stake }] };
}

function martingale(id: string, random: Random): Patron {
  const base = units(5 + Math.floor(random() * 5));
  let stake = base;
  return {
    id,
    honest: true,
    bets: (_s, r) => [{ betType: side(r), stake }],
    settled(net) {
      if (net < 0n) stake = stake * 2n > base * 64n ? base : stake * 2n;
      else if (net > 0n) stake = base;
    },
  };
}

function roadChaser(id: string, random: Random): Patron {
  const stake = units(10 + Math.floor(random() * 30));
  return {
    id,
    honest: true,
    bets: (s, r) => {
      const last = s.history.findLast((w) => w !== 'TIE') ?? 'BANKER';
      const bets: Bet[] = [{ betType: last, stake }];
      if (s.history.at(-1) === 'TIE' || r() < 0.05) bets.push({ betType: 'TIE', stake: stake / 5n });
      return bets;
    },
  };
}

function randomSide(id: string, random: Random): Patron {
  const stake = units(10 + Math.floor(random() * 20));
  const often = 0.05 + random() * 0.25;
  return {
    id,
    honest: true,
    bets: (_s, r) => {
      const bets: Bet[] = [{ betType: side(r), stake }];
      for (const b of ['DRAGON_7', 'PANDA_8', 'TIE'] as const) if (r() < often) bets.push({ betType: b, stake: units(1 + Math.floor(r() * 5)) });
      return bets;
    },
  };
}

/** Bets the side bets more and more as the shoe goes on (what the depth strata are for). */
function lateSide(id: string, random: Random): Patron {
  const stake = units(10 + Math.floor(random() * 20));
  return {
    id,
    honest: true,
    bets: (s, r) => {
      const bets: Bet[] = [{ betType: side(r), stake }];
      const often = [0.02, 0.08, 0.2, 0.45][s.odds.depth];
      for (const b of ['DRAGON_7', 'PANDA_8'] as const) if (r() < often) bets.push({ betType: b, stake: units(2 + s.odds.depth * 3) });
      return bets;
    },
  };
}

/** Big stakes, widely varied, sitting out at times. */
function bigPlayer(id: string, random: Random): Patron {
  const scale = 100 + Math.floor(random() * 400);
  return {
    id,
    honest: true,
    bets: (_s, r) => {
      if (r() < 0.2) return [];
      const bets: Bet[] = [{ betType: side(r), stake: units(scale * (1 + Math.floor(r() * 20))) }];
      if (r() < 0.1) bets.push({ betType: r() < 0.5 ? 'DRAGON_7' : 'PANDA_8', stake: units(scale) });
      return bets;
    },
  };
}

const HONEST = [flat, martingale, roadChaser, randomSide, lateSide, bigPlayer];
const honestPatron = (id: string, random: Random) => HONEST[Math.floor(random() * HONEST.length)](id, random);

// ---------------------------------------------------------------------------------------------
// Cheats.

/** Bets Dragon 7 and Panda 8 only when the exact edge of the shoe as it stands favours them. */
function counter(id: string): Patron {
  return {
    id,
    honest: false,
    bets: (s) => {
      const bets: Bet[] = [{ betType: 'BANKER', stake: units(10) }];
      for (const b of ['DRAGON_7', 'PANDA_8'] as const) if (s.odds.chances[b]!.mean > 0) bets.push({ betType: b, stake: units(50) });
      return bets;
    },
  };
}

/** Knows whether the first card is a 7, 8 or 9 (right with ACCURACY): Player big if so, Banker small if not. */
function edgeSorter(id: string): Patron {
  return {
    id,
    honest: false,
    bets: (s, r) => {
      const high = s.firstCard >= 7;
      const thinksHigh = r() < ACCURACY ? high : !high;
      return thinksHigh ? [{ betType: 'PLAYER', stake: units(100) }] : [{ betType: 'BANKER', stake: units(20) }];
    },
  };
}

/** Shown the first card by dealer 0: bets the side it favours, big; otherwise flat on Banker. */
function dealersFriend(id: string): Patron {
  return {
    id,
    honest: false,
    bets: (s) => {
      if (s.dealer !== 0) return [{ betType: 'BANKER', stake: units(20) }];
      const m = s.odds.meanGivenFirst;
      return [{ betType: m.PLAYER[s.firstCard] > m.BANKER[s.firstCard] ? 'PLAYER' : 'BANKER', stake: units(100) }];
    },
  };
}

// ---------------------------------------------------------------------------------------------
// A session at one table.

type Kind = 'honest' | 'counter' | 'edge sorter' | 'false shuffle' | 'dealer';
interface SessionResult {
  honestPatronShoes: number;
  falseAlarms: { patron: string; shoe: number; findings: Finding[] }[];
  /** The cheat flagged: after which shoe (1-based), after how many of the cheat's coups; null if never. */
  flagged: { shoe: number; coups: number; kind: string } | null;
  /** Repeated runs alerted at tables with no false shuffle. */
  shoeFalseAlarms: number;
  shoes: number;
  coups: number;
}

function session(kind: Kind, seed: number): SessionResult {
  const random = seededRandom(seed);
  const patrons: Patron[] = [];
  const cheat = kind === 'counter' ? counter('cheat') : kind === 'edge sorter' ? edgeSorter('cheat') : kind === 'dealer' ? dealersFriend('cheat') : null;
  for (let i = patrons.length; i < 7 - (cheat ? 1 : 0); i++) patrons.push(honestPatron(`honest-${i}`, random));
  if (cheat) patrons.push(cheat);
  const records = new Map<string, PlayedCoup[]>(patrons.map((p) => [p.id, []]));
  const result: SessionResult = { honestPatronShoes: 0, falseAlarms: [], flagged: null, shoeFalseAlarms: 0, shoes: 0, coups: 0 };
  const earlier: { shoeId: string; cards: Card[] }[] = [];
  /** The table's run index: each earlier shoe's windows of RUN_WINDOW cards → (shoe, place). */
  const index = new Map<number, [number, number][]>();
  let indexedPlaces = 0;
  let coupNo = 0;

  for (let shoe = 1; shoe <= SHOES && result.flagged === null; shoe++) {
    let cards = shuffledShoe(DECKS, random);
    if (kind === 'false shuffle' && earlier.length > 0) {
      // The slug: the last SLUG cards the previous shoe dealt, in that order, put back as a block.
      const previous = earlier[earlier.length - 1].cards;
      const slug = previous.slice(previous.length - SLUG);
      const rest = removeOnce(cards, slug);
      const at = Math.floor(random() * (rest.length - SLUG));
      cards = [...rest.slice(0, at), ...slug, ...rest.slice(at)];
    }
    const shoeId = `shoe-${shoe}`;
    let left = fullShoe(DECKS);
    // The burn: the first card, then as many as its value (10 for tens and faces).
    let pos = 1 + burnCountOf(cards[0]);
    left = removeCards(left, cards.slice(0, pos));
    let checkedFrom = 0;
    const reported = new Set<string>();
    const history: ('BANKER' | 'PLAYER' | 'TIE')[] = [];
    const shoeRecord = new Set<string>();
    while (cards.length - pos > CUT) {
      const deal = dealPuntoBanco(cards, pos)!;
      const odds = coupOdds(rules, left);
      const dealer = Math.floor(coupNo / DEALER_SHIFT) % 3;
      const firstCard = pointOf(cards[pos]);
      const outcome = evaluateCoup('EZ', deal);
      const coupId = `c${++coupNo}`;
      for (const patron of patrons) {
        const bets = patron.bets({ odds, history, firstCard, dealer }, random);
        if (bets.length === 0) continue;
        let net = 0n;
        const wagers = bets.map((b) => {
          const s = settleWager(rules, outcome, { betType: b.betType, amount: b.stake });
          net += s.net;
          return { betType: b.betType, stake: b.stake, paid: s.result === 'WIN', net: s.net };
        });
        patron.settled?.(net);
        records.get(patron.id)!.push({ coupId, shoeId, dealerId: `dealer-${dealer}`, odds, firstValue: firstCard, wagers });
        shoeRecord.add(patron.id);
      }
      history.push(outcome.winner);
      left = removeCards(left, [...deal.player, ...deal.banker]);
      pos += deal.used;
      result.coups++;
      // Repeated runs: each window of RUN_WINDOW cards this coup completed, looked up in the
      // table's index of earlier shoes, and a hit extended to its whole run.
      const dealt = cards.slice(0, pos);
      const keys = runKeys(dealt.slice(checkedFrom));
      checkedFrom = Math.max(0, pos - RUN_WINDOW + 1);
      for (let i = 0; i < keys.length; i++) {
        for (const [e, earlierAt] of index.get(keys[i]) ?? []) {
          const at = pos - RUN_WINDOW - (keys.length - 1 - i);
          const run = extendRun(dealt, earlier[e].cards, at, earlierAt);
          const seen = `${e}:${run.earlierAt - run.at}`;
          if (reported.has(seen)) continue;
          reported.add(seen);
          const f = repeatedRunFinding(dealt, run, earlier[e].shoeId, DECKS, indexedPlaces * (cards.length - RUN_WINDOW + 1));
          if (!f.alert) continue;
          if (kind === 'false shuffle') result.flagged ??= { shoe, coups: history.length, kind: 'REPEATED_RUN' };
          else result.shoeFalseAlarms++;
        }
      }
    }
    result.shoes++;
    earlier.push({ shoeId, cards: cards.slice(0, pos) });
    runKeys(cards.slice(0, pos)).forEach((key, at) => index.set(key, [...(index.get(key) ?? []), [earlier.length - 1, at]]));
    indexedPlaces += pos - RUN_WINDOW + 1;
    // The end of the shoe: every patron who played it, on their whole record so far.
    for (const patron of patrons) {
      if (!shoeRecord.has(patron.id)) continue;
      const record = records.get(patron.id)!;
      const alerts = surveyRecord(record).filter((f) => f.alert);
      if (patron.honest) {
        result.honestPatronShoes++;
        if (alerts.length > 0) result.falseAlarms.push({ patron: patron.id, shoe, findings: alerts });
      } else if (alerts.length > 0 && result.flagged === null) {
        result.flagged = { shoe, coups: record.length, kind: alerts.map((a) => a.kind).join(', ') };
      }
    }
  }
  return result;
}

function removeOnce(cards: readonly Card[], take: readonly Card[]): Card[] {
  const out = [...cards];
  for (const c of take) out.splice(out.indexOf(c), 1);
  return out;
}

/** The exact (Clopper–Pearson) 95 % interval of a binomial proportion, by bisection on the tails. */
function clopperPearson(k: number, n: number): [number, number] {
  const tailAtLeast = (p: number, x: number) => poissonBinomialTail(new Array<number>(n).fill(p), x);
  const solve = (f: (p: number) => number) => {
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (f(mid) < 0) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  };
  const lower = k === 0 ? 0 : solve((p) => tailAtLeast(p, k) - 0.025);
  const upper = k === n ? 1 : solve((p) => 0.025 - (1 - tailAtLeast(p, k + 1)));
  return [lower, upper];
}

function main() {
  const t0 = performance.now();
  const all: Kind[] = ['honest', 'counter', 'edge sorter', 'false shuffle', 'dealer'];
  const kinds = process.env.KINDS ? all.filter((k) => process.env.KINDS!.split(',').includes(k)) : all;
  const report: Record<string, unknown> = {};
  let honestPatronShoes = 0;
  const falseAlarms: SessionResult['falseAlarms'] = [];
  let coups = 0;
  let shoes = 0;
  let shoeFalseAlarms = 0;
  console.log(`\nsim:surveillance — ${SESSIONS} sessions of each kind, ${SHOES} shoes each, 7 patrons, EZ Baccarat 8 decks (seed ${SEED})`);
  kinds.forEach((kind) => {
    const k = all.indexOf(kind);
    const flagged: NonNullable<SessionResult['flagged']>[] = [];
    for (let s = 0; s < SESSIONS; s++) {
      const r = session(kind, SEED + k * 1_000_003 + s);
      honestPatronShoes += r.honestPatronShoes;
      falseAlarms.push(...r.falseAlarms);
      coups += r.coups;
      if (kind !== 'false shuffle') {
        shoes += r.shoes;
        shoeFalseAlarms += r.shoeFalseAlarms;
      }
      if (r.flagged) flagged.push(r.flagged);
    }
    if (kind === 'honest') return;
    const byShoe = [1, 2, 3, 4, 5].map((shoe) => flagged.filter((f) => f.shoe <= shoe).length / SESSIONS);
    const coupsToFlag = flagged.map((f) => f.coups).sort((a, b) => a - b);
    const within200 = coupsToFlag.filter((c) => c <= 200).length;
    const median = coupsToFlag.length ? coupsToFlag[Math.floor((coupsToFlag.length - 1) / 2)] : null;
    const share = (x: number) => `${(100 * x).toFixed(1)} %`;
    console.log(
      `${kind.padEnd(14)} flagged in ${share(flagged.length / SESSIONS)} of sessions; by the end of shoe 1, 2, 3: ${byShoe.slice(0, 3).map(share).join(', ')}; ` +
        `the cheat's coups until flagged: median ${median ?? '—'}, max ${coupsToFlag.at(-1) ?? '—'}; within 200 of their coups: ${share(within200 / SESSIONS)}`,
    );
    report[kind] = {
      sessions: SESSIONS,
      flagged: flagged.length,
      flaggedByShoe: byShoe,
      coupsToFlag: { median, max: coupsToFlag.at(-1) ?? null, within200 },
      how: countKinds(flagged.map((f) => f.kind)),
    };
  });
  const [lo, hi] = clopperPearson(falseAlarms.length, honestPatronShoes);
  const per10k = (x: number) => (x * 10_000).toFixed(2);
  console.log(
    `false alarms: ${falseAlarms.length} in ${honestPatronShoes} honest patron-shoes = ${per10k(falseAlarms.length / honestPatronShoes)} per 10,000 (95 % interval ${per10k(lo)}–${per10k(hi)})`,
  );
  console.log(`repeated runs alerted in shoes with no false shuffle: ${shoeFalseAlarms} of ${shoes}`);
  for (const f of falseAlarms.slice(0, 5))
    console.log(`  ${f.patron}, shoe ${f.shoe}: ${f.findings.map((x) => `${x.kind} p=${x.pValue.toExponential(2)}`).join('; ')}`);
  const seconds = (performance.now() - t0) / 1000;
  console.log(`${coups} coups dealt in ${seconds.toFixed(0)} s (${((1000 * seconds) / coups).toFixed(2)} ms a coup, odds and detectors included)`);
  console.log(
    `written ${writeJson('surveillance', {
      when: new Date().toISOString(),
      machine: machine(),
      settings: { sessions: SESSIONS, shoes: SHOES, accuracy: ACCURACY, slug: SLUG, seed: SEED },
      ...report,
      falseAlarms: {
        count: falseAlarms.length,
        honestPatronShoes,
        per10k: (falseAlarms.length / honestPatronShoes) * 10_000,
        interval95per10k: [lo * 10_000, hi * 10_000],
      },
      repeatedRunFalseAlarms: { count: shoeFalseAlarms, shoes },
      coups,
      seconds,
    })}`,
  );
}

function countKinds(kinds: string[]) {
  const out: Record<string, number> = {};
  for (const k of kinds) out[k] = (out[k] ?? 0) + 1;
  return out;
}

main();
