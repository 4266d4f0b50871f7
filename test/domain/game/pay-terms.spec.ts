import {
  CoupOutcome,
  newTableRules,
  DomainError,
  evaluateCoup,
  odds,
  roundMoney,
  offeredBets,
  parseCards,
  payFor,
  payTermsOf,
  ruleSet,
  settleWager,
  SIDE_BETS,
  Variant,
} from '../../../src/domain';

/**
 * The pay terms a player reads beside a bet (payTermsOf) say what the settlement pays: for every
 * casino-banked variant and offered bet, on coups chosen to hit each named case and the plain win.
 */
const dealt = (player: string[], banker: string[]): CoupOutcome => evaluateCoup('COMMISSION', { player: parseCards(player), banker: parseCards(banker) });
const COUPS: Record<string, CoupOutcome> = {
  playerNatural9: dealt(['9S', 'KD'], ['8H', 'KC']),
  bankerWins7: dealt(['KS', '5D', 'KH'], ['7H', 'KC']),
  bankerWins6: dealt(['KS', '5D', '8H'], ['6H', 'KC']),
  dragon: dealt(['KS', '5D', 'KH'], ['2H', 'KC', '5S']),
  panda: dealt(['AS', '2D', '5H'], ['4H', '2C']),
  tie: dealt(['KS', '6D'], ['3H', '2C', 'AS']),
  perfectBoth: dealt(['4S', '4S'], ['5H', '5H']),
  perfectPlayer: dealt(['4S', '4S'], ['5H', '5C']),
};
const caseOf = (o: CoupOutcome) => ({
  BANKER_WINS_WITH_6: o.winner === 'BANKER' && o.bankerTotal === 6,
  BANKER_WINS_WITH_THREE_CARD_7: o.dragon7,
  BOTH_PERFECT_PAIRS: o.playerPerfectPair && o.bankerPerfectPair,
  TIE: o.winner === 'TIE',
});

describe('payTermsOf says what settleWager pays', () => {
  const stake = 10_000n;
  for (const variant of ['COMMISSION', 'SUPER_6', 'EZ'] as Variant[]) {
    for (const both of [null, odds(250)]) {
      const rules = ruleSet({ variant, sideBets: [...SIDE_BETS], perfectPairBothPays: both });
      for (const bet of offeredBets(rules)) {
        it(`${variant} ${bet}${both ? ' (perfect pair v2)' : ''}`, () => {
          const terms = payTermsOf(rules, bet);
          for (const [name, o] of Object.entries(COUPS)) {
            const s = settleWager(rules, o, { betType: bet, amount: stake });
            if (s.result !== 'WIN' && s.result !== 'PUSH') continue;
            const hit = terms.except.find((e) => caseOf(o)[e.when]);
            const pushes = hit ? hit.pays === null : false;
            // A push not named by the terms would be a pay the screens do not say.
            expect({ name, result: s.result }).toEqual({ name, result: pushes ? 'PUSH' : s.result });
            if (s.result === 'WIN') {
              const pay = hit?.pays ?? terms.pays;
              const payout = payFor(stake, pay, rules.rounding);
              expect({ name, payout: s.payout, commission: s.commission }).toEqual({
                name,
                payout,
                commission: (payout * BigInt(terms.commissionBps)) / 10_000n,
              });
            }
          }
        });
      }
    }
  }

  it('names the Super 6 half-pay, the EZ push and the commission', () => {
    const f = (v: Variant) => payTermsOf(ruleSet({ variant: v }), 'BANKER');
    expect(f('COMMISSION')).toEqual({ pays: odds(1), commissionBps: 500, rounding: null, except: [{ when: 'TIE', pays: null }] });
    expect(f('SUPER_6').except).toEqual([
      { when: 'BANKER_WINS_WITH_6', pays: odds(1, 2) },
      { when: 'TIE', pays: null },
    ]);
    expect(f('EZ').except).toEqual([
      { when: 'BANKER_WINS_WITH_THREE_CARD_7', pays: null },
      { when: 'TIE', pays: null },
    ]);
  });

  it('names the rounding where the commission or a fractional pay is rounded other than down to the minor unit', () => {
    const ceiling10 = { mode: 'CEILING', unit: 1000 } as const;
    const commission = ruleSet({ variant: 'COMMISSION', commissionBps: 250, rounding: ceiling10 });
    expect(payTermsOf(commission, 'BANKER').rounding).toEqual(ceiling10);
    // HK$130 on Banker wins HK$130; 2.5 % is HK$3.25, charged as HK$10: more than the percentage says.
    const s = settleWager(commission, COUPS.bankerWins7, { betType: 'BANKER', amount: 13_000n });
    expect({ commission: s.commission, charged: roundMoney(13_000n, 250n, 10_000n, ceiling10) }).toEqual({ commission: 1000n, charged: 1000n });
    expect(payTermsOf(commission, 'PLAYER').rounding).toBeNull();
    expect(payTermsOf(commission, 'TIE').rounding).toBeNull();
    const super6 = ruleSet({ variant: 'SUPER_6', rounding: { mode: 'FLOOR', unit: 1000 } });
    expect(payTermsOf(super6, 'BANKER').rounding).toEqual({ mode: 'FLOOR', unit: 1000 });
    expect(payTermsOf(super6, 'PLAYER').rounding).toBeNull();
    expect(payTermsOf(ruleSet({ variant: 'COMMISSION', sideBets: ['BIG'], rounding: { mode: 'HALF_UP', unit: 1 } }), 'BIG').rounding).toEqual({
      mode: 'HALF_UP',
      unit: 1,
    });
    expect(payTermsOf(ruleSet({ variant: 'SUPER_6' }), 'BANKER').rounding).toBeNull();
  });

  it('opens no table that takes the edge twice or under another name; a table opened before reads as it was', () => {
    for (const variant of ['SUPER_6', 'EZ'] as Variant[]) {
      expect(() => newTableRules({ variant, commissionBps: 500 })).toThrow(DomainError);
      expect(newTableRules({ variant, commissionBps: 0 }).commissionBps).toBe(0);
      // A commission by another name: Banker at 0.95 to 1.
      expect(() => newTableRules({ variant, pays: { BANKER: odds(95, 100) } })).toThrow(/commission/);
      // A table opened before the check keeps the rules it was opened with: its settlement and views go on.
      expect(ruleSet({ variant, commissionBps: 500 }).commissionBps).toBe(500);
    }
    expect(() => newTableRules({ variant: 'COMMISSION', pays: { BANKER: odds(95, 100) } })).toThrow(/commissionBps/);
    expect(newTableRules({ variant: 'COMMISSION', pays: { BANKER: odds(1) }, commissionBps: 250 }).commissionBps).toBe(250);
  });
});
