import { useT, Words } from './i18n';

const en = {
  rank: { A: 'ace', J: 'jack', Q: 'queen', K: 'king' } as Record<string, string>,
  suit: { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' } as Record<string, string>,
  card: (rank: string, suit: string) => `${rank} of ${suit}`,
};
const CARD_WORDS: Words<typeof en> = {
  en,
  'zh-Hant': {
    rank: { A: 'A', J: 'J', Q: 'Q', K: 'K' },
    suit: { S: '黑桃', H: '紅心', D: '方塊', C: '梅花' },
    card: (rank, suit) => `${suit} ${rank}`,
  },
  'zh-Hans': {
    rank: { A: 'A', J: 'J', Q: 'Q', K: 'K' },
    suit: { S: '黑桃', H: '红心', D: '方块', C: '梅花' },
    card: (rank, suit) => `${suit} ${rank}`,
  },
};

const CARD = /^(10|T|[2-9AJQK])([SHDC])$/;
const SUITS: Record<string, string> = { S: '♠', H: '♥', D: '♦', C: '♣' };

/**
 * Card faces as dealt: the rank and suit as printed on the card in every language; only the spoken
 * name is translated. The scoreboard's last coups and the table-side display's share it.
 */
export function Cards({ cards }: { cards: readonly string[] }) {
  const t = useT(CARD_WORDS);
  return (
    <span class="cards">
      {cards.map((c, i) => {
        const m = CARD.exec(c);
        if (!m) return <span key={i}>{c}</span>;
        return (
          <span
            key={i}
            class={`card ${m[2] === 'H' || m[2] === 'D' ? 'red' : ''}`}
            data-card={c}
            aria-label={t.card(m[1] === 'T' ? '10' : (t.rank[m[1]] ?? m[1]), t.suit[m[2]])}
          >
            {m[1] === 'T' ? '10' : m[1]}
            {SUITS[m[2]]}
          </span>
        );
      })}
    </span>
  );
}
