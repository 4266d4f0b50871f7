import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  admitCredit,
  admitDraw,
  admitFrontMoneyDraw,
  ApprovalsNeeded,
  CreditAct,
  CreditPolicy,
  creditRequestStatus,
  defaultCreditPolicy,
  gamingDayOf,
  KeyHolder,
  limitApprovals,
  Money,
  repaymentNeedsApproval,
} from '../../domain';
import { JunketOperator, Marker, Property } from '../../generated/prisma/client';
import type { Actor } from '../../platform/common/actor';
import type { AuditContext } from '../../platform/common/context';
import { AppError, notFound } from '../../platform/common/errors';
import { minorUnits } from '../../platform/common/exact-json';
import { Tx } from '../../platform/database/prisma.service';
import { prismaRunner, SqlRunner } from '../../platform/database/sql';
import { AuditLog } from './audit-log';
import { seal } from './seals';
import { CREDIT_SQL as SQL } from './credit-sql';

/** The audit stream of the casino's credit: requests, decisions, and what an approval puts in force. */
export const CREDIT_STREAM = 'credit';

/** A credit line in force: the limit (0 when none was approved) and when it was approved. */
export interface LineInForce {
  readonly creditLimit: Money;
  readonly approvedAt: Date | null;
}

/** A marker to issue: to a patron at a property, at a table or (null) at the cage, dated a gaming day. */
export interface MarkerToIssue {
  readonly propertyId: string;
  readonly tableId: string | null;
  readonly patronId: string;
  readonly amount: Money;
  readonly currency: string;
  readonly gamingDay: Date;
  readonly at: Date;
}

/** What a credit request asks for, checked: its subject, its terms (amounts as strings), the approvals it needs. */
export interface CreditAsked {
  readonly subject: string;
  readonly terms: Record<string, string | number>;
  readonly needed: ApprovalsNeeded;
}

/** A credit request's row, with its decisions. */
export interface CreditRequestRow {
  id: string;
  propertyId: string;
  act: CreditAct;
  subject: string;
  terms: Record<string, unknown>;
  reason: string;
  approvalsNeeded: number;
  finalRole: string | null;
  requestedByKeyId: string;
  requestedByRole: string;
  requesterPersons: string[];
  requestedAt: Date | string;
  decisions: { step: number; approve: boolean; keyId: string; role: string; persons: string[]; note: string | null; decidedAt: string }[];
  /** When the act it approved was recorded quoting it (a repayment, a programme version, a statement); null: not (yet). */
  recordedAt: Date | string | null;
  /** The marker it is about (WRITE_OFF, DEPOSIT, a repayment on a marker): whose, of which day, for how much. */
  marker: { patronId: string; issuedDay: string; issuedAt: string; amount: string; currency: string } | null;
  /** The junket it is about (a junket's line, repayment or statement): its code and name. */
  junket: { code: string; name: string } | null;
}

/** A marker at a property with what it still owes. */
export interface MarkerOwed {
  id: string;
  patronId: string;
  tableId: string | null;
  currency: string;
  issuedDay: string;
  amount: string;
  outstanding: string;
  writtenOff: boolean;
  /** Deposited with the patron's bank for collection (null: not). */
  depositedAt: Date | null;
}

/**
 * The casino's credit as every room that lends reads and writes it (docs/domain/credit.md), in the
 * caller's transaction: the credit line and policy in force, markers issued within a line (the one
 * writer of `markers`), front money drawn no further than it is held, dead chips drawn on a junket's
 * markers no further than they cover, and credit requests filed and read (the one writer of
 * `credit_requests`; the credit room decides them). Credit to one holder is given one act at a time.
 */
@Injectable()
export class CreditLedger {
  constructor(private readonly audit: AuditLog) {}

  async patronLine(db: SqlRunner, patronId: string, propertyId: string, currency: string): Promise<LineInForce> {
    const [row] = await db.query<{ creditLimit: string; approvedAt: Date }>(SQL.patronLine.bind({ patronId, propertyId, currency }));
    return row ? { creditLimit: BigInt(row.creditLimit), approvedAt: row.approvedAt } : { creditLimit: 0n, approvedAt: null };
  }

