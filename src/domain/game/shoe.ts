import { burnCountOf, Card, CARDS_PER_DECK, formatCard } from './cards';
import { fullShoe, removeCards } from './odds';
import { DomainError } from '../errors';

/**
 * The shoe's rules: the burn, the cut card, the last coup, and cards leaving the shoe.
 * (docs/domain.md §1; specs in test/domain/game/shoe-rules.spec.ts.)
 */

/** A shoe as its rules see it: what is left in it, how far it has been dealt, where the cut card lies. */
export interface ShoeState {
  readonly decks: number;
  /** Cards left of each of the 52 kinds. */
  readonly remaining: readonly number[];
  /** Cards out of the shoe: the burn and every coup's. */
  readonly cardsDealt: number;
  /** The cut card's position counted from the back of the shoe; null when none was recorded. */
  readonly cutCardPosition: number | null;
  /** Coups dealt (casino and bank coups share the numbering). */
  readonly coupCount: number;
  /** A coup taking bets, whose cards are still to come. */
  readonly openCoupId: string | null;
  /** Set once the cut card has come out: the number of the shoe's last coup. */
  readonly lastCoupNumber: number | null;
}

/**
 * A new shoe: the burn (the first card face up, then as many face down as its value, 10 for tens
 * and faces; recorded as that card alone or with every burned card) and the cut card, which must
 * lie within the cards left after the burn.
 */
export function newShoe(decks: number, burn: readonly Card[], cutCardPosition: number | null): { remaining: number[]; cardsDealt: number } {
  const size = decks * CARDS_PER_DECK;
  let cardsDealt = 0;
  if (burn.length > 0) {
    const burned = burnCountOf(burn[0]);
    if (burn.length !== 1 && burn.length !== 1 + burned) {
      throw new DomainError(
        'INVALID_SHOE',
        `The face-up burn card ${formatCard(burn[0])} burns ${burned} more: record it alone or with all ${burned} burned cards`,
      );
    }
    cardsDealt = 1 + burned;
  }
  if (cutCardPosition !== null && cutCardPosition >= size - cardsDealt) {
    throw new DomainError('INVALID_SHOE', `The cut card must lie within the ${size - cardsDealt} cards left after the burn`);
  }
  return { remaining: removeCards(fullShoe(decks), burn), cardsDealt };
}

/**
 * The shoe's next coup number, if it may deal one: no coup taking bets, and not past the last coup.
 * `expected`: the number the terminal recorded the coup as (sent by a terminal that recorded it
 * offline); another number means another terminal recorded that coup first, and this one is refused
 * rather than recorded as a second coup.
 */
export function nextCoupNumber(shoe: ShoeState, expected?: number): number {
  if (shoe.openCoupId) throw new DomainError('COUP_IN_PROGRESS', `Coup ${shoe.coupCount} is still taking bets: record its cards or void it first`);
  const number = shoe.coupCount + 1;
  if (expected !== undefined && expected !== number) {
    throw new DomainError(
      'COUP_NUMBER_TAKEN',
      expected < number
        ? `Coup ${expected} of this shoe is already recorded (the next is coup ${number}): another terminal recorded it first`
        : `The next coup of this shoe is coup ${number}, not ${expected}: a coup before it was not recorded`,
    );
  }
  if (shoe.lastCoupNumber !== null && number > shoe.lastCoupNumber) {
    throw new DomainError('SHOE_EXHAUSTED', `The cut card has come out: coup ${shoe.lastCoupNumber} was the last of this shoe`);
  }
  return number;
}

/** How far ahead of the service's clock a terminal's clock may run: a coup recorded "later" than this after it arrived is impossible. */
export const TERMINAL_CLOCK_SKEW_MS = 120_000;

/**
 * How late a coup may reach the service after its terminal recorded it and still count as sent when
 * recorded: later, it was recorded while the service could not be reached (or its answer was lost)
 * and the exception report lists it with its delay.
 */
export const SENT_LATE_MS = 30_000;

/**
 * The moment a terminal recorded a coup (the screens send it with every coup), checked: not after it
 * arrived (beyond the clocks' skew), not before its shoe was opened. Answers it when the coup
 * arrived SENT_LATE_MS or more after it (recorded offline), else null: sent when recorded.
 */
export function recordedOfflineAt(recordedAt: string | undefined, arrived: Date, shoeOpenedAt: Date): Date | null {
  if (recordedAt === undefined) return null;
  const at = new Date(recordedAt);
  if (at.getTime() > arrived.getTime() + TERMINAL_CLOCK_SKEW_MS)
    throw new DomainError(
      'COUP_TIME_IMPOSSIBLE',
      `The coup was recorded at ${recordedAt}, after it arrived (${arrived.toISOString()}): check the terminal's clock`,
    );
  if (at.getTime() < shoeOpenedAt.getTime())
    throw new DomainError('COUP_TIME_IMPOSSIBLE', `The coup was recorded at ${recordedAt}, before its shoe was opened (${shoeOpenedAt.toISOString()})`);
  return arrived.getTime() - at.getTime() >= SENT_LATE_MS ? at : null;
}

/**
 * A coup's cards leaving the shoe: the composition left, the count dealt, and, when these cards
 * reach the cut card, the number of the shoe's last coup (the one after this: the coup in which the
 * cut card comes out is played to its end, and one more is dealt).
 */
export function dealFrom(
  shoe: ShoeState,
  coupNumber: number,
  cards: readonly Card[],
): { remaining: number[]; cardsDealt: number; lastCoupNumber: number | null } {
  const left = shoe.decks * CARDS_PER_DECK - shoe.cardsDealt;
  if (cards.length > left) throw new DomainError('SHOE_EXHAUSTED', `Only ${left} card(s) are left in the shoe; this coup records ${cards.length}`);
  const remaining = removeCards(shoe.remaining, cards);
  const cardsDealt = shoe.cardsDealt + cards.length;
  const cutIndex = shoe.cutCardPosition === null ? null : shoe.decks * CARDS_PER_DECK - shoe.cutCardPosition;
  const lastCoupNumber = shoe.lastCoupNumber === null && cutIndex !== null && cardsDealt >= cutIndex ? coupNumber + 1 : null;
  return { remaining, cardsDealt, lastCoupNumber };
}

/** A voided coup's cards going back into the shoe. */
export function returnToShoe(shoe: Pick<ShoeState, 'remaining' | 'cardsDealt'>, cards: readonly Card[]): { remaining: number[]; cardsDealt: number } {
  const remaining = [...shoe.remaining];
  for (const c of cards) remaining[c] += 1;
  return { remaining, cardsDealt: shoe.cardsDealt - cards.length };
}
