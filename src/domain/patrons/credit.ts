import { DomainError } from '../errors';
import { Money } from '../money/money';
import { KeyHolder } from '../integrity/two-person';
import { minorUnitRatio } from '../money/fx';

/**
 * The casino's credit under its internal controls (docs/domain/credit.md). Credit is the
 * concessionaire's to grant (Macau's Law 7/2024), against an established limit (Nevada's MICS for
 * credit; New Jersey's likewise), and every act that creates or ends a debt outside play is one
 * person's request and another's approval:
 *
 * - a credit line (the most a patron, or a junket, may owe), each change a version; over the
 *   property's threshold a casino manager signs last, a third person;
 * - a repayment over the property's threshold, which must name what pays it (a cheque's or wire's reference);
 * - a marker deposited with the patron's bank for collection, or written off;
 * - the property's credit policy itself (thresholds, the commission a programme may pay);
 * - a rolling-chip programme's terms, within the policy's caps, and a junket's statement agreed for
 *   the casino: each recorded by the room that owns it quoting the approved request (approved-acts.ts).
 *
 * Markers exist before chips are issued against them (a marker for dead chips is written with the
 * chips, within the line); front money exists before it is drawn; and a junket member's chips on
 * credit are the junket's markers, within the junket's line.
 */

export type CreditAct = 'LIMIT' | 'REPAYMENT' | 'WRITE_OFF' | 'DEPOSIT' | 'POLICY' | 'PROGRAMME' | 'STATEMENT';

/** Who requests and approves credit acts: the credit department (finance) and the casino manager. */
export const CREDIT_OFFICER_ROLES = ['FINANCE', 'CASINO_MANAGER'] as const;
/** The role whose signature is last on a credit line over the property's threshold. */
export const SENIOR_CREDIT_ROLE = 'CASINO_MANAGER' as const;

/** A property's credit policy (minor units of its cash currency; basis points). */
export interface CreditPolicy {
  readonly currency: string;
  /** A credit line above this needs two approvals, the last a casino manager's. */
  readonly seniorLimitThreshold: Money;
  /** A repayment above this needs a second person's approval. */
  readonly repaymentThreshold: Money;
  /** The most a rolling-chip programme may pay in commission: on rolling, on win/loss. */
  readonly rollingCommissionCapBps: number;
  readonly winLossCommissionCapBps: number;
}

/**
 * The policy of a property that has approved none: a line over 1,000,000.00 needs the casino
 * manager, a repayment over 10,000.00 a second person (minor units of two decimals; a currency of
 * none or three decimals is judged on the same integers, the conservative side for the larger units),
 * commission at most 1.5 % of rolling or 50 % of win/loss.
 */
export function defaultCreditPolicy(currency: string): CreditPolicy {
  return { currency, seniorLimitThreshold: 100_000_000n, repaymentThreshold: 1_000_000n, rollingCommissionCapBps: 150, winLossCommissionCapBps: 5000 };
}

/**
 * Whether an amount is over a threshold kept in another currency (or the same): compared exactly at
 * the rate into the threshold's currency (the gaming day's, as the cash reports translate); with no
 * rate it cannot be judged, and counts as over (the safe side: a second person looks).
 */
export function overThreshold(amount: Money, currency: string, threshold: Money, thresholdCurrency: string, rateE9: bigint | null): boolean {
  if (currency === thresholdCurrency) return amount > threshold;
  if (rateE9 === null) return true;
  const r = minorUnitRatio(rateE9, currency, thresholdCurrency);
  return amount * r.numerator > threshold * r.denominator;
}

/** What a request needs: how many approvals, and the role the last must hold (null: any credit officer). */
export interface ApprovalsNeeded {
  readonly approvals: 1 | 2;
  readonly finalRole: typeof SENIOR_CREDIT_ROLE | null;
}

/**
 * The approvals a credit line (or a write-off) needs: one (a second person); above the policy's
 * threshold (overThreshold: another currency at the day's rate), two, the last a casino manager's.
 */
export function limitApprovals(limit: Money, currency: string, policy: CreditPolicy, rateE9: bigint | null = null): ApprovalsNeeded {
  const senior = overThreshold(limit, currency, policy.seniorLimitThreshold, policy.currency, rateE9);
  return senior ? { approvals: 2, finalRole: SENIOR_CREDIT_ROLE } : { approvals: 1, finalRole: null };
}

/** Whether a repayment must wait for a second person: above the policy's threshold (overThreshold). */
export function repaymentNeedsApproval(amount: Money, currency: string, policy: CreditPolicy, rateE9: bigint | null = null): boolean {
  return overThreshold(amount, currency, policy.repaymentThreshold, policy.currency, rateE9);
}

/** A decision already taken on a request. */
export interface CreditDecisionTaken {
  readonly approve: boolean;
  readonly persons: readonly string[];
  readonly keyId: string;
}

export type CreditRequestStatus = 'PENDING' | 'APPROVED' | 'REJECTED';

/** A request's state from its decisions: rejected at the first rejection, approved once it has its approvals. */
export function creditRequestStatus(needed: number, decisions: readonly Pick<CreditDecisionTaken, 'approve'>[]): CreditRequestStatus {
  if (decisions.some((d) => !d.approve)) return 'REJECTED';
  return decisions.length >= needed ? 'APPROVED' : 'PENDING';
}

/**
 * Why `decider` may not decide a request: the requester, and everyone who approved it before, are
 * other persons than the decider (compared as persons: who could hold each key when it acted, and
 * now); the last approval of a request needing a casino manager is one's. Null when it may.
 */
