import { dealFrom, newShoe, parseCards, returnToShoe, ShoeState } from '../../domain';
import { Finding, Queryable } from './verification';

/**
 * An open shoe's running state (what is left of each card, how many are out, its coup numbers, the
 * coup taking bets, the last coup once the cut card came out) is the pit's working copy, moved by
 * every coup and left out of the shoe's seal while it is open (src/foundation/ledger/seals.ts). It is rebuilt
 * here from the shoe's proven records with the engine's own rules: its burn and cut card (sealed),
 * its coups' cards in the order they were dealt (rebuilt from their entries), bank coups (sealed),
 * and voids returning a coup's cards (sealed), in the order of their times.
 */
interface OpenShoe {
  id: string;
  decks: number;
  burn_cards: string[];
  cut_card_position: number | null;
  remaining: number[];
  cards_dealt: number;
  coup_count: number;
  open_coup_id: string | null;
  last_coup_number: number | null;
}

interface ShoeEvent {
  shoe_id: string;
  kind: 'deal' | 'return';
  number: number;
  cards: string[];
  at: Date;
}

export async function checkOpenShoes(db: Queryable, perCheck = 5): Promise<Finding[]> {
  const shoes = (
    await db.query<OpenShoe>(
      // A shoe some of whose coups left with a month detached to the archive cannot be dealt again here.
      `SELECT id::text, decks, burn_cards, cut_card_position, remaining, cards_dealt, coup_count, open_coup_id::text, last_coup_number FROM shoes
       WHERE status = 'OPEN' AND NOT EXISTS (SELECT 1 FROM ledger_months_detached d WHERE d.month + interval '1 month' > opened_at - interval '1 day')`,
    )
  ).rows;
  if (shoes.length === 0) return [];
  const ids = shoes.map((s) => s.id);
  const events = (
    await db.query<ShoeEvent>(
      `SELECT c.shoe_id::text, 'deal' AS kind, c.number, c.player_cards || c.banker_cards AS cards, c.settled_at AS at
       FROM coups c WHERE c.shoe_id = ANY ($1::uuid[]) AND c.status = 'SETTLED'
     UNION ALL
     SELECT c.shoe_id::text, 'return', c.number, c.player_cards || c.banker_cards, v.created_at
       FROM coup_voids v JOIN coups c ON c.id = v.coup_id WHERE c.shoe_id = ANY ($1::uuid[]) AND c.status = 'SETTLED' AND coalesce(v.cards_returned, true)
     UNION ALL
     SELECT b.shoe_id::text, 'deal', b.number, ARRAY(SELECT jsonb_array_elements_text(h) FROM jsonb_each(b.cards) AS x(k, h)), b.settled_at
       FROM bank_coups b WHERE b.shoe_id = ANY ($1::uuid[])
     ORDER BY 5, 2, 3`,
      [ids],
    )
  ).rows;
  const numbers = new Map(
    (
      await db.query<{ shoe_id: string; top: number; open: string | null }>(
        `SELECT s.id::text AS shoe_id,
              greatest((SELECT max(number) FROM coups c WHERE c.shoe_id = s.id), (SELECT max(number) FROM bank_coups b WHERE b.shoe_id = s.id), 0) AS top,
              (SELECT c.id::text FROM coups c WHERE c.shoe_id = s.id AND c.status = 'BETTING' AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)) AS open
       FROM shoes s WHERE s.id = ANY ($1::uuid[])`,
        [ids],
      )
    ).rows.map((r) => [r.shoe_id, r]),
  );
  const out: Finding[] = [];
  for (const s of shoes) {
    let start: { remaining: number[]; cardsDealt: number };
    try {
      start = newShoe(s.decks, parseCards(s.burn_cards), s.cut_card_position);
    } catch (e) {
      out.push({ stream: null, seq: null, id: s.id, reason: `shoes ${s.id}: its burn and cut card make no shoe (${(e as Error).message})` });
      continue;
    }
    let state: ShoeState = { decks: s.decks, ...start, cutCardPosition: s.cut_card_position, coupCount: 0, openCoupId: null, lastCoupNumber: null };
    try {
      for (const e of events.filter((x) => x.shoe_id === s.id)) {
        const cards = parseCards(e.cards);
        if (e.kind === 'deal') {
          const dealt = dealFrom(state, e.number, cards);
          state = { ...state, remaining: dealt.remaining, cardsDealt: dealt.cardsDealt, lastCoupNumber: dealt.lastCoupNumber ?? state.lastCoupNumber };
        } else state = { ...state, ...returnToShoe(state, cards) };
      }
    } catch (e) {
      out.push({ stream: null, seq: null, id: s.id, reason: `shoes ${s.id}: its coups cannot be dealt from it again (${(e as Error).message})` });
      continue;
    }
    const n = numbers.get(s.id)!;
    const expected: [string, unknown, unknown][] = [
      ['remaining', s.remaining.join(','), state.remaining.join(',')],
      ['cards_dealt', s.cards_dealt, state.cardsDealt],
      ['coup_count', s.coup_count, Number(n.top)],
      ['open_coup_id', s.open_coup_id, n.open],
      ['last_coup_number', s.last_coup_number, state.lastCoupNumber],
    ];
    const off = expected.filter(([, held, rebuilt]) => held !== rebuilt).map(([c]) => c);
    if (off.length)
      out.push({ stream: null, seq: null, id: s.id, reason: `shoes ${s.id}: its ${off.join(', ')} differ from what its coups, banks and voids leave` });
  }
  return out.slice(0, perCheck);
}
