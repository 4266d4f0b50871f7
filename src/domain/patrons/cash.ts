import { minorUnitRatio } from '../money/fx';
import { Money } from '../money/money';

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
  /** When it was made (structuring across gaming days is judged on a rolling window of these). */
  readonly at: Date;
}

/** A property's cash-reporting settings, in minor units of `currency`. */
export interface CashThresholds {
  readonly currency: string;
  /** A single transaction of this amount or more goes in the multiple-transaction log (USD 3,000). */
  readonly mtl: Money;
  /** A patron's cash in (or out) of a gaming day of more than this aggregate is a report candidate (USD 10,000). */
  readonly ctr: Money;
  /** "Just under" the report threshold: from this share of it, in basis points (8,000 = 80 %). */
  readonly structuringFloorBps: number;
}

/** The US settings (Title 31): a log from USD 3,000, reports over USD 10,000, "just under" from 80 %. */
export const US_TITLE_31: CashThresholds = { currency: 'USD', mtl: 300_000n, ctr: 1_000_000n, structuringFloorBps: 8_000 };

/** A patron's cash in one direction on one gaming day. */
export interface PatronCashDay {
  readonly patronId: string;
  readonly gamingDay: string;
  readonly direction: CashDirection;
  readonly total: Money;
  readonly transactions: readonly CashTransaction[];
}

export type StructuringPattern = 'JUST_UNDER' | 'SPLIT' | 'ACROSS_DAYS';

export interface StructuringAlert extends PatronCashDay {
  /**
   * JUST_UNDER: two or more transactions of a gaming day whose total stops just under the report
   * threshold (or at it); SPLIT: a gaming day's total over it made only of transactions each under
   * the log threshold; ACROSS_DAYS: within {@link STRUCTURING_WINDOW_HOURS}, cash over the report
   * threshold split over two gaming days, each day's part of it at or under the threshold (the
   * alert's gamingDay is its last transaction's, its total the window's).
   */
  readonly pattern: StructuringPattern;
}

/**
 * The window over which cash split across a gaming-day boundary is looked at: a rolling 24 hours,
 * from each transaction back (a transaction exactly 24 hours before is in it).
 */
export const STRUCTURING_WINDOW_HOURS = 24;
const STRUCTURING_WINDOW_MS = STRUCTURING_WINDOW_HOURS * 3_600_000;

/**
 * Is this transaction in the multiple-transaction log? From the log threshold on ("transactions of
 * $3,000 or more"); only amounts in the thresholds' currency are judged.
 */
export function inMultipleTransactionLog(t: Pick<CashTransaction, 'amount' | 'currency'>, s: CashThresholds): boolean {
  return t.currency === s.currency && t.amount >= s.mtl;
}

/**
 * A single cash transaction the patron must be identified for: by itself more than the report
 * threshold, i.e. a transaction a report would be filed for. Cash in another currency is judged by
 * its worth in the thresholds' currency at `rateE9` (units of the thresholds' currency one unit of
 * the transaction's is worth, in billionths: the gaming day's rate, docs/domain.md §12), exactly,
 * without rounding; with no rate to judge it by, any amount needs the patron.
 */
