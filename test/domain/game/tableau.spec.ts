import {
  chemmyBankerDraw,
  chemmyPunterDraw,
  DomainError,
  evaluateBanqueCoup,
  evaluateCoup,
  parseCards,
  puntoBancoBankerDraw,
  puntoBancoPlayerDraw,
} from '../../../src/domain';
import { referenceBankerDraws } from './reference-tableau';

const coup = (player: string[], banker: string[], variant: 'COMMISSION' | 'CHEMIN_DE_FER' = 'COMMISSION') =>
  evaluateCoup(variant, { player: parseCards(player), banker: parseCards(banker) });

/** A card of each point value, to build hands with a given total. */
const CARD_OF = ['KS', 'AS', '2S', '3S', '4S', '5S', '6S', '7S', '8S', '9S'];
/** Two cards totalling t, neither a pair nor a natural unless t ≥ 8. */
const twoCards = (t: number) => (t === 0 ? ['KH', 'QD'] : ['KH', CARD_OF[t]]);

describe('punto banco tableau (docs/domain.md §2), every Banker total × Player third card', () => {
  const expected = referenceBankerDraws;
  const cases = [];
  for (let b = 0; b <= 7; b++) for (let p = 0; p <= 9; p++) cases.push([b, p, expected(b, p)] as const);

  it.each(cases)('Banker %i, Player third card %i → draws: %p', (b, p, draws) => {
    expect(puntoBancoBankerDraw(b, p)).toBe(draws ? 'DRAW' : 'STAND');
    // And as a recorded coup: Player 0 draws the card of value p; the wrong Banker hand is a misdeal.
    const player = [...twoCards(0), CARD_OF[p]];
    const legal = draws ? [...twoCards(b), '4D'] : twoCards(b);
    const illegal = draws ? twoCards(b) : [...twoCards(b), '4D'];
    expect(() => coup(player, legal)).not.toThrow();
    expect(() => coup(player, illegal)).toThrow(expect.objectContaining({ code: 'MISDEAL' }));
  });

  it.each([0, 1, 2, 3, 4, 5, 6, 7])('Player %i: draws on 0–5, stands on 6–7', (p) => {
    expect(puntoBancoPlayerDraw(p)).toBe(p <= 5 ? 'DRAW' : 'STAND');
  });

  it.each([0, 1, 2, 3, 4, 5, 6, 7])('Player stood: Banker %i draws on 0–5', (b) => {
    expect(puntoBancoBankerDraw(b, null)).toBe(b <= 5 ? 'DRAW' : 'STAND');
  });

  it.each([
    [['9S', 'KD'], ['2H', '3C', '4D'], 'Player has a natural 9: both hands stand, but Banker was given a third card'],
    [['2S', '3D', '4C'], ['8H', 'KC'], 'Banker has a natural 8: both hands stand, but Player was given a third card'],
    [['2S', '3D'], ['7H', 'KC'], 'Player has 5 and must draw a third card, but none was recorded'],
    [['6S', 'KD', '4C'], ['7H', 'KC'], 'Player has 6 and must stand, but a third card was recorded'],
    [['6S', 'KD'], ['4H', 'KC'], 'Banker has 4 and Player stood and must draw a third card, but none was recorded'],
    [['2S', 'KD', '8C'], ['3H', 'KC', '2D'], "Banker has 3 and Player's third card counts 8 and must stand, but a third card was recorded"],
    [['2S'], ['3H', 'KC'], 'Player has 1 card(s): every hand starts with two'],
    [['2S', 'KD', '8C', '9C'], ['3H', 'KC'], 'Player has 4 cards: a hand holds at most three'],
  ])('misdeal %p / %p: %s', (player, banker, message) => {
    expect(() => coup(player, banker)).toThrow(new DomainError('MISDEAL', message));
  });
});

