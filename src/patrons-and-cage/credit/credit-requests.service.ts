import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { creditDecisionProblem, CreditDecisionTaken, creditRequestStatus, holderSince, SENIOR_CREDIT_ROLE } from '../../domain';
import { Property } from '../../generated/prisma/client';
import { AccessService } from '../../foundation/access/access.service';
import { ApprovalChecks } from '../../foundation/ledger/approval-checks';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { LEDGER_SQL } from '../../foundation/ledger/ledger-sql';
import { seal, SealRef } from '../../foundation/ledger/seals';
import type { RequestContext } from '../../platform/common/context';
import { minorUnits } from '../../platform/common/exact-json';
import { AppError, notFound } from '../../platform/common/errors';
import { assertDayRange } from '../../platform/common/validation';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { prismaRunner, SqlRunner } from '../../platform/database/sql';
import { CREDIT_STREAM, CreditAsked, CreditLedger, CreditRequestRow } from '../../foundation/ledger/credit-ledger';
import { CreditDecisionInputDto, CreditRequestDto, CreditRequestInputDto } from './dto/credit.dto';

/**
 * Credit acts under two-person control (docs/domain/credit.md): one person requests (a credit
 * officer; a cashier a repayment), others approve, each a different person from the requester and
 * from every approver before, the last of a request over the threshold a casino manager. The
 * approval that completes a request puts it in force in its own transaction: a credit line, a
 * policy, a write-off. An approved repayment is recorded by the cage quoting the request.
 */
