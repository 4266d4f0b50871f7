import { BetType, CoupOutcome, evaluateCoup, odds, parseCards, RuleSet, ruleSet, settleWager, Variant } from '../../../src/domain';

const ALL_SIDE = ['PLAYER_PAIR', 'BANKER_PAIR', 'EITHER_PAIR', 'PERFECT_PAIR', 'BIG', 'SMALL', 'SUPER_6', 'DRAGON_7', 'PANDA_8'] as const;
const rules = (variant: Variant, extra: Partial<RuleSet> = {}) => ruleSet({ variant, sideBets: [...ALL_SIDE], ...extra });
const dealt = (player: string[], banker: string[]): CoupOutcome => evaluateCoup('COMMISSION', { player: parseCards(player), banker: parseCards(banker) });

// Named coups used across the pay table.
const C = {
  playerNatural9: dealt(['9S', 'KD'], ['8H', 'KC']), // P 9, B 8, 4 cards
  bankerWins7: dealt(['KS', '5D', 'KH'], ['7H', 'KC']), // B 7 v P 5, 5 cards
  bankerWins6two: dealt(['KS', '5D', '8H'], ['6H', 'KC']), // B two-card 6 v 3
  bankerWins6three: dealt(['KS', '5D', 'KH'], ['AH', 'KC', '5S']), // B three-card 6 v 5
  dragon: dealt(['KS', '5D', 'KH'], ['2H', 'KC', '5S']), // B three-card 7 v 5
  panda: dealt(['AS', '2D', '5H'], ['4H', '2C']), // P three-card 8 v 6
  tie: dealt(['KS', '6D'], ['3H', '2C', 'AS']), // 6–6
  pairs: dealt(['4S', '4D'], ['5H', '5C']), // P 8 natural v B 0; both pairs
  perfectBoth: dealt(['4S', '4S'], ['5H', '5H']), // both perfect pairs
  perfectPlayer: dealt(['4S', '4S'], ['5H', '5C']),
};

