import { DomainError } from '../errors';
import { Money } from '../money/money';
import { BetType, isOffered, RuleSet } from './rules';

/** The stakes a bet accepts, in minor units, both ends included. */
export interface StakeLimits {
  readonly min: Money;
  readonly max: Money;
}

/** A table's limits: its own, and a bet's own where the house sets one (side bets usually). */
export interface TableLimits {
  readonly table: StakeLimits;
  readonly perBet: Partial<Record<BetType, StakeLimits>>;
}

/** The stake limits of one bet at a table: its own, else the table's. */
export function stakeLimits(limits: TableLimits, betType: BetType): StakeLimits {
  return limits.perBet[betType] ?? limits.table;
}

/** What a refusal names: the table as the pit knows it. */
export interface TableLabel {
  readonly code: string;
  readonly variant: string;
  readonly currency: string;
}

/** Refuses a bet the table does not offer (an error, never a loss). `where` names the table in the message. */
export function assertOffered(rules: RuleSet, betType: BetType, where: string, details: Record<string, unknown> = {}): void {
  if (!isOffered(rules, betType)) throw new DomainError('BET_NOT_OFFERED', `${betType} is not offered at ${where}`, { betType, ...details });
}

/** A wager as placed: the bet must be offered at the table and its stake within that bet's limits. */
export function admitWager(rules: RuleSet, limits: TableLimits, table: TableLabel, w: { seat: number; betType: BetType; amount: Money }): void {
  assertOffered(rules, w.betType, `table ${table.code} (${table.variant})`, { seat: w.seat });
  const { min, max } = stakeLimits(limits, w.betType);
  if (w.amount < min || w.amount > max) {
    throw new DomainError(
      'BET_LIMIT',
      `Seat ${w.seat}: a ${w.betType} bet at table ${table.code} must be between ${min} and ${max} (${table.currency} minor units); ${w.amount} is ${w.amount < min ? 'below the minimum' : 'above the maximum'}`,
      { seat: w.seat, betType: w.betType, min, max },
    );
  }
}

/** Limits as a pit supervisor sets them: the table's minimum and maximum, and a bet's own where wanted. */
export interface LimitsInput {
  readonly minBet: Money;
  readonly maxBet: Money;
  readonly perBet: readonly { readonly betType: BetType; readonly min: Money; readonly max: Money }[];
}

/**
 * A table's limits as set (when it opens, and at every change): each minimum at most its maximum,
 * each bet's own limits only for a bet the table offers, one each. The one check of limits: a table's
 * opening limits and every later change go through it.
 */
export function checkLimits(rules: RuleSet, input: LimitsInput): TableLimits {
  if (input.minBet <= 0n) throw new DomainError('INCOMPLETE', 'minBet must be at least one minor unit');
  if (input.maxBet < input.minBet) throw new DomainError('INCOMPLETE', 'maxBet must not be below minBet');
  const perBet: Partial<Record<BetType, StakeLimits>> = {};
  for (const l of input.perBet) {
    if (l.max < l.min) throw new DomainError('INCOMPLETE', `The ${l.betType} limit's max must not be below its min`);
    if (perBet[l.betType]) throw new DomainError('INCOMPLETE', `The ${l.betType} limit is given twice`);
    if (!isOffered(rules, l.betType)) throw new DomainError('INVALID_RULES', `${l.betType} is not offered at this table, so it cannot have a limit`);
    perBet[l.betType] = { min: l.min, max: l.max };
  }
  return { table: { min: input.minBet, max: input.maxBet }, perBet };
}
