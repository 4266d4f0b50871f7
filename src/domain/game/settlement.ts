import { Money, Odds, payFor, roundMoney } from '../money/money';
import { assertOffered } from './limits';
import { BetType, RuleSet } from './rules';
import { CoupOutcome } from './tableau';

export type WagerResult = 'WIN' | 'LOSE' | 'PUSH';

export interface Wager {
  readonly betType: BetType;
  /** Stake in minor units, > 0. */
  readonly amount: Money;
}

export interface Settlement {
  readonly result: WagerResult;
  /** Profit paid beyond the returned stake (0 unless WIN). */
  readonly payout: Money;
  /** Commission charged on the win (Banker commission), never more than the payout. */
  readonly commission: Money;
  /** The customer's result: payout − commission on a win, −amount on a loss, 0 on a push. */
  readonly net: Money;
  /** A tied Player/Banker bet that stays in place for the next coup (house rule). */
  readonly carriesOver: boolean;
}

const LOSE = (amount: Money): Settlement => ({ result: 'LOSE', payout: 0n, commission: 0n, net: -amount, carriesOver: false });
const PUSH = (carriesOver = false): Settlement => ({ result: 'PUSH', payout: 0n, commission: 0n, net: 0n, carriesOver });

/** Commission on a winning Banker bet's profit: rounded by the table's rule, capped at the profit. */
export function commissionOn(payout: Money, rules: RuleSet): Money {
  if (rules.commissionBps === 0 || payout === 0n) return 0n;
  const c = roundMoney(payout, BigInt(rules.commissionBps), 10_000n, rules.rounding);
  return c > payout ? payout : c;
}

/**
 * Settles one wager on one coup under a table's rules. Side bets settle on their own, whatever
 * happens to the main bets. A bet the table does not offer is an error, never a loss.
 */
export function settleWager(rules: RuleSet, outcome: CoupOutcome, wager: Wager): Settlement {
  const { betType, amount } = wager;
  assertOffered(rules, betType, `this ${rules.variant} table`);
  if (amount <= 0n) throw new RangeError('A wager amount must be positive');

  const win = (pay: Odds, commission: (payout: Money) => Money = () => 0n): Settlement => {
    const payout = payFor(amount, pay, rules.rounding);
    const charged = commission(payout);
    return { result: 'WIN', payout, commission: charged, net: payout - charged, carriesOver: false };
  };
  const winOrLose = (won: boolean, pay: Odds) => (won ? win(pay) : LOSE(amount));
  const { pays } = rules;

  switch (betType) {
    case 'PLAYER':
      if (outcome.winner === 'TIE') return PUSH(rules.tieBetsStay);
      return winOrLose(outcome.winner === 'PLAYER', pays.PLAYER);
    case 'BANKER': {
      if (outcome.winner === 'TIE') return PUSH(rules.tieBetsStay);
      if (outcome.winner === 'PLAYER') return LOSE(amount);
      if (rules.variant === 'EZ' && outcome.dragon7) return PUSH();
      const pay = rules.variant === 'SUPER_6' && outcome.bankerTotal === 6 ? rules.bankerSixPays : pays.BANKER;
      return win(pay, (payout) => commissionOn(payout, rules));
    }
    case 'TIE':
      return winOrLose(outcome.winner === 'TIE', pays.TIE);
    case 'PLAYER_PAIR':
      return winOrLose(outcome.playerPair, pays.PLAYER_PAIR);
    case 'BANKER_PAIR':
      return winOrLose(outcome.bankerPair, pays.BANKER_PAIR);
    case 'EITHER_PAIR':
      return winOrLose(outcome.playerPair || outcome.bankerPair, pays.EITHER_PAIR);
    case 'PERFECT_PAIR': {
      const both = outcome.playerPerfectPair && outcome.bankerPerfectPair;
      if (both && rules.perfectPairBothPays) return win(rules.perfectPairBothPays);
      return winOrLose(outcome.playerPerfectPair || outcome.bankerPerfectPair, pays.PERFECT_PAIR);
    }
    case 'BIG':
      return winOrLose(outcome.cardCount >= 5, pays.BIG);
    case 'SMALL':
      return winOrLose(outcome.cardCount === 4, pays.SMALL);
    case 'SUPER_6':
      return winOrLose(outcome.bankerWinWith6, pays.SUPER_6);
    case 'DRAGON_7':
      return winOrLose(outcome.dragon7, pays.DRAGON_7);
    case 'PANDA_8':
      return winOrLose(outcome.panda8, pays.PANDA_8);
  }
}