  async junketLine(db: SqlRunner, operatorId: string): Promise<LineInForce> {
    const [row] = await db.query<{ creditLimit: string; approvedAt: Date }>(SQL.junketLine.bind({ operatorId }));
    return row ? { creditLimit: BigInt(row.creditLimit), approvedAt: row.approvedAt } : { creditLimit: 0n, approvedAt: null };
  }

  /** Markers of a property (of one patron, one marker, one currency) with what each still owes. */
  async markersOwed(db: SqlRunner, propertyId: string, only: { patronId?: string; markerId?: string; currency?: string } = {}): Promise<MarkerOwed[]> {
    return db.query<MarkerOwed>(
      SQL.markersOwed.bind({ propertyId, patronId: only.patronId ?? null, markerId: only.markerId ?? null, currency: only.currency ?? null }),
    );
  }

  /** What a patron owes on markers at the property in the currency now (payments and write-offs taken off; voided markers owe nothing). */
  async patronOutstanding(db: SqlRunner, patronId: string, propertyId: string, currency: string): Promise<Money> {
    return (await this.markersOwed(db, propertyId, { patronId, currency })).reduce((sum, r) => sum + BigInt(r.outstanding), 0n);
  }

  /** The property's credit policy in force, and whether one was approved (else the engine's defaults in its cash currency). */
  /** The rate from `currency` into `into` on the property's gaming day now (null: the same currency, or no rate yet). */
  async rateFor(db: SqlRunner, property: Pick<Property, 'timeZone' | 'gamingDayStartHour'>, currency: string, into: string): Promise<bigint | null> {
    if (currency === into) return null;
    const day = gamingDayOf(new Date(), property.timeZone, property.gamingDayStartHour);
    const [r] = await db.query<{ rateE9: string }>(SQL.rateInto.bind({ currency, into, day }));
    return r ? BigInt(r.rateE9) : null;
  }

  async policy(db: SqlRunner, property: Pick<Property, 'id' | 'cashCurrency'>): Promise<CreditPolicy & { approved: boolean }> {
    const [row] = await db.query<{
      currency: string;
      seniorLimitThreshold: string;
      repaymentThreshold: string;
      rollingCommissionCapBps: number;
      winLossCommissionCapBps: number;
    }>(SQL.policyInForce.bind({ propertyId: property.id }));
    if (!row) return { ...defaultCreditPolicy(property.cashCurrency), approved: false };
    return {
      currency: row.currency,
      seniorLimitThreshold: BigInt(row.seniorLimitThreshold),
      repaymentThreshold: BigInt(row.repaymentThreshold),
      rollingCommissionCapBps: row.rollingCommissionCapBps,
      winLossCommissionCapBps: row.winLossCommissionCapBps,
      approved: true,
    };
  }

  /**
   * Issues a marker within the patron's credit line at the property in its currency: what the
   * patron owes on markers there and this one must fit in the approved line. The caller seals it
   * in its audit entry.
   */
  async issueMarker(tx: Tx, m: MarkerToIssue, keyId: string): Promise<Marker> {
    const db = prismaRunner(tx);
    await db.run(SQL.lockHolder.bind({ holder: `patron:${m.propertyId}:${m.patronId}` }));
    const line = await this.patronLine(db, m.patronId, m.propertyId, m.currency);
    const owed = await this.patronOutstanding(db, m.patronId, m.propertyId, m.currency);
    admitCredit(m.amount, owed, line.creditLimit, `Patron ${m.patronId}`);
    return tx.marker.create({
      data: {
        propertyId: m.propertyId,
        tableId: m.tableId,
        patronId: m.patronId,
        amount: m.amount,
        currency: m.currency,
        gamingDay: m.gamingDay,
        issuedAt: m.at,
        issuedByKeyId: keyId,
      },
    });
  }

  /** Refuses drawing more front money than the patron holds at the property's cage in the currency; draws wait for each other. */
  async assertFrontMoney(tx: Tx, propertyId: string, patronId: string, currency: string, amount: Money): Promise<void> {
    const db = prismaRunner(tx);
    await db.run(SQL.lockFrontMoney.bind({ propertyId, patronId }));
    const [{ held }] = await db.query<{ held: string }>(SQL.frontMoneyHeld.bind({ propertyId, patronId, currency }));
    admitFrontMoneyDraw(amount, BigInt(held), patronId);
  }

