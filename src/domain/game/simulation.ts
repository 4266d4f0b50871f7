import { Card, CARDS_PER_DECK, handTotal, pointOf } from './cards';
import { puntoBancoBankerDraw, puntoBancoPlayerDraw } from './tableau';

/** A source of uniform numbers in [0, 1): Math.random, or a seeded generator for reproducible runs. */
export type Random = () => number;

/** A seeded generator (mulberry32), for simulations and benchmarks that must be repeatable. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `decks` decks shuffled (Fisher–Yates). */
export function shuffledShoe(decks: number, random: Random): Card[] {
  const cards: Card[] = [];
  for (let d = 0; d < decks; d++) for (let c = 0; c < CARDS_PER_DECK; c++) cards.push(c);
  for (let i = cards.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

/**
 * Deals one punto banco coup from the top of `cards` starting at `from`, in dealing order
 * (Player, Banker, Player, Banker, then third cards as the tableau demands).
 * Returns the hands and how many cards were used, or null if the shoe runs out.
 */
export function dealPuntoBanco(cards: readonly Card[], from: number): { player: Card[]; banker: Card[]; used: number } | null {
  if (from + 6 > cards.length) return null;
  const player = [cards[from], cards[from + 2]];
  const banker = [cards[from + 1], cards[from + 3]];
  let next = from + 4;
  const p2 = handTotal(player);
  const b2 = handTotal(banker);
  if (p2 < 8 && b2 < 8) {
    let third: number | null = null;
    if (puntoBancoPlayerDraw(p2) === 'DRAW') {
      player.push(cards[next++]);
      third = pointOf(player[2]);
    }
    if (puntoBancoBankerDraw(b2, third) === 'DRAW') banker.push(cards[next++]);
  }
  return { player, banker, used: next - from };
}
