import fc from 'fast-check';
import { BET_TYPES, BetType, Card, evaluateCoup, dealPuntoBanco, RoundingMode, ruleSet, SIDE_BETS, settleWager, Variant } from '../../../src/domain';

/** A legal punto banco coup from six cards, dealt by the tableau. */
const dealLegal = (six: Card[]) => {
  const { player, banker } = dealPuntoBanco(six, 0)!;
  return { player, banker };
};

const card = fc.integer({ min: 0, max: 51 });
const sixCards = fc.array(card, { minLength: 6, maxLength: 6 });
const variant = fc.constantFrom<Variant>('COMMISSION', 'SUPER_6', 'EZ');
const rounding = fc.record({ unit: fc.constantFrom(1, 5, 25, 100), mode: fc.constantFrom<RoundingMode>('FLOOR', 'HALF_UP', 'CEILING') });
const rules = fc
  .record({
    variant,
    commissionBps: fc.integer({ min: 0, max: 1000 }),
    rounding,
    tieBetsStay: fc.boolean(),
  })
  // Super 6 and EZ take no commission (ruleSet refuses one): theirs is 0 whatever was drawn.
  .map((r) => ruleSet({ ...r, commissionBps: r.variant === 'COMMISSION' ? r.commissionBps : 0, sideBets: [...SIDE_BETS] }));
const wager = fc.record({ betType: fc.constantFrom<BetType>(...BET_TYPES), amount: fc.bigInt({ min: 1n, max: 10_000_000n }) });

describe('settlement properties over random legal coups', () => {
  it('house result + customer net = 0, from the cash that changes hands', () => {
    fc.assert(
      fc.property(rules, sixCards, wager, (r, six, w) => {
        const s = settleWager(r, evaluateCoup(r.variant, dealLegal(six)), w);
        // The house's side, from cash: keeps a lost stake, pays the payout, collects the commission.
        const house = (s.result === 'LOSE' ? w.amount : 0n) - s.payout + s.commission;
        // The customer's side, from cash: gets back stake + payout − commission on a win, the stake on a push.
        const returned = s.result === 'WIN' ? w.amount + s.payout - s.commission : s.result === 'PUSH' ? w.amount : 0n;
        expect(returned - w.amount).toBe(s.net);
        expect(house + s.net).toBe(0n);
      }),
      { numRuns: 3000 },
    );
  });

  it('a push changes nothing; commission is never negative nor above the payout', () => {
    fc.assert(
      fc.property(rules, sixCards, wager, (r, six, w) => {
        const s = settleWager(r, evaluateCoup(r.variant, dealLegal(six)), w);
        if (s.result === 'PUSH') expect([s.payout, s.commission, s.net]).toEqual([0n, 0n, 0n]);
        if (s.result === 'LOSE') expect([s.payout, s.commission, s.net]).toEqual([0n, 0n, -w.amount]);
        expect(s.commission >= 0n && s.commission <= s.payout).toBe(true);
        expect(s.payout >= 0n).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('misdeals', () => {
  it('adding or removing any one third card of a legal coup is always a MISDEAL', () => {
    fc.assert(
      fc.property(variant, sixCards, card, fc.constantFrom<'player' | 'banker'>('player', 'banker'), (v, six, extra, side) => {
        const legal = dealLegal(six);
        const hands = { ...legal, [side]: legal[side].length === 3 ? legal[side].slice(0, 2) : [...legal[side], extra] };
        expect(() => evaluateCoup(v, legal)).not.toThrow();
        expect(() => evaluateCoup(v, hands)).toThrow(expect.objectContaining({ code: 'MISDEAL' }));
      }),
      { numRuns: 3000 },
    );
  });

  it('a hand of fewer than two or more than three cards is always a MISDEAL', () => {
    fc.assert(
      fc.property(variant, fc.array(card, { maxLength: 8 }), fc.array(card, { maxLength: 8 }), (v, player, banker) => {
        fc.pre(player.length < 2 || player.length > 3 || banker.length < 2 || banker.length > 3);
        expect(() => evaluateCoup(v, { player, banker })).toThrow(expect.objectContaining({ code: 'MISDEAL' }));
      }),
    );
  });
});
