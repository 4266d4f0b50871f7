import {
  BetType,
  burnCountOf,
  Card,
  dealPuntoBanco,
  DeviceEvent,
  DeviceSlot,
  evaluateCoup,
  formatCard,
  offeredBets,
  Random,
  RuleSet,
  seededRandom,
  shuffledShoe,
} from '../../src/domain';

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

export function playShoe(rules: RuleSet, seed: number, decks = rules.decks, maxCoups = Infinity): { events: DeviceEvent[]; coups: DealtCoup[] } {
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

/** A report as the device protocol carries it (numbers where the domain has bigints), with its sequence number. */
export function onTheWire(e: DeviceEvent, seq: number): Record<string, unknown> {
  if (e.type === 'BET_DETECTED') return { seq, ...e, chips: e.chips.map((c) => ({ ...c, denomination: Number(c.denomination) })) };
  return { seq, ...e };
}