type Row = [string, Variant, BetType, bigint, CoupOutcome, 'WIN' | 'LOSE' | 'PUSH', bigint, bigint, bigint];
const rows: Row[] = [
  // name, variant, bet, stake, coup, result, payout, commission, net
  ['Player 1:1', 'COMMISSION', 'PLAYER', 1000n, C.playerNatural9, 'WIN', 1000n, 0n, 1000n],
  ['Player loses', 'COMMISSION', 'PLAYER', 1000n, C.bankerWins7, 'LOSE', 0n, 0n, -1000n],
  ['Player pushes on a tie', 'COMMISSION', 'PLAYER', 1000n, C.tie, 'PUSH', 0n, 0n, 0n],
  ['Banker 1:1 less 5%', 'COMMISSION', 'BANKER', 1000n, C.bankerWins7, 'WIN', 1000n, 50n, 950n],
  ['Banker 5% of an odd stake rounds down', 'COMMISSION', 'BANKER', 1010n, C.bankerWins7, 'WIN', 1010n, 50n, 960n],
  ['Banker commission on 6 at a commission table', 'COMMISSION', 'BANKER', 1000n, C.bankerWins6two, 'WIN', 1000n, 50n, 950n],
  ['Banker loses', 'COMMISSION', 'BANKER', 1000n, C.playerNatural9, 'LOSE', 0n, 0n, -1000n],
  ['Banker pushes on a tie', 'COMMISSION', 'BANKER', 1000n, C.tie, 'PUSH', 0n, 0n, 0n],
  ['Tie 8:1', 'COMMISSION', 'TIE', 1000n, C.tie, 'WIN', 8000n, 0n, 8000n],
  ['Tie loses', 'COMMISSION', 'TIE', 1000n, C.bankerWins7, 'LOSE', 0n, 0n, -1000n],
  ['Super 6: Banker 7 pays 1:1, no commission', 'SUPER_6', 'BANKER', 1000n, C.bankerWins7, 'WIN', 1000n, 0n, 1000n],
  ['Super 6: Banker two-card 6 pays 1:2', 'SUPER_6', 'BANKER', 1000n, C.bankerWins6two, 'WIN', 500n, 0n, 500n],
  ['Super 6: Banker three-card 6 pays 1:2', 'SUPER_6', 'BANKER', 1000n, C.bankerWins6three, 'WIN', 500n, 0n, 500n],
  ['Super 6: half of an odd stake rounds down', 'SUPER_6', 'BANKER', 1001n, C.bankerWins6two, 'WIN', 500n, 0n, 500n],
  ['EZ: Banker three-card 7 pushes', 'EZ', 'BANKER', 1000n, C.dragon, 'PUSH', 0n, 0n, 0n],
  ['EZ: Banker two-card 7 pays 1:1', 'EZ', 'BANKER', 1000n, C.bankerWins7, 'WIN', 1000n, 0n, 1000n],
  ['EZ: Banker 6 pays 1:1', 'EZ', 'BANKER', 1000n, C.bankerWins6two, 'WIN', 1000n, 0n, 1000n],
  ['Dragon 7 40:1', 'EZ', 'DRAGON_7', 100n, C.dragon, 'WIN', 4000n, 0n, 4000n],
  ['Dragon 7 loses on a two-card 7', 'EZ', 'DRAGON_7', 100n, C.bankerWins7, 'LOSE', 0n, 0n, -100n],
  ['Panda 8 25:1', 'EZ', 'PANDA_8', 100n, C.panda, 'WIN', 2500n, 0n, 2500n],
  ['Panda 8 loses on a natural 9', 'EZ', 'PANDA_8', 100n, C.playerNatural9, 'LOSE', 0n, 0n, -100n],
  ['Player Pair 11:1', 'COMMISSION', 'PLAYER_PAIR', 100n, C.pairs, 'WIN', 1100n, 0n, 1100n],
  ['Banker Pair 11:1', 'COMMISSION', 'BANKER_PAIR', 100n, C.pairs, 'WIN', 1100n, 0n, 1100n],
  ['Banker Pair loses', 'COMMISSION', 'BANKER_PAIR', 100n, C.tie, 'LOSE', 0n, 0n, -100n],
  ['Either Pair 5:1', 'COMMISSION', 'EITHER_PAIR', 100n, C.pairs, 'WIN', 500n, 0n, 500n],
  ['Either Pair loses', 'COMMISSION', 'EITHER_PAIR', 100n, C.bankerWins7, 'LOSE', 0n, 0n, -100n],
  ['Perfect Pair 25:1', 'COMMISSION', 'PERFECT_PAIR', 100n, C.perfectPlayer, 'WIN', 2500n, 0n, 2500n],
  ['Perfect Pair v1 pays 25:1 on both', 'COMMISSION', 'PERFECT_PAIR', 100n, C.perfectBoth, 'WIN', 2500n, 0n, 2500n],
  ['Perfect Pair loses on an unsuited pair', 'COMMISSION', 'PERFECT_PAIR', 100n, C.pairs, 'LOSE', 0n, 0n, -100n],
  ['Big 0.54:1 on 5 cards', 'COMMISSION', 'BIG', 1000n, C.bankerWins7, 'WIN', 540n, 0n, 540n],
  ['Big 0.54:1 on an odd stake rounds down', 'COMMISSION', 'BIG', 1001n, C.bankerWins6three, 'WIN', 540n, 0n, 540n],
  ['Big loses on 4 cards', 'COMMISSION', 'BIG', 1000n, C.playerNatural9, 'LOSE', 0n, 0n, -1000n],
  ['Small 1.5:1 on 4 cards', 'COMMISSION', 'SMALL', 1000n, C.playerNatural9, 'WIN', 1500n, 0n, 1500n],
  ['Small on an odd stake rounds down', 'COMMISSION', 'SMALL', 1001n, C.playerNatural9, 'WIN', 1501n, 0n, 1501n],
  ['Small loses on 6 cards', 'COMMISSION', 'SMALL', 1000n, C.bankerWins6three, 'LOSE', 0n, 0n, -1000n],
  ['Super 6 side bet 12:1 on a three-card 6', 'SUPER_6', 'SUPER_6', 100n, C.bankerWins6three, 'WIN', 1200n, 0n, 1200n],
  ['Super 6 side bet loses on a 6–6 tie', 'SUPER_6', 'SUPER_6', 100n, C.tie, 'LOSE', 0n, 0n, -100n],
  [
    'Side bets settle whatever the main bets do: Player Pair wins on a tie',
    'COMMISSION',
    'PLAYER_PAIR',
    100n,
    dealt(['3S', '3D'], ['2H', '4C']),
    'WIN',
    1100n,
    0n,
    1100n,
  ],
];

describe('pay tables (docs/domain.md §3)', () => {
  it.each(rows)('%s', (_name, variant, betType, amount, outcome, result, payout, commission, net) => {
    expect(settleWager(rules(variant), outcome, { betType, amount })).toEqual({ result, payout, commission, net, carriesOver: false });
  });
});

