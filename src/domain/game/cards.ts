import { DomainError } from '../errors';

/** Ranks in wire notation, in index order: A=0 … K=12. */
export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'] as const;
/** Suits in wire notation, in index order. */
export const SUITS = ['S', 'H', 'D', 'C'] as const;
export type Rank = (typeof RANKS)[number];
export type Suit = (typeof SUITS)[number];

/** Number of distinct cards in one deck. */
export const CARDS_PER_DECK = 52;
export const MIN_DECKS = 1;
export const MAX_DECKS = 8;

/**
 * A card, as an index 0..51: rank index × 4 + suit index. Indices let a shoe composition be a
 * plain array of 52 counts.
 */
export type Card = number;

/** The wire notation of a card, e.g. `9H`, `TD`, `KS`. */
export const CARD_PATTERN = /^[A2-9TJQK][SHDC]$/;

export function parseCard(text: string): Card {
  if (typeof text !== 'string' || !CARD_PATTERN.test(text)) {
    throw new DomainError('INVALID_CARD', `"${String(text).slice(0, 8)}" is not a card: write rank (A 2-9 T J Q K) then suit (S H D C), e.g. 9H or TD`, {
      card: String(text).slice(0, 8),
    });
  }
  return RANKS.indexOf(text[0] as Rank) * 4 + SUITS.indexOf(text[1] as Suit);
}

export function parseCards(texts: readonly string[]): Card[] {
  return texts.map(parseCard);
}

export function formatCard(card: Card): string {
  return RANKS[rankOf(card)] + SUITS[suitOf(card)];
}

export function rankOf(card: Card): number {
  return card >> 2;
}

export function suitOf(card: Card): number {
  return card & 3;
}

/** Baccarat point value: A=1, 2–9 face value, T/J/Q/K = 0. */
export function pointOf(card: Card): number {
  const rank = rankOf(card);
  return rank >= 9 ? 0 : rank + 1;
}

/** A hand's value: the sum of point values mod 10. */
export function handTotal(cards: readonly Card[]): number {
  let sum = 0;
  for (const c of cards) sum += pointOf(c);
  return sum % 10;
}

/** Value of the burn card: A=1, 2–9 face value, 10 and faces = 10. */
export function burnCountOf(card: Card): number {
  const rank = rankOf(card);
  return rank >= 9 ? 10 : rank + 1;
}

/** All 52 cards of one deck, in index order. */
export const ALL_CARDS: readonly Card[] = Array.from({ length: CARDS_PER_DECK }, (_, i) => i);