@Injectable()
export class CreditRequestsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    private readonly keys: AccessService,
    private readonly ledger: CreditLedger,
    private readonly checks: ApprovalChecks,
  ) {}

  async request(propertyId: string, dto: CreditRequestInputDto, ctx: RequestContext): Promise<CreditRequestDto> {
    if (ctx.actor.role === 'CASHIER' && dto.act !== 'REPAYMENT')
      throw new AppError('FORBIDDEN', 'The cage requests repayments only: credit lines, write-offs and the policy are the credit department’s');
    const requester = await this.keys.holder(ctx.actor.keyId);
    return this.prisma.transaction(ctx, async (tx) => {
      const property = await tx.property.findUnique({ where: { id: propertyId } });
      if (!property) throw notFound('Property', propertyId);
      const id = await this.ledger.requestIn(tx, ctx, property.id, requester, dto.act, await this.asked(tx, property, dto), dto.reason);
      return this.get(id, tx);
    });
  }

  /** The request's subject, terms and approvals, each term checked against the records now. */
  private async asked(tx: Tx, property: Property, dto: CreditRequestInputDto): Promise<CreditAsked> {
    const db = prismaRunner(tx);
    const only = (allowed: readonly (keyof CreditRequestInputDto)[]) => {
      const extra = (Object.keys(dto) as (keyof CreditRequestInputDto)[]).filter(
        (k) => k !== 'act' && k !== 'reason' && dto[k] !== undefined && !allowed.includes(k),
      );
      if (extra.length > 0) throw new AppError('VALIDATION_FAILED', `A ${dto.act} request does not take ${extra.join(', ')}`);
    };
    const need = <T>(v: T | undefined, name: string): T => {
      if (v === undefined) throw new AppError('VALIDATION_FAILED', `A ${dto.act} request needs ${name}`);
      return v;
    };
    switch (dto.act) {
      case 'LIMIT': {
        only(['patronId', 'junketId', 'creditLimit', 'currency']);
        const creditLimit = BigInt(need(dto.creditLimit, 'creditLimit'));
        if ((dto.patronId === undefined) === (dto.junketId === undefined))
          throw new AppError('VALIDATION_FAILED', 'A credit line is a patron’s or a junket’s: give patronId or junketId, not both');
        if (dto.patronId !== undefined) {
          if (!(await tx.patron.findUnique({ where: { card: dto.patronId }, select: { card: true } })))
            throw new AppError('UNKNOWN_PATRON', `No patron is registered with card ${dto.patronId}: register the patron first`);
          const currency = dto.currency ?? property.cashCurrency;
          return {
            subject: dto.patronId,
            terms: { patronId: dto.patronId, currency, creditLimit: creditLimit.toString() },
            needed: await this.ledger.limitApprovals(db, property, creditLimit, currency),
          };
        }
        const junket = await this.junketAt(tx, property.id, dto.junketId!);
        if (dto.currency !== undefined && dto.currency !== junket.currency)
          throw new AppError('VALIDATION_FAILED', `Junket ${junket.code}'s account is in ${junket.currency}: its credit line is too, not ${dto.currency}`);
        return this.ledger.junketLineAsked(db, property, junket, creditLimit);
      }
      case 'REPAYMENT': {
        only(['markerId', 'junketId', 'amount', 'method', 'reference']);
        const amount = BigInt(need(dto.amount, 'amount'));
        const method = need(dto.method, 'method');
        if ((method === 'CHECK' || method === 'WIRE') && dto.reference === undefined)
          throw new AppError(
            'VALIDATION_FAILED',
            `A ${method === 'CHECK' ? 'cheque' : 'wire'} repayment names what pays it: reference (the cheque's number, the wire's reference)`,
          );
        if ((dto.markerId === undefined) === (dto.junketId === undefined))
          throw new AppError('VALIDATION_FAILED', 'A repayment is on a marker or on a junket’s account: give markerId or junketId, not both');
        const terms = { amount: amount.toString(), method, ...(dto.reference !== undefined ? { reference: dto.reference } : {}) };
        if (dto.markerId !== undefined) {
          const m = await this.markerAt(db, property.id, dto.markerId);
          if (amount > BigInt(m.outstanding))
            throw new AppError('MARKER_OVERPAID', `The marker owes ${m.outstanding}; a repayment of ${amount} is more than that`, {
              outstanding: minorUnits(BigInt(m.outstanding)),
            });
          return { subject: dto.markerId, terms: { markerId: dto.markerId, currency: m.currency, ...terms }, needed: { approvals: 1, finalRole: null } };
        }
        const junket = await this.junketAt(tx, property.id, dto.junketId!);
        const onJunket = { junketId: junket.id, currency: junket.currency, ...terms };
        // No more than the junket owes: the junkets room's check, asked now and again at approval.
        await this.checks.check('REPAYMENT', tx, { propertyId: property.id, terms: onJunket }, 'ASKED');
        return { subject: junket.id, terms: onJunket, needed: { approvals: 1, finalRole: null } };
      }
      case 'WRITE_OFF': {
        only(['markerId']);
        const m = await this.markerAt(db, property.id, need(dto.markerId, 'markerId'));
        const owed = BigInt(m.outstanding);
        if (owed <= 0n) throw new AppError('CONFLICT', 'The marker owes nothing: there is nothing to write off');
        return {
          subject: m.id,
          terms: { markerId: m.id, currency: m.currency, amount: owed.toString() },
          needed: await this.ledger.limitApprovals(db, property, owed, m.currency),
        };
      }
      case 'DEPOSIT': {
        only(['markerId', 'reference']);
        const m = await this.markerAt(db, property.id, need(dto.markerId, 'markerId'));
        const owed = BigInt(m.outstanding);
        if (owed <= 0n) throw new AppError('CONFLICT', 'The marker owes nothing: there is nothing to deposit');
        if (m.depositedAt !== null)
          throw new AppError('CONFLICT', `The marker was deposited already, on ${new Date(m.depositedAt).toISOString().slice(0, 10)}`);
        return {
          subject: m.id,
          terms: { markerId: m.id, currency: m.currency, amount: owed.toString(), ...(dto.reference !== undefined ? { reference: dto.reference } : {}) },
          needed: { approvals: 1, finalRole: null },
        };
      }
      case 'POLICY': {
        only(['seniorLimitThreshold', 'repaymentThreshold', 'rollingCommissionCapBps', 'winLossCommissionCapBps']);
        return {
          subject: property.id,
          terms: {
            currency: property.cashCurrency,
            seniorLimitThreshold: String(need(dto.seniorLimitThreshold, 'seniorLimitThreshold')),
            repaymentThreshold: String(need(dto.repaymentThreshold, 'repaymentThreshold')),
            rollingCommissionCapBps: need(dto.rollingCommissionCapBps, 'rollingCommissionCapBps'),
            winLossCommissionCapBps: need(dto.winLossCommissionCapBps, 'winLossCommissionCapBps'),
          },
          // The policy sets every other control's bounds: the casino manager signs it last.
          needed: { approvals: 2, finalRole: SENIOR_CREDIT_ROLE },
        };
      }
      case 'PROGRAMME': {
        // A programme version's terms, as the rolling room records them quoting this request; within the policy's caps now (and again when recorded).
        only(['code', 'name', 'basis', 'commissionBps', 'allowanceBps', 'effectiveFrom']);
        const terms = {
          code: need(dto.code, 'code'),
          name: need(dto.name, 'name'),
          basis: need(dto.basis, 'basis'),
          commissionBps: need(dto.commissionBps, 'commissionBps'),
          allowanceBps: dto.allowanceBps ?? 0,
          effectiveFrom: need(dto.effectiveFrom, 'effectiveFrom'),
        };
        // When it may start and within the caps in force: the rolling room's check, asked now and again at approval.
        await this.checks.check('PROGRAMME', tx, { propertyId: property.id, terms }, 'ASKED');
        return { subject: terms.code, terms, needed: { approvals: 1, finalRole: null } };
      }
      case 'STATEMENT': {
        // A junket's statement agreed for the casino: a second person approves what the first asks to agree; the junkets room
        // records it quoting this request, once the figures still give the digest and no chips are lost that were never bought.
        only(['junketId', 'from', 'to', 'digest', 'junketSignatory']);
        const junket = await this.junketAt(tx, property.id, need(dto.junketId, 'junketId'));
        const from = need(dto.from, 'from');
        const to = need(dto.to, 'to');
        assertDayRange(from, to);
        const terms = { junketId: junket.id, from, to, digest: need(dto.digest, 'digest'), junketSignatory: need(dto.junketSignatory, 'junketSignatory') };
        await this.checks.check('STATEMENT', tx, { propertyId: property.id, terms }, 'ASKED');
        return { subject: junket.id, terms, needed: { approvals: 1, finalRole: null } };
      }
    }
  }

  async approve(id: string, dto: CreditDecisionInputDto, ctx: RequestContext): Promise<CreditRequestDto> {
    return this.decide(id, true, dto.note ?? null, ctx);
  }

  async reject(id: string, dto: CreditDecisionInputDto, ctx: RequestContext): Promise<CreditRequestDto> {
    if (dto.note === undefined) throw new AppError('VALIDATION_FAILED', 'Say why the request is rejected (note)');
    return this.decide(id, false, dto.note, ctx);
  }

  private async decide(id: string, approve: boolean, note: string | null, ctx: RequestContext): Promise<CreditRequestDto> {
    // Who could hold the requesting key (then and now) and the deciding key, read before the transaction.
    const first = await this.prisma.creditRequest.findUnique({ where: { id }, select: { requestedByKeyId: true, requesterPersons: true } });
    if (!first) throw notFound('Credit request', id);
    const requester = holderSince(await this.keys.holder(first.requestedByKeyId), first.requesterPersons);
    const decider = await this.keys.holder(ctx.actor.keyId);
    return this.prisma.transaction(ctx, async (tx) => {
      const db = prismaRunner(tx);
      await this.ledger.lockRequest(db, id);
      const r = await this.row(db, id);
      const before: CreditDecisionTaken[] = r.decisions.map((d) => ({ approve: d.approve, keyId: d.keyId, persons: d.persons }));
      if (creditRequestStatus(r.approvalsNeeded, before) !== 'PENDING')
        throw new AppError('CREDIT_REQUEST_DECIDED', `This credit request was already ${creditRequestStatus(r.approvalsNeeded, before).toLowerCase()}`);
      const problem = creditDecisionProblem(
        { requester, approvalsNeeded: r.approvalsNeeded, finalRole: r.finalRole },
        before,
        decider,
        ctx.actor.role,
        approve,
      );
      if (problem) throw new AppError(problem.code, problem.message);
      if (approve && before.length + 1 === r.approvalsNeeded) await this.assertStillEnough(tx, r);
      if (approve) await this.checks.check(r.act, tx, { propertyId: r.propertyId, terms: r.terms }, 'APPROVED');
      const step = before.length + 1;
      const decisionId = randomUUID();
      await tx.creditDecision.create({
        data: {
          id: decisionId,
          requestId: id,
          step,
          approve,
          keyId: ctx.actor.keyId,
          role: ctx.actor.role,
          persons: [...decider.persons],
          note,
          decidedAt: new Date(),
        },
      });
      const sealed: SealRef[] = [seal('credit_decisions', decisionId)];
      const inForce = approve && step === r.approvalsNeeded ? await this.putInForce(tx, r, sealed) : null;
      await this.audit.append(tx, ctx, {
        stream: CREDIT_STREAM,
        action: approve ? 'credit.approve' : 'credit.reject',
        entityType: 'creditRequest',
        entityId: id,
        data: { step, note, act: r.act, subject: r.subject, requestedBy: requester, decidedBy: decider, inForce },
        seals: sealed,
      });
      return this.get(id, tx);
    });
  }

  /**
   * The approvals a credit line or a write-off needs are judged again when the last is given, under
   * the policy and the day's rate then: a request filed under a higher threshold (or a kinder rate)
   * does not pass on fewer signatures than its act needs now.
   */
  private async assertStillEnough(tx: Tx, r: CreditRequestRow): Promise<void> {
    if (r.act !== 'LIMIT' && r.act !== 'WRITE_OFF') return;
    const t = r.terms as Record<string, string>;
    const property = await tx.property.findUniqueOrThrow({ where: { id: r.propertyId } });
    const now = await this.ledger.limitApprovals(prismaRunner(tx), property, BigInt(r.act === 'LIMIT' ? t.creditLimit : t.amount), t.currency);
    if (now.approvals > r.approvalsNeeded || (now.finalRole !== null && r.finalRole !== now.finalRole))
      throw new AppError(
        'CREDIT_REQUEST_STALE',
        `Under the property's credit policy now (and the day's rate), this ${r.act === 'LIMIT' ? 'credit line' : 'write-off'} is over the threshold and needs ${now.approvals} approvals, the casino manager last; it was asked for when it needed ${r.approvalsNeeded}. Reject it and ask again`,
      );
  }

  /** What the last approval puts in force, written in its transaction (a repayment is recorded by the cage quoting the request). */
  private async putInForce(tx: Tx, r: CreditRequestRow, sealed: SealRef[]): Promise<Record<string, unknown> | null> {
    const t = r.terms as Record<string, string | number>;
    const now = new Date();
    const rowId = randomUUID();
    switch (r.act) {
      case 'LIMIT':
        await tx.creditLine.create({
          data: {
            id: rowId,
            propertyId: r.propertyId,
            patronId: (t.patronId as string | undefined) ?? null,
            operatorId: (t.junketId as string | undefined) ?? null,
            currency: t.currency as string,
            creditLimit: BigInt(t.creditLimit),
            requestId: r.id,
            approvedAt: now,
          },
        });
        sealed.push(seal('credit_lines', rowId));
        return { creditLineId: rowId, creditLimit: String(t.creditLimit) };
      case 'POLICY':
        await tx.creditPolicy.create({
          data: {
            id: rowId,
            propertyId: r.propertyId,
            currency: t.currency as string,
            seniorLimitThreshold: BigInt(t.seniorLimitThreshold),
            repaymentThreshold: BigInt(t.repaymentThreshold),
            rollingCommissionCapBps: Number(t.rollingCommissionCapBps),
            winLossCommissionCapBps: Number(t.winLossCommissionCapBps),
            requestId: r.id,
            approvedAt: now,
          },
        });
        sealed.push(seal('credit_policies', rowId));
        return { creditPolicyId: rowId };
      case 'WRITE_OFF': {
        const db = prismaRunner(tx);
        await db.run(LEDGER_SQL.lockMarker.bind({ markerId: t.markerId as string }));
        const m = await this.markerAt(db, r.propertyId, t.markerId as string);
        const owed = BigInt(m.outstanding);
        // What it owes now (a payment may have come in since the request): never more than that, never a second write-off.
        if (owed <= 0n) throw new AppError('CONFLICT', 'The marker owes nothing now: there is nothing to write off');
        await tx.markerWriteOff.create({ data: { id: rowId, markerId: m.id, amount: owed, requestId: r.id, writtenOffAt: now } });
        sealed.push(seal('marker_write_offs', rowId));
        return { writeOffId: rowId, amount: owed.toString() };
      }
      case 'DEPOSIT': {
        const db = prismaRunner(tx);
        await db.run(LEDGER_SQL.lockMarker.bind({ markerId: t.markerId as string }));
        const m = await this.markerAt(db, r.propertyId, t.markerId as string);
        const owed = BigInt(m.outstanding);
        // What it owes now goes to the bank (a payment may have come in since the request), once.
        if (owed <= 0n) throw new AppError('CONFLICT', 'The marker owes nothing now: there is nothing to deposit: reject this request');
        if (m.depositedAt !== null)
          throw new AppError('CONFLICT', `The marker was deposited already, on ${new Date(m.depositedAt).toISOString().slice(0, 10)}: reject this request`);
        await tx.markerDeposit.create({ data: { id: rowId, markerId: m.id, amount: owed, requestId: r.id, depositedAt: now } });
        sealed.push(seal('marker_deposits', rowId));
        return { depositId: rowId, amount: owed.toString() };
      }
      // Recorded by the room that owns the record, quoting the request: a repayment by the cage, a programme version by the
      // rolling room, a statement by the junkets room.
      case 'REPAYMENT':
      case 'PROGRAMME':
      case 'STATEMENT':
        return null;
    }
  }

  async list(propertyId: string, subject: string | undefined): Promise<CreditRequestDto[]> {
    if (!(await this.prisma.property.findUnique({ where: { id: propertyId }, select: { id: true } }))) throw notFound('Property', propertyId);
    const rows = await this.ledger.requests(prismaRunner(this.prisma), propertyId, subject ?? null, 500);
    return rows.map(toDto);
  }

  async get(id: string, tx?: Tx): Promise<CreditRequestDto> {
    return toDto(await this.row(prismaRunner(tx ?? this.prisma), id));
  }

  private async row(db: SqlRunner, id: string): Promise<CreditRequestRow> {
    const r = await this.ledger.request(db, id);
    if (!r) throw notFound('Credit request', id);
    return r;
  }

  private async junketAt(tx: Tx, propertyId: string, junketId: string) {
    const junket = await tx.junketOperator.findUnique({ where: { id: junketId } });
    if (!junket || junket.propertyId !== propertyId) throw notFound('Junket at this property', junketId);
    return junket;
  }

  private async markerAt(db: SqlRunner, propertyId: string, markerId: string) {
    const [m] = await this.ledger.markersOwed(db, propertyId, { markerId });
    if (!m) throw notFound('Marker at this property', markerId);
    return m;
  }
}

function toDto(r: CreditRequestRow): CreditRequestDto {
  return {
    id: r.id,
    propertyId: r.propertyId,
    act: r.act,
    subject: r.subject,
    terms: r.terms,
    reason: r.reason,
    status: creditRequestStatus(r.approvalsNeeded, r.decisions),
    approvalsNeeded: r.approvalsNeeded,
    finalRole: r.finalRole,
    requestedByKeyId: r.requestedByKeyId,
    requestedAt: new Date(r.requestedAt).toISOString(),
    recordedAt: r.recordedAt === null ? null : new Date(r.recordedAt).toISOString(),
    marker: r.marker && { ...r.marker, issuedAt: new Date(r.marker.issuedAt).toISOString(), amount: minorUnits(BigInt(r.marker.amount)) },
    junket: r.junket,
    decisions: r.decisions.map((d) => ({
      step: d.step,
      approve: d.approve,
      keyId: d.keyId,
      role: d.role,
      note: d.note,
      decidedAt: new Date(d.decidedAt).toISOString(),
    })),
  };
}
