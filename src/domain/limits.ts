import { DomainError } from './errors';
import { Money } from './money';
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