  /** The junket a patron plays for at a property on a gaming day (its membership in force), or null. */
  async junketOf(tx: Tx, patronId: string, propertyId: string, day: string): Promise<JunketOperator | null> {
    const [m] = await prismaRunner(tx).query<{ operatorId: string | null }>(SQL.junketOfMember.bind({ patronId, propertyId, day }));
    return m?.operatorId ? tx.junketOperator.findUniqueOrThrow({ where: { id: m.operatorId } }) : null;
  }

  /**
   * Dead chips issued to a member against the junket's markers: no more than the markers the junket
   * has taken on its account (each within its credit line) and not yet issued as chips.
   */
  async drawOnJunketMarkers(tx: Tx, op: JunketOperator, amount: Money): Promise<void> {
    const db = prismaRunner(tx);
    await db.run(SQL.lockJunket.bind({ junketId: op.id }));
    const [{ undrawn }] = await db.query<{ undrawn: string }>(SQL.junketUndrawn.bind({ junketId: op.id }));
    admitDraw(amount, BigInt(undrawn), op.code);
  }

  /** A junket's credit line asked for: its terms and the approvals it needs under the property's policy. */
  async junketLineAsked(db: SqlRunner, property: Property, junket: Pick<JunketOperator, 'id' | 'currency'>, creditLimit: Money): Promise<CreditAsked> {
    return {
      subject: junket.id,
      terms: { junketId: junket.id, currency: junket.currency, creditLimit: creditLimit.toString() },
      needed: await this.limitApprovals(db, property, creditLimit, junket.currency),
    };
  }

  /** The approvals a credit line (or a write-off) of `amount` in `currency` needs under the property's policy, at the day's rate. */
  async limitApprovals(db: SqlRunner, property: Property, amount: Money, currency: string): Promise<ApprovalsNeeded> {
    const policy = await this.policy(db, property);
    return limitApprovals(amount, currency, policy, await this.rateFor(db, property, currency, policy.currency));
  }

  /**
   * Files a credit request in the caller's transaction, `requester` being who could hold the
   * requesting key, read before the transaction. It takes effect when the credit room's approvals complete it.
   */
  async requestIn(
    tx: Tx,
    ctx: AuditContext & { readonly actor: Actor },
    propertyId: string,
    requester: KeyHolder,
    act: CreditAct,
    asked: CreditAsked,
    reason: string,
  ): Promise<string> {
    const id = randomUUID();
    await tx.creditRequest.create({
      data: {
        id,
        propertyId,
        act,
        subject: asked.subject,
        terms: asked.terms,
        reason,
        approvalsNeeded: asked.needed.approvals,
        finalRole: asked.needed.finalRole,
        requestedByKeyId: ctx.actor.keyId,
        requestedByRole: ctx.actor.role,
        requesterPersons: [...requester.persons],
        requestedAt: new Date(),
      },
    });
    await this.audit.append(tx, ctx, {
      stream: CREDIT_STREAM,
      action: 'credit.request',
      entityType: 'creditRequest',
      entityId: id,
      data: { act, subject: asked.subject, terms: asked.terms, reason, approvalsNeeded: asked.needed.approvals, finalRole: asked.needed.finalRole },
      seals: [seal('credit_requests', id)],
    });
    return id;
  }

  /** Decisions on one request, one after another (its decisions are read, then one is added). */
  async lockRequest(db: SqlRunner, id: string): Promise<void> {
    await db.run(SQL.lockRequest.bind({ id }));
  }

  async request(db: SqlRunner, id: string): Promise<CreditRequestRow | null> {
    const [r] = await db.query<CreditRequestRow>(SQL.requestById.bind({ id }));
    return r ?? null;
  }

  async requests(db: SqlRunner, propertyId: string, subject: string | null, limit: number): Promise<CreditRequestRow[]> {
    return db.query<CreditRequestRow>(SQL.requestsOf.bind({ propertyId, subject, limit }));
  }