export function needsIdentification(t: Pick<CashTransaction, 'amount' | 'currency'>, s: CashThresholds, rateE9: bigint | null = null): boolean {
  if (t.currency === s.currency) return t.amount > s.ctr;
  if (rateE9 === null) return true;
  const r = minorUnitRatio(rateE9, t.currency, s.currency);
  return t.amount * r.numerator > s.ctr * r.denominator;
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

/** The patron-days whose cash in (or out) is more than the report threshold (31 CFR 1021.311: "more than $10,000"). */
export function reportCandidates(days: readonly PatronCashDay[], s: CashThresholds): PatronCashDay[] {
  return days.filter((d) => d.total > s.ctr);
}

/** The patron-days that look split to stay under a threshold (JUST_UNDER and SPLIT: see StructuringAlert). */
export function structuringAlerts(days: readonly PatronCashDay[], s: CashThresholds): StructuringAlert[] {
  const floor = (s.ctr * BigInt(s.structuringFloorBps)) / 10_000n;
  const out: StructuringAlert[] = [];
  for (const d of days) {
    if (d.transactions.length < 2) continue;
    if (d.total >= floor && d.total <= s.ctr) out.push({ ...d, pattern: 'JUST_UNDER' });
    else if (d.total > s.ctr && d.transactions.every((t) => t.amount < s.mtl)) out.push({ ...d, pattern: 'SPLIT' });
  }
  return out;
}

/**
 * Cash split across a gaming-day boundary (ACROSS_DAYS: see StructuringAlert): for each named
 * patron and direction, every window of {@link STRUCTURING_WINDOW_HOURS} ending at one of their
 * transactions, over two gaming days or more, whose total is more than the report threshold while
 * each gaming day's part of it is not. Windows held in a larger one that is an alert too are left
 * out. Only the thresholds' currency is judged. In order of patron, last gaming day, direction and
 * time.
 */
export function structuringAcrossDays(log: readonly CashTransaction[], s: CashThresholds): StructuringAlert[] {
  const runs = new Map<string, CashTransaction[]>();
  for (const t of log) {
    if (t.patronId === null || t.currency !== s.currency) continue;
    const key = `${t.patronId}\u0000${t.direction}`;
    const run = runs.get(key) ?? [];
    run.push(t);
    runs.set(key, run);
  }
  const out: (StructuringAlert & { start: number })[] = [];
  for (const run of runs.values()) {
    run.sort((a, b) => a.at.getTime() - b.at.getTime() || cmp(a.id, b.id));
    const windows: { start: number; end: number }[] = [];
    let start = 0;
    for (let end = 0; end < run.length; end++) {
      while (run[end].at.getTime() - run[start].at.getTime() > STRUCTURING_WINDOW_MS) start++;
      const byDay = new Map<string, bigint>();
      for (let i = start; i <= end; i++) byDay.set(run[i].gamingDay, (byDay.get(run[i].gamingDay) ?? 0n) + run[i].amount);
      const total = [...byDay.values()].reduce((a, b) => a + b, 0n);
      if (byDay.size >= 2 && total > s.ctr && [...byDay.values()].every((part) => part <= s.ctr)) windows.push({ start, end });
    }
    // A window's start never moves back as its end moves on: one held in another starts with it.
    const kept = windows.filter((w) => !windows.some((o) => o !== w && o.start <= w.start && o.end >= w.end));
    for (const w of kept) {
      const transactions = run.slice(w.start, w.end + 1);
      const last = transactions[transactions.length - 1];
      out.push({
        patronId: last.patronId!,
        gamingDay: last.gamingDay,
        direction: last.direction,
        total: transactions.reduce((sum, t) => sum + t.amount, 0n),
        transactions,
        pattern: 'ACROSS_DAYS',
        start: transactions[0].at.getTime(),
      });
    }
  }
  return out
    .sort((a, b) => cmp(a.patronId, b.patronId) || cmp(a.gamingDay, b.gamingDay) || cmp(a.direction, b.direction) || a.start - b.start)
    .map(({ start: _start, ...alert }) => alert);
}

/**
 * What a marker still owes: its amount less every payment and a write-off, or nothing once its
 * buy-in was voided (only a marker never paid on is voided).
 */
export function markerOutstanding(amount: Money, payments: readonly Money[], voided = false, writtenOff: Money = 0n): Money {
  return voided ? 0n : payments.reduce((left, p) => left - p, amount) - writtenOff;
}

/**
 * The drop a table's buy-ins say its box holds: cash and markers (chips from another table never go
 * in the box). The count is reconciled against it; a difference is an exception.
 */
export function expectedDrop(buyIns: readonly { kind: 'CASH' | 'CHIPS' | 'MARKER'; amount: Money }[]): Money {
  return buyIns.reduce((sum, b) => (b.kind === 'CHIPS' ? sum : sum + b.amount), 0n);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