export function creditDecisionProblem(
  request: { readonly requester: KeyHolder; readonly approvalsNeeded: number; readonly finalRole: string | null },
  before: readonly CreditDecisionTaken[],
  decider: KeyHolder,
  deciderRole: string,
  approve: boolean,
): { readonly code: 'SAME_PERSON' | 'FORBIDDEN'; readonly message: string } | null {
  const same = (message: string) => ({ code: 'SAME_PERSON' as const, message });
  const others = [request.requester, ...before.map((d) => ({ keyId: d.keyId, staffId: null, persons: d.persons }))];
  for (const [i, o] of others.entries()) {
    const who = i === 0 ? 'asked for it' : 'approved it already';
    if (o.keyId === decider.keyId) return same(`The key that ${who} cannot decide it too: another person must`);
    const shared = o.persons.filter((p) => decider.persons.includes(p));
    if (shared.length > 0) return same(`${shared.join(' and ')} ${who} (or could hold that key): another person must decide it`);
  }
  const last = before.length + 1 === request.approvalsNeeded;
  // The casino manager signs last: approving first would leave the last approval to a second casino
  // manager (or none), so an earlier approval of theirs is refused, saying who approves first.
  if (approve && !last && request.finalRole !== null && deciderRole === request.finalRole)
    return {
      code: 'FORBIDDEN',
      message: `The ${request.finalRole === SENIOR_CREDIT_ROLE ? 'casino manager' : request.finalRole} signs this last: a credit officer approves it first`,
    };
  if (approve && last && request.finalRole !== null && deciderRole !== request.finalRole)
    return {
      code: 'FORBIDDEN',
      message: `This needs the ${request.finalRole === SENIOR_CREDIT_ROLE ? 'casino manager' : request.finalRole}'s approval last: it is over the property's threshold`,
    };
  return null;
}

/** Refuses credit over the line in force: what is owed (outstanding) and the new credit must fit within it. */
export function admitCredit(amount: Money, outstanding: Money, limit: Money | null, holder: string): void {
  if (limit === null || limit === 0n)
    throw new DomainError(
      'NO_CREDIT_LINE',
      `${holder} has no approved credit line: a credit line is requested by the credit department and approved by a second person first`,
      {
        outstanding,
      },
    );
  if (outstanding + amount > limit)
    throw new DomainError(
      'CREDIT_LIMIT_EXCEEDED',
      `${holder} owes ${outstanding} and may owe at most ${limit} (minor units): ${amount} more is over the approved credit line`,
      { outstanding, creditLimit: limit, available: limit > outstanding ? limit - outstanding : 0n },
    );
}

/**
 * Front money a patron holds at the cage (deposits − withdrawals − dead chips bought with it +
 * dead chips returned into it): nothing is drawn from it beyond what it holds.
 */
export function admitFrontMoneyDraw(amount: Money, held: Money, patronId: string): void {
  if (amount > held)
    throw new DomainError(
      'FRONT_MONEY_SHORT',
      `Patron ${patronId} has ${held > 0n ? held : 0n} (minor units) of front money on deposit: ${amount} cannot be drawn. Deposit it at the cage first`,
      { held },
    );
}

/** Refuses dead chips drawn on a junket's markers beyond what they still cover (taken, less issued as chips). */
export function admitDraw(amount: Money, undrawn: Money, junket: string): void {
  if (amount > undrawn)
    throw new DomainError(
      'JUNKET_MARKERS_DRAWN',
      `Junket ${junket}'s markers cover ${undrawn > 0n ? undrawn : 0n} (minor units) of dead chips not yet issued: ${amount} cannot be issued against them. The junket takes a marker on its account first (within its credit line)`,
      { undrawn },
    );
}

/** The ageing buckets of the marker-ageing report, by days since issue. */
export type AgeBucket = 'CURRENT' | 'DAYS_31_60' | 'DAYS_61_90' | 'OVER_90';
export const AGE_BUCKETS: readonly AgeBucket[] = ['CURRENT', 'DAYS_31_60', 'DAYS_61_90', 'OVER_90'];

const dayNumber = (day: string) => Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) / 86_400_000;

/** Days from a marker's gaming day to `asOf` (a gaming day): 0 on the day it was issued. */
export function markerAgeDays(issuedDay: string, asOf: string): number {
  return dayNumber(asOf) - dayNumber(issuedDay);
}

/** The bucket of a marker `days` old: up to 30 days current, then 31–60, 61–90, over 90. */
export function ageBucket(days: number): AgeBucket {
  if (days <= 30) return 'CURRENT';
  if (days <= 60) return 'DAYS_31_60';
  if (days <= 90) return 'DAYS_61_90';
  return 'OVER_90';
}

export interface AgedMarker {
  readonly id: string;
  readonly currency: string;
  readonly issuedDay: string;
  readonly outstanding: Money;
}

/** The ageing of markers still owed on `asOf`, per currency and bucket (never two currencies added). */
export function markerAgeing(markers: readonly AgedMarker[], asOf: string): Map<string, Record<AgeBucket, Money>> {
  const out = new Map<string, Record<AgeBucket, Money>>();
  for (const m of markers) {
    if (m.outstanding <= 0n || m.issuedDay > asOf) continue;
    let row = out.get(m.currency);
    if (!row) out.set(m.currency, (row = { CURRENT: 0n, DAYS_31_60: 0n, DAYS_61_90: 0n, OVER_90: 0n }));
    row[ageBucket(markerAgeDays(m.issuedDay, asOf))] += m.outstanding;
  }
  return out;
}
