import { burnCountOf, formatCard, handTotal, parseCard, parseCards, pointOf, RANKS, SUITS } from '../../../src/domain';

describe('cards in wire notation', () => {
  it.each([
    ['AS', 1],
    ['2H', 2],
    ['3D', 3],
    ['4C', 4],
    ['5S', 5],
    ['6H', 6],
    ['7D', 7],
    ['8C', 8],
    ['9S', 9],
    ['TH', 0],
    ['JD', 0],
    ['QC', 0],
    ['KS', 0],
  ])('%s counts %i', (text, points) => {
    expect(pointOf(parseCard(text))).toBe(points);
  });

  it('round-trips all 52 cards', () => {
    const all = RANKS.flatMap((r) => SUITS.map((s) => r + s));
    expect(all).toHaveLength(52);
    expect(new Set(all.map(parseCard)).size).toBe(52);
    for (const text of all) expect(formatCard(parseCard(text))).toBe(text);
  });

  it.each(['10H', '1S', 'ZS', '9X', 'as', '9h', '', ' 9H', '9H ', 'JOKER', 'AS,KD'])('rejects %p', (text) => {
    expect(() => parseCard(text)).toThrow(expect.objectContaining({ code: 'INVALID_CARD' }));
  });

  it.each([
    [['7H', '6D'], 3],
    [['9S', 'KC'], 9],
    [['5S', '5H'], 0],
    [['AS', '2D', '3C'], 6],
    [['9S', '9H', '9D'], 7],
  ])('hand %p totals %i (mod 10)', (cards, total) => {
    expect(handTotal(parseCards(cards))).toBe(total);
  });

  it.each([
    ['AS', 1],
    ['5H', 5],
    ['9D', 9],
    ['TC', 10],
    ['KS', 10],
  ])('burn card %s burns %i more', (text, n) => {
    expect(burnCountOf(parseCard(text))).toBe(n);
  });
});