describe('coup outcome and events', () => {
  it.each([
    // player, banker, winner, pTotal, bTotal, flags
    [['9S', 'KD'], ['8H', 'KC'], 'PLAYER', 9, 8, { natural: true, cardCount: 4 }],
    [['4S', '4D'], ['5H', '3C'], 'TIE', 8, 8, { natural: true, playerPair: true }],
    [['4S', '4S'], ['7H', 'KC'], 'PLAYER', 8, 7, { natural: true, playerPair: true, playerPerfectPair: true }],
    [['KS', 'QD', 'KD'], ['KH', 'KH', 'KC'], 'TIE', 0, 0, { bankerPair: true, bankerPerfectPair: true, cardCount: 6 }],
    [['6S', 'KD'], ['2H', '2C', '3S'], 'BANKER', 6, 7, { bankerPair: true, dragon7: true, cardCount: 5 }],
    [['KS', '6D'], ['3H', '2C', 'AS'], 'TIE', 6, 6, {}],
    [['KS', '5D', 'KH'], ['AH', 'KC', '5S'], 'BANKER', 5, 6, { bankerWinWith6: true, bankerWinWith6Cards: 3, cardCount: 6 }],
    [['KS', '5D', '8H'], ['6H', 'KC'], 'BANKER', 3, 6, { bankerWinWith6: true, bankerWinWith6Cards: 2, cardCount: 5 }],
    [['KS', '5D', 'KH'], ['2H', 'KC', '5S'], 'BANKER', 5, 7, { dragon7: true }],
    [['AS', '2D', '5H'], ['4H', '2C'], 'PLAYER', 8, 6, { panda8: true, cardCount: 5 }],
  ])('%p vs %p', (player, banker, winner, pTotal, bTotal, flags) => {
    const o = coup(player, banker);
    // Every flag not named is false/null (checked against a fully-false template).
    const none = {
      natural: false,
      playerPair: false,
      bankerPair: false,
      playerPerfectPair: false,
      bankerPerfectPair: false,
      bankerWinWith6: false,
      bankerWinWith6Cards: null,
      dragon7: false,
      panda8: false,
    };
    expect(o).toMatchObject({ ...none, ...flags, winner, playerTotal: pTotal, bankerTotal: bTotal });
  });

  it('pairs compare rank, not value: K+Q is no pair, K+K is', () => {
    const o = coup(['KS', 'QS', '9C'], ['KH', 'KD', '2C']);
    expect([o.playerPair, o.bankerPair, o.bankerPerfectPair]).toEqual([false, true, false]);
  });
});

describe('chemin de fer drawing rules (docs/domain.md §5)', () => {
  const H = 'DRAW',
    S = 'STAND',
    O = 'OPTION';
  const table: Record<number, string[]> = {
    3: [H, H, H, H, H, H, H, H, S, O],
    4: [S, S, H, H, H, H, H, H, S, S],
    5: [S, S, S, S, O, H, H, H, S, S],
    6: [S, S, S, S, S, S, H, H, S, S],
  };
  const cases = [];
  for (let b = 0; b <= 7; b++) {
    for (let p = 0; p <= 9; p++) cases.push([b, p, b <= 2 ? H : b === 7 ? S : table[b][p]] as const);
  }
  it.each(cases)('Banker %i against third card %i: %s', (b, p, decision) => {
    expect(chemmyBankerDraw(b, p)).toBe(decision);
  });

  it.each([
    [0, H],
    [4, H],
    [5, O],
    [6, S],
    [7, S],
  ] as const)('punter %i: %s', (t, d) => {
    expect(chemmyPunterDraw(t)).toBe(d);
  });

  it('the punter may draw or stand at 5, the banker either way on an O cell', () => {
    expect(coup(['2S', '3D'], ['7H', 'KC'], 'CHEMIN_DE_FER').winner).toBe('BANKER');
    expect(coup(['2S', '3D', '4H'], ['7H', 'KC'], 'CHEMIN_DE_FER').winner).toBe('PLAYER');
    // Banker 5 against a third card 4: option.
    expect(() => coup(['KS', 'KD', '4H'], ['5H', 'KC'], 'CHEMIN_DE_FER')).not.toThrow();
    expect(() => coup(['KS', 'KD', '4H'], ['5H', 'KC', '2D'], 'CHEMIN_DE_FER')).not.toThrow();
    // The same coup at a punto banco table: Player 0 must draw, Banker 5 on a 4 must draw.
    expect(() => coup(['KS', 'KD', '4H'], ['5H', 'KC'])).toThrow(expect.objectContaining({ code: 'MISDEAL' }));
  });

  it('everything else is forced: punter 4 must draw, banker 4 on a 1 must stand', () => {
    expect(() => coup(['2S', '2D'], ['7H', 'KC'], 'CHEMIN_DE_FER')).toThrow('Punter has 4 and must draw');
    expect(() => coup(['KS', 'KD', 'AH'], ['4H', 'KC', '2D'], 'CHEMIN_DE_FER')).toThrow(expect.objectContaining({ code: 'MISDEAL' }));
  });
});

