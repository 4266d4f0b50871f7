import { ALL_CARDS, Card, handTotal, MAX_DECKS, MIN_DECKS, parseCard, pointOf } from './cards';
import { BetType, isOffered, RuleSet } from './rules';
import { puntoBancoBankerDraw, puntoBancoPlayerDraw, Winner, outcomeOf } from './tableau';

/**
 * A coup as the table's devices report it (issue 51): the card-reading shoe says each card as it
 * leaves the shoe, in which slot, and how many it has drawn since the shuffle; the dealer's button
 * says the result; the table's reader says the chips on each betting spot. Sabot judges what they
 * report before anything is settled: the cards must come in the order the tableau deals them, none
 * missed or read twice, none the shoe cannot hold; the button must agree with the cards; no bet may
 * change once the first card is out. What passes is a coup (cards and wagers) for the one settlement
 * path the keyed coup takes; what does not is held with a named reason for the supervisor, and
 * nothing of it is settled. Pure: the gateway keeps the state and the events; this only judges.
 *
 * Casino-banked games only (punto banco's tableau forces every draw, so the reader knows when a coup
 * is complete); a player-banked game's optional draws are the players' choice and are keyed.
 */

/** Where a card goes: Player's and Banker's first, second and third cards, or burnt face down. */
export const DEVICE_SLOTS = ['P1', 'B1', 'P2', 'B2', 'P3', 'B3', 'BURN'] as const;
export type DeviceSlot = (typeof DEVICE_SLOTS)[number];

/** A chip as the table's reader reads it: its serial, its face value in minor units, its set. */
export interface ChipRead {
  readonly serial: string;
  readonly denomination: bigint;
  readonly chipSet: string;
}

/** What the table's devices report, as the gateway hands it on (each from one device, in its order). */
export type DeviceEvent =
  | { readonly type: 'SHOE_SHUFFLED'; readonly decks: number }
  | { readonly type: 'CARD_DEALT'; readonly slot: DeviceSlot; readonly card: string; readonly drawn: number }
  | { readonly type: 'RESULT_CONFIRMED'; readonly winner: Winner }
  | { readonly type: 'COUP_CANCELLED' }
  | { readonly type: 'BET_DETECTED'; readonly seat: number; readonly betType: BetType; readonly chips: readonly ChipRead[] };

/** Why a coup is held for the supervisor rather than settled. */
export const HOLD_REASONS = [
  /** A card before the shoe was shuffled (its composition unknown). */
  'NO_SHOE',
  /** A card for a slot the tableau does not deal next (reordered, or a burn read as dealt). */
  'CARD_OUT_OF_ORDER',
  /** The shoe's count skipped: a card drawn and never reported, or reported out of its turn. */
  'CARD_SKIPPED',
  /** The shoe's count did not move on: a card reported twice. */
  'CARD_READ_TWICE',
  /** More of a card than the shoe's decks hold. */
  'CARD_NOT_IN_SHOE',
  /** A burn while a coup's cards are out. */
  'BURN_MID_COUP',
  /** The result pressed before the tableau's last card. */
  'RESULT_BEFORE_COMPLETE',
  /** The result pressed is not the cards'. */
  'RESULT_DISAGREES',
  /** A card after the tableau's last one. */
  'CARD_AFTER_COMPLETE',
  /** A bet placed, changed or taken away once the first card was out. */
  'BET_AFTER_CARDS',
  /** A bet the table does not offer, or on a seat it does not have. */
  'BET_NOT_OFFERED',
  /** A coup the judge passed that the keyed coup's path refused (no open shoe, a bet over its limit): the gateway's. */
  'SETTLEMENT_REFUSED',
] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/** A bet on one spot, as the reader last read it before the cards. */
export interface SpotBet {
  readonly seat: number;
  readonly betType: BetType;
  readonly amount: bigint;
  readonly chips: readonly ChipRead[];
}

/** The reader's memory of one table: the shoe's composition and count, and the coup in progress. */
export interface ReadingState {
  /** How many of each of the 52 cards are still in the shoe; null before the first shuffle. */
  readonly remaining: readonly number[] | null;
  /** Cards drawn from the shoe since its shuffle, burns included (the shoe's own count). */
  readonly drawn: number;
  /** The coup's cards so far, in the slots they were dealt to. */
  readonly cards: Readonly<Partial<Record<DeviceSlot, Card>>>;
  /** The bets on the spots, keyed `seat:betType`. */
  readonly bets: Readonly<Record<string, SpotBet>>;
  /** Why the coup in progress is held (nothing of it is settled until it is cancelled), or null. */
  readonly held: { readonly reason: HoldReason; readonly detail: string } | null;
}

export const NO_READING: ReadingState = { remaining: null, drawn: 0, cards: {}, bets: {}, held: null };

/** What judging one event gives: a coup to settle, a hold to show, or nothing yet. */
export type ReadingOutput =
  | { readonly kind: 'COUP'; readonly player: Card[]; readonly banker: Card[]; readonly wagers: SpotBet[] }
  | { readonly kind: 'HOLD'; readonly reason: HoldReason; readonly detail: string };

const HAND_ORDER: readonly DeviceSlot[] = ['P1', 'B1', 'P2', 'B2'];

/** The slot the tableau deals next to the coup's cards so far, or null when the coup is complete. */
export function nextSlot(cards: Readonly<Partial<Record<DeviceSlot, Card>>>): DeviceSlot | null {
  for (const s of HAND_ORDER) if (cards[s] === undefined) return s;
  const p2 = handTotal([cards.P1!, cards.P2!]);
  const b2 = handTotal([cards.B1!, cards.B2!]);
  if (p2 >= 8 || b2 >= 8) return null;
  if (puntoBancoPlayerDraw(p2) === 'DRAW' && cards.P3 === undefined) return 'P3';
  const third = cards.P3 === undefined ? null : pointOf(cards.P3);
  if (puntoBancoBankerDraw(b2, third) === 'DRAW' && cards.B3 === undefined) return 'B3';
  return null;
}

