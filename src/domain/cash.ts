import { Money } from './money';

/**
 * The cash reports a compliance officer files from (docs/domain.md §11): US Title 31's
 * multiple-transaction log, the currency-transaction-report candidates and the structuring alert,
 * with the thresholds a property sets (other jurisdictions differ). Cash in and cash out are
 * aggregated separately, per patron and gaming day, and never netted.
 */

export type CashDirection = 'IN' | 'OUT';

/** One cash transaction of the log. */
export interface CashTransaction {
  readonly id: string;
  readonly patronId: string | null;
  readonly direction: CashDirection;
  readonly amount: Money;
  readonly currency: string;
  readonly gamingDay: string;
}

/** A property's cash-reporting settings, in minor units of `currency`. */
export interface CashThresholds {
  readonly currency: string;
  /** A single transaction from this amount goes in the multiple-transaction log (USD 3,000). */
  readonly mtl: Money;
  /** A patron's cash in (or out) of a gaming day from this aggregate is a report candidate (USD 10,000). */
  readonly ctr: Money;
  /** "Just under" the report threshold: from this share of it, in basis points (8,000 = 80 %). */
  readonly structuringFloorBps: number;
}

/** The US settings (Title 31): a log from USD 3,000, reports from USD 10,000, "just under" from 80 %. */
export const US_TITLE_31: CashThresholds = { currency: 'USD', mtl: 300_000n, ctr: 1_000_000n, structuringFloorBps: 8_000 };

/** A patron's cash in one direction on one gaming day. */
export interface PatronCashDay {
  readonly patronId: string;
  readonly gamingDay: string;
  readonly direction: CashDirection;
  readonly total: Money;
  readonly transactions: readonly CashTransaction[];
}

export type StructuringPattern = 'JUST_UNDER' | 'SPLIT';

export interface StructuringAlert extends PatronCashDay {
  /**
   * JUST_UNDER: two or more transactions whose total stops just under the report threshold;
   * SPLIT: a total at or over it made only of transactions each under the log threshold.
   */
  readonly pattern: StructuringPattern;
}

/** Is this transaction in the multiple-transaction log? Only amounts in the thresholds' currency are judged. */
export function inMultipleTransactionLog(t: Pick<CashTransaction, 'amount' | 'currency'>, s: CashThresholds): boolean {
  return t.currency === s.currency && t.amount >= s.mtl;
}

/** A single transaction the patron must be identified for (it alone reaches the report threshold). */
export function needsIdentification(t: Pick<CashTransaction, 'amount' | 'currency'>, s: CashThresholds): boolean {
  return t.currency === s.currency && t.amount >= s.ctr;
}

/**
 * Named patrons' cash, per patron, gaming day and direction (in and out apart), in the thresholds'
 * currency, in order of patron, day, direction. Unnamed transactions cannot be aggregated: they are
 * in the log by themselves.
 */
export function patronCashDays(log: readonly CashTransaction[], s: CashThresholds): PatronCashDay[] {
  const days = new Map<string, { patronId: string; gamingDay: string; direction: CashDirection; total: bigint; transactions: CashTransaction[] }>();
  for (const t of log) {
    if (t.patronId === null || t.currency !== s.currency) continue;
    const key = `${t.patronId}\u0000${t.gamingDay}\u0000${t.direction}`;
    const d = days.get(key) ?? { patronId: t.patronId, gamingDay: t.gamingDay, direction: t.direction, total: 0n, transactions: [] };
    d.total += t.amount;
    d.transactions.push(t);
    days.set(key, d);
  }
  return [...days.values()].sort((a, b) => cmp(a.patronId, b.patronId) || cmp(a.gamingDay, b.gamingDay) || cmp(a.direction, b.direction));
}

/** The patron-days whose cash in (or out) reaches the report threshold. */
export function reportCandidates(days: readonly PatronCashDay[], s: CashThresholds): PatronCashDay[] {
  return days.filter((d) => d.total >= s.ctr);
}

/** The patron-days that look split to stay under a threshold (see StructuringAlert). */
export function structuringAlerts(days: readonly PatronCashDay[], s: CashThresholds): StructuringAlert[] {
  const floor = (s.ctr * BigInt(s.structuringFloorBps)) / 10_000n;
  const out: StructuringAlert[] = [];
  for (const d of days) {
    if (d.transactions.length < 2) continue;
    if (d.total >= floor && d.total < s.ctr) out.push({ ...d, pattern: 'JUST_UNDER' });
    else if (d.total >= s.ctr && d.transactions.every((t) => t.amount < s.mtl)) out.push({ ...d, pattern: 'SPLIT' });
  }
  return out;
}

/**
 * What a marker still owes: its amount less every payment, or nothing once its buy-in was voided
 * (only a marker never paid on is voided).
 */
export function markerOutstanding(amount: Money, payments: readonly Money[], voided = false): Money {
  return voided ? 0n : payments.reduce((left, p) => left - p, amount);
}

/**
 * The drop a table's buy-ins say its box holds: cash and markers (chips from another table never go
 * in the box). The count is reconciled against it; a difference is an exception.
 */
export function expectedDrop(buyIns: readonly { kind: 'CASH' | 'CHIPS' | 'MARKER'; amount: Money }[]): Money {
  return buyIns.reduce((sum, b) => (b.kind === 'CHIPS' ? sum : sum + b.amount), 0n);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