  /**
   * Admits a repayment (on a marker or a junket's account) as the cage records it: over the
   * property's repayment threshold (or in another currency than its policy's) only with the request
   * a second person approved for it, and only as approved: the same amount, method and reference.
   */
  async admitRepayment(
    db: SqlRunner,
    property: Property,
    p: { amount: Money; currency: string; method: string; reference: string | null; requestId: string | null },
    on: { markerId?: string; junketId?: string },
  ): Promise<void> {
    const policy = await this.policy(db, property);
    const rate = await this.rateFor(db, property, p.currency, policy.currency);
    if (p.requestId === null && !repaymentNeedsApproval(p.amount, p.currency, policy, rate)) return;
    if (p.requestId === null)
      throw new AppError(
        'REPAYMENT_NEEDS_APPROVAL',
        p.currency === policy.currency || rate !== null
          ? `A repayment of ${p.amount} (minor units of ${p.currency}) is over the property's repayment threshold of ${policy.repaymentThreshold} (minor units of ${policy.currency}): request it (act REPAYMENT) and have a second person approve it, then record it with its requestId`
          : `A repayment in ${p.currency} cannot be judged against the repayment threshold in ${policy.currency}: there is no rate from ${p.currency} into ${policy.currency} yet. Request it (act REPAYMENT) and have a second person approve it, or have finance enter the rate`,
        { repaymentThreshold: minorUnits(policy.repaymentThreshold), currency: policy.currency },
      );
    const approved = await this.approvedRepayment(db, p.requestId, on);
    const asked = { amount: p.amount.toString(), method: p.method, reference: p.reference ?? '' };
    const granted = { amount: approved.amount.toString(), method: approved.method, reference: approved.reference ?? '' };
    const differ = (Object.keys(asked) as (keyof typeof asked)[]).filter((k) => asked[k] !== granted[k]);
    if (differ.length > 0)
      throw new AppError(
        'NOT_AS_APPROVED',
        `This is not the repayment request ${p.requestId} approved: ${differ.map((k) => `${k} ${JSON.stringify(granted[k])} was approved, not ${JSON.stringify(asked[k])}`).join('; ')}. Record it as approved, or request this one`,
        { requestId: p.requestId, approved: Object.fromEntries(differ.map((k) => [k, granted[k]])) },
      );
  }

  /**
   * An approved repayment request, as the cage records it: approved, on this marker or junket, of
   * these terms. Recorded once (the payment's unique request_id refuses a second).
   */
  async approvedRepayment(
    db: SqlRunner,
    requestId: string,
    on: { markerId?: string; junketId?: string },
  ): Promise<{ amount: Money; method: string; reference: string | null }> {
    const r = await this.request(db, requestId);
    if (!r) throw notFound('Credit request', requestId);
    if (r.act !== 'REPAYMENT')
      throw new AppError('NOT_AS_APPROVED', `Credit request ${requestId} is a ${r.act} request, not a repayment request`, { requestId, act: r.act });
    const t = r.terms as Record<string, string>;
    if ((on.markerId !== undefined && t.markerId !== on.markerId) || (on.junketId !== undefined && t.junketId !== on.junketId))
      throw new AppError('NOT_AS_APPROVED', `Credit request ${requestId} approves a repayment on another ${on.markerId !== undefined ? 'marker' : 'junket'}`, {
        requestId,
      });
    const status = creditRequestStatus(r.approvalsNeeded, r.decisions);
    if (status !== 'APPROVED')
      throw new AppError(
        'REPAYMENT_NEEDS_APPROVAL',
        `Repayment request ${requestId} is ${status.toLowerCase()}: it is recorded once a second person has approved it`,
      );
    if (r.recordedAt !== null)
      throw new AppError(
        'CONFLICT',
        `Repayment request ${requestId} was recorded already, at ${new Date(r.recordedAt).toISOString()}: an approved repayment is paid once. Request the next one`,
        { requestId, recordedAt: new Date(r.recordedAt).toISOString() },
      );
    return { amount: BigInt(t.amount), method: t.method, reference: t.reference ?? null };
  }
}