const handsOf = (cards: Readonly<Partial<Record<DeviceSlot, Card>>>) => ({
  player: (['P1', 'P2', 'P3'] as const).map((s) => cards[s]).filter((c): c is Card => c !== undefined),
  banker: (['B1', 'B2', 'B3'] as const).map((s) => cards[s]).filter((c): c is Card => c !== undefined),
});

const spotKey = (seat: number, betType: string) => `${seat}:${betType}`;

/**
 * Judges one event of a table's devices against what came before (`state`, for the table's `rules`
 * and `seats`): the state after it, and what it gives. Never throws for what a device reports: a
 * report that cannot be true holds the coup, naming why.
 */
export function readDeviceEvent(state: ReadingState, event: DeviceEvent, rules: RuleSet, seats: number): { state: ReadingState; out: ReadingOutput | null } {
  const hold = (reason: HoldReason, detail: string, next: Partial<ReadingState> = {}) => {
    const held = { reason, detail };
    return { state: { ...state, ...next, held }, out: { kind: 'HOLD', reason, detail } as const };
  };
  switch (event.type) {
    case 'SHOE_SHUFFLED': {
      const decks = Number.isInteger(event.decks) && event.decks >= MIN_DECKS && event.decks <= MAX_DECKS ? event.decks : rules.decks;
      return { state: { ...NO_READING, remaining: ALL_CARDS.map(() => decks) }, out: null };
    }
    case 'COUP_CANCELLED':
      // The coup's cards stay out of the shoe (they were dealt); its bets go back to the players.
      return { state: { ...state, cards: {}, bets: {}, held: null }, out: null };
    case 'BET_DETECTED': {
      if (state.held) return { state, out: null };
      const amount = event.chips.reduce((a, c) => a + c.denomination, 0n);
      const key = spotKey(event.seat, event.betType);
      const before = state.bets[key]?.amount ?? 0n;
      const started = Object.keys(state.cards).length > 0;
      if (started && amount !== before)
        return hold('BET_AFTER_CARDS', `Seat ${event.seat} ${event.betType}: ${before} before the first card, ${amount} read after it`);
      if (!Number.isInteger(event.seat) || event.seat < 1 || event.seat > seats || !isOffered(rules, event.betType))
        return hold('BET_NOT_OFFERED', `Seat ${event.seat} ${event.betType}: not a spot of this table`);
      const bets = { ...state.bets };
      if (amount === 0n) delete bets[key];
      else bets[key] = { seat: event.seat, betType: event.betType, amount, chips: event.chips };
      return { state: { ...state, bets }, out: null };
    }
    case 'CARD_DEALT': {
      if (state.remaining === null) return state.held ? { state, out: null } : hold('NO_SHOE', `A card (${event.card}) before the shoe was shuffled`);
      let card: Card | null = null;
      try {
        card = parseCard(event.card);
      } catch {
        card = null;
      }
      // The shoe's count: a card missed or read twice shows there, whatever the slot says. One a
      // held coup already shows is counted, not held again: the coup names its first reason.
      const again = !Number.isInteger(event.drawn) || event.drawn <= state.drawn;
      const inShoe = card !== null && state.remaining[card] > 0;
      const counted = again ? {} : { drawn: event.drawn, remaining: inShoe ? state.remaining.map((n, i) => (i === card ? n - 1 : n)) : state.remaining };
      if (state.held) return { state: { ...state, ...counted }, out: null };
      if (again) return hold('CARD_READ_TWICE', `The shoe counts ${event.drawn} cards drawn, as it had already: ${event.card} reported again`);
      if (card === null) return hold('CARD_NOT_IN_SHOE', `"${event.card}" is not a card`, counted);
      if (!inShoe) return hold('CARD_NOT_IN_SHOE', `${event.card}: no more of it is left in the shoe`, counted);
      if (event.drawn > state.drawn + 1)
        return hold('CARD_SKIPPED', `The shoe counts ${event.drawn} cards drawn; ${state.drawn + 1} were reported with this one`, counted);
      const started = Object.keys(state.cards).length > 0;
      if (event.slot === 'BURN') {
        if (started) return hold('BURN_MID_COUP', `${event.card} burnt while the coup's cards are out`, counted);
        return { state: { ...state, ...counted }, out: null };
      }
      const expected = nextSlot(state.cards);
      if (expected === null) return hold('CARD_AFTER_COMPLETE', `${event.card} to ${event.slot} after the tableau's last card`, counted);
      if (event.slot !== expected) return hold('CARD_OUT_OF_ORDER', `${event.card} to ${event.slot}; the tableau deals ${expected} next`, counted);
      return { state: { ...state, ...counted, cards: { ...state.cards, [event.slot]: card } }, out: null };
    }
    case 'RESULT_CONFIRMED': {
      if (state.held) return { state, out: null };
      const expected = nextSlot(state.cards);
      if (expected !== null) return hold('RESULT_BEFORE_COMPLETE', `${event.winner} pressed before ${expected} was dealt`);
      const { player, banker } = handsOf(state.cards);
      const winner = outcomeOf(player, banker).winner;
      if (winner !== event.winner) return hold('RESULT_DISAGREES', `${event.winner} pressed; the cards give ${winner}`);
      const wagers = Object.values(state.bets).sort((a, b) => a.seat - b.seat || a.betType.localeCompare(b.betType));
      return { state: { ...state, cards: {}, bets: {}, held: null }, out: { kind: 'COUP', player, banker, wagers } };
    }
  }
}
