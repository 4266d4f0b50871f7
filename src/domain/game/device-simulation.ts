import { burnCountOf, Card, formatCard } from './cards';
import { DeviceEvent, DeviceSlot, HoldReason } from './device-reading';
import { BetType, offeredBets, RuleSet } from './rules';
import { dealPuntoBanco, Random, seededRandom, shuffledShoe } from './simulation';
import { evaluateCoup } from './tableau';

/**
 * A seeded shoe as a table's devices report it (issue 51): the shuffle, the burn, then coup by coup
 * the bets the reader sees on seats 1 to 7, the cards slot by slot with the shoe's count, the
 * dealer's button. What each coup was (cards and bets) comes with it, to check what Sabot made of it.
 */
export const DEVICE_SEATS = 7;
const CHIPS = [100_00n, 500_00n, 1_000_00n, 5_000_00n];

export interface DealtCoup {
  player: Card[];
  banker: Card[];
  bets: { seat: number; betType: BetType; amount: bigint }[];
  events: DeviceEvent[];
}

export function deviceShoe(rules: RuleSet, seed: number, decks = rules.decks, maxCoups = Infinity): { events: DeviceEvent[]; coups: DealtCoup[] } {
  const random: Random = seededRandom(seed);
  const shoe = shuffledShoe(decks, random);
  const events: DeviceEvent[] = [{ type: 'SHOE_SHUFFLED', decks }];
  let drawn = 0;
  const card = (slot: DeviceSlot, c: Card): DeviceEvent => ({ type: 'CARD_DEALT', slot, card: formatCard(c), drawn: ++drawn });
  // The first card is shown and that many more burnt, as the house rule goes.
  const burn = burnCountOf(shoe[0]);
  for (let i = 0; i <= burn; i++) events.push(card('BURN', shoe[i]));
  let at = burn + 1;
  const cut = shoe.length - 16;
  const offered = offeredBets(rules);
  const coups: DealtCoup[] = [];
  while (at < cut && coups.length < maxCoups) {
    const dealt = dealPuntoBanco(shoe, at);
    if (!dealt) break;
    const coupEvents: DeviceEvent[] = [];
    const bets: DealtCoup['bets'] = [];
    const used = new Set<string>();
    for (let n = Math.floor(random() * 6); n > 0; n--) {
      const seat = 1 + Math.floor(random() * DEVICE_SEATS);
      const betType = offered[Math.floor(random() * offered.length)];
      if (used.has(`${seat}:${betType}`)) continue;
      used.add(`${seat}:${betType}`);
      const chips = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => ({
        serial: `S${seed}-${at}-${seat}-${i}`,
        denomination: CHIPS[Math.floor(random() * CHIPS.length)],
        chipSet: 'HKD-2026',
      }));
      coupEvents.push({ type: 'BET_DETECTED', seat, betType, chips });
      bets.push({ seat, betType, amount: chips.reduce((a, c) => a + c.denomination, 0n) });
    }
    const [p, b] = [dealt.player, dealt.banker];
    coupEvents.push(card('P1', p[0]), card('B1', b[0]), card('P2', p[1]), card('B2', b[1]));
    if (p[2] !== undefined) coupEvents.push(card('P3', p[2]));
    if (b[2] !== undefined) coupEvents.push(card('B3', b[2]));
    coupEvents.push({ type: 'RESULT_CONFIRMED', winner: evaluateCoup(rules.variant, { player: p, banker: b }).winner });
    events.push(...coupEvents);
    coups.push({ player: p, banker: b, bets, events: coupEvents });
    at += dealt.used;
  }
  return { events, coups };
}

/** One fault put into a coup's events: the events with it, and the hold it must give. */
export type DeviceFault = (coup: readonly DeviceEvent[]) => { events: DeviceEvent[]; reason: HoldReason | null } | null;
/** Where the cards are among a coup's reports. */
export const cardsOf = (events: readonly DeviceEvent[]) => events.flatMap((e, i) => (e.type === 'CARD_DEALT' ? [i] : []));
const shifted = (events: readonly DeviceEvent[], from: number, by: number): DeviceEvent[] =>
  events.map((e, i) => (i >= from && e.type === 'CARD_DEALT' ? { ...e, drawn: e.drawn + by } : e));

/**
 * The faults a table's devices make, each put into one coup's reports, with the hold it must give:
 * what the simulator injects (npm run sim:table) and the domain spec checks. Null where the coup
 * cannot show it (no third card to press the button before).
 */
export const DEVICE_FAULTS: Readonly<Record<string, DeviceFault>> = {
  'a card dropped': (coup) => {
    const [, second] = cardsOf(coup);
    return { events: coup.filter((_, i) => i !== second), reason: 'CARD_SKIPPED' };
  },
  'a card read twice': (coup) => {
    const [first] = cardsOf(coup);
    return { events: [...coup.slice(0, first + 1), coup[first], ...coup.slice(first + 1)], reason: 'CARD_READ_TWICE' };
  },
  'two cards reported out of their turn': (coup) => {
    const [, second, third] = cardsOf(coup);
    const e = [...coup];
    [e[second], e[third]] = [e[third], e[second]];
    return { events: e, reason: 'CARD_SKIPPED' };
  },
  'a burn read as dealt': (coup) => {
    const [first] = cardsOf(coup);
    const burnt: DeviceEvent = { ...(coup[first] as DeviceEvent & { type: 'CARD_DEALT' }), slot: 'P1' };
    return { events: [...coup.slice(0, first), burnt, ...shifted(coup, first, 1).slice(first)], reason: 'CARD_OUT_OF_ORDER' };
  },
  'the button pressed before the third card': (coup) => {
    const cards = cardsOf(coup);
    if (cards.length < 5) return null;
    const button = coup[coup.length - 1];
    const last = cards[cards.length - 1];
    return { events: [...coup.slice(0, last), button, ...coup.slice(last, -1)], reason: 'RESULT_BEFORE_COMPLETE' };
  },
  'the wrong button': (coup) => {
    const button = coup[coup.length - 1] as DeviceEvent & { type: 'RESULT_CONFIRMED' };
    const wrong = button.winner === 'PLAYER' ? 'BANKER' : 'PLAYER';
    return { events: [...coup.slice(0, -1), { type: 'RESULT_CONFIRMED', winner: wrong }], reason: 'RESULT_DISAGREES' };
  },
  // Not a fault of the coup: the reader reads the same chips again after restarting. Nothing is held.
  'the reader restarting mid-coup': (coup) => {
    const [first] = cardsOf(coup);
    const bets = coup.filter((e) => e.type === 'BET_DETECTED');
    return { events: [...coup.slice(0, first + 2), ...bets, ...coup.slice(first + 2)], reason: null };
  },
  'a bet moved after the first card': (coup) => {
    const [first] = cardsOf(coup);
    const late: DeviceEvent = { type: 'BET_DETECTED', seat: 1, betType: 'PLAYER', chips: [{ serial: 'LATE-1', denomination: 999_00n, chipSet: 'HKD-2026' }] };
    return { events: [...coup.slice(0, first + 2), late, ...coup.slice(first + 2)], reason: 'BET_AFTER_CARDS' };
  },
};