describe('baccarat banque', () => {
  const banque = (right: string[], left: string[], banker: string[]) =>
    evaluateBanqueCoup({ right: parseCards(right), left: parseCards(left), banker: parseCards(banker) });

  it('settles each side separately against the banker', () => {
    const o = banque(['KS', '7D'], ['2S', '2D', 'KH'], ['KC', '5H']);
    expect(o.right).toEqual({ winner: 'PUNTER', punterTotal: 7, natural: false });
    expect(o.left).toEqual({ winner: 'BANKER', punterTotal: 4, natural: false });
    expect(o.bankerTotal).toBe(5);
  });

  it('a natural on either side or the banker ends the coup for everyone: the hands are settled as they stand', () => {
    // Right natural 8; the left 4 would have drawn, and the banker 5 might have: nobody does.
    const o = banque(['KS', '8D'], ['2S', '2D'], ['KC', '5H']);
    expect(o.right).toEqual({ winner: 'PUNTER', punterTotal: 8, natural: true });
    expect(o.left).toEqual({ winner: 'BANKER', punterTotal: 4, natural: false });
    expect(o.cardCount).toBe(6);
    // The banker's natural 9 against a left 3 that stands undrawn.
    const b = banque(['KS', '7D'], ['KS', '3D'], ['KC', '9H']);
    expect([b.right.winner, b.left.winner, b.bankerNatural]).toEqual(['BANKER', 'BANKER', true]);
  });

  it("the banker's draw is free", () => {
    expect(banque(['KS', '7D'], ['KS', '6D'], ['KC', '6H', '9S']).bankerTotal).toBe(5);
    expect(banque(['KS', '7D'], ['KS', '6D'], ['KC', '2H']).bankerTotal).toBe(2);
  });

  it.each([
    [['KS', '7D', 'AH'], ['KS', '6D'], ['KC', '5H'], 'Right hand has 7 and must stand'],
    [['KS', '3D'], ['KS', '6D'], ['KC', '5H'], 'Right hand has 3 and must draw'],
    [['KS', '6D'], ['KS', '6D'], ['KC', '9H', '2C'], '(the banker a natural 9): all hands stand, but the banker was given a third card'],
    [['KS', '6D', '2C'], ['KS', '6D'], ['KC', '9H'], '(the banker a natural 9): all hands stand, but the right hand was given a third card'],
    [['KS', '8D'], ['KS', '9D'], ['KC', '2H', '3H'], '(the right hand a natural 8 and the left hand a natural 9): all hands stand, but the banker'],
    // A natural on one side ends the coup on the other side too, and for the banker.
    [['KS', '8D'], ['2S', '2D', 'KH'], ['KC', '5H'], '(the right hand a natural 8): all hands stand, but the left hand was given a third card'],
    [['2S', '2D', '3C'], ['9S', 'KD'], ['KC', '5H'], '(the left hand a natural 9): all hands stand, but the right hand'],
    [['KS', '6D'], ['QS', '8D'], ['KC', '5H', '2D'], '(the left hand a natural 8): all hands stand, but the banker was given a third card'],
  ])('misdeal %p %p %p', (right, left, banker, message) => {
    expect(() => banque(right, left, banker)).toThrow(message);
  });
});