describe('house options', () => {
  it('tie 9 to 1', () => {
    const r = rules('COMMISSION', { pays: { ...rules('COMMISSION').pays, TIE: odds(9) } });
    expect(settleWager(r, C.tie, { betType: 'TIE', amount: 100n }).payout).toBe(900n);
  });

  it('4% commission', () => {
    expect(settleWager(rules('COMMISSION', { commissionBps: 400 }), C.bankerWins7, { betType: 'BANKER', amount: 1000n }).commission).toBe(40n);
  });

  it('commission rounded half-up to a 25 chip, never above the win', () => {
    const r = rules('COMMISSION', { rounding: { unit: 25, mode: 'CEILING' } });
    expect(settleWager(r, C.bankerWins7, { betType: 'BANKER', amount: 1010n }).commission).toBe(75n);
    // 5% of 10 ceilinged to a 25 chip would be 25 > 10: capped at the win.
    expect(settleWager(r, C.bankerWins7, { betType: 'BANKER', amount: 10n })).toMatchObject({ payout: 10n, commission: 10n, net: 0n });
  });

  it('Super 6 half-pay rounded half-up to the minor unit', () => {
    const r = rules('SUPER_6', { rounding: { unit: 1, mode: 'HALF_UP' } });
    expect(settleWager(r, C.bankerWins6two, { betType: 'BANKER', amount: 1001n }).payout).toBe(501n);
  });

  it('Perfect Pair version 2: 250:1 when both hands are perfect pairs', () => {
    const r = rules('COMMISSION', { perfectPairBothPays: odds(250) });
    expect(settleWager(r, C.perfectBoth, { betType: 'PERFECT_PAIR', amount: 100n }).payout).toBe(25000n);
    expect(settleWager(r, C.perfectPlayer, { betType: 'PERFECT_PAIR', amount: 100n }).payout).toBe(2500n);
  });

  it('tied Player/Banker bets stay for the next coup where the house says so; Tie and side bets never carry', () => {
    const r = rules('COMMISSION', { tieBetsStay: true });
    expect(settleWager(r, C.tie, { betType: 'PLAYER', amount: 100n }).carriesOver).toBe(true);
    expect(settleWager(r, C.tie, { betType: 'BANKER', amount: 100n }).carriesOver).toBe(true);
    expect(settleWager(r, C.tie, { betType: 'TIE', amount: 100n }).carriesOver).toBe(false);
    expect(settleWager(r, C.dragon, { betType: 'BANKER', amount: 100n }).carriesOver).toBe(false);
  });

  it('a bet the table does not offer is an error, not a loss', () => {
    const plain = ruleSet({ variant: 'COMMISSION' });
    expect(() => settleWager(plain, C.dragon, { betType: 'DRAGON_7', amount: 100n })).toThrow(
      expect.objectContaining({ code: 'BET_NOT_OFFERED', message: 'DRAGON_7 is not offered at this COMMISSION table' }),
    );
    expect(() => settleWager(ruleSet({ variant: 'CHEMIN_DE_FER' }), C.tie, { betType: 'PLAYER', amount: 100n })).toThrow(
      expect.objectContaining({ code: 'BET_NOT_OFFERED' }),
    );
  });
});

describe('rule sets', () => {
  it.each([
    [{ variant: 'COMMISSION', decks: 0 }, 'A shoe holds 1 to 8 decks, not 0'],
    [{ variant: 'COMMISSION', decks: 9 }, 'A shoe holds 1 to 8 decks, not 9'],
    [{ variant: 'COMMISSION', commissionBps: -1 }, 'Commission is 0 to 10000 basis points, not -1'],
    [{ variant: 'COMMISSION', commissionBps: 2.5 }, 'Commission is 0 to 10000 basis points, not 2.5'],
    [{ variant: 'ROULETTE' }, 'Unknown variant "ROULETTE"'],
    [{ variant: 'CHEMIN_DE_FER', sideBets: ['PLAYER_PAIR'] }, 'CHEMIN_DE_FER is banked by a player: the house offers no side bets'],
    [{ variant: 'COMMISSION', rounding: { unit: 0, mode: 'FLOOR' } }, 'The rounding unit is a whole number'],
  ])('rejects %p', (input, message) => {
    expect(() => ruleSet(input as never)).toThrow(expect.objectContaining({ code: 'INVALID_RULES', message: expect.stringContaining(message) }));
  });

  it('defaults follow the variant', () => {
    expect(ruleSet({ variant: 'COMMISSION' })).toMatchObject({ decks: 8, commissionBps: 500, sideBets: ['PLAYER_PAIR', 'BANKER_PAIR'] });
    expect(ruleSet({ variant: 'SUPER_6' })).toMatchObject({ commissionBps: 0, sideBets: ['PLAYER_PAIR', 'BANKER_PAIR', 'SUPER_6'] });
    expect(ruleSet({ variant: 'EZ' })).toMatchObject({ commissionBps: 0, sideBets: ['PLAYER_PAIR', 'BANKER_PAIR', 'DRAGON_7', 'PANDA_8'] });
    expect(ruleSet({ variant: 'CHEMIN_DE_FER' })).toMatchObject({ decks: 6, commissionBps: 500, sideBets: [] });
    expect(ruleSet({ variant: 'BANQUE' })).toMatchObject({ decks: 3 });
  });
});
