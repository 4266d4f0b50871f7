import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../platform/common/context';
import { AppError } from '../../platform/common/errors';
import { minorUnits } from '../../platform/common/exact-json';
import { assertDayRange } from '../../platform/common/validation';
import { PrismaService } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import { AccountEntryKind, admitEntry, balanceEffect } from '../../domain';
import type { Actor } from '../../platform/common/actor';
import type { AuditContext } from '../../platform/common/context';
import { Tx } from '../../platform/database/prisma.service';
import { JunketOperator } from '../../generated/prisma/client';
import { ApprovalChecks } from '../../foundation/ledger/approval-checks';
import { CreditLedger } from '../../foundation/ledger/credit-ledger';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { seal } from '../../foundation/ledger/seals';
import { AccountEntryDto, AccountEntryInputDto, PeriodQueryDto } from './dto/junkets.dto';
import { balanceBefore, findJunket, JUNKETS_STREAM, todayAt } from './junket-operator';
import { entryDto } from './junket-rows';
import { JUNKETS_SQL as SQL } from './junkets-sql';

/**
 * The junket operator's account with the casino (docs/domain.md §16): markers, repayments and
 * payouts, dated today, and the account over a range of gaming days with the balance after each
 * entry. Agreed statements credit their commission and allowances (JunketStatementsService).
 */
@Injectable()
export class JunketAccountService implements OnModuleInit {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    private readonly credit: CreditLedger,
    private readonly checks: ApprovalChecks,
  ) {}

  /** A repayment asked for on a junket's account is no more than it owes, asked and approved alike. */
  onModuleInit(): void {
    this.checks.register('REPAYMENT', async (tx, asked) => {
      const junketId = asked.terms.junketId;
      if (typeof junketId !== 'string') return;
      const line = await this.credit.junketLine(prismaRunner(tx), junketId);
      admitEntry('REPAYMENT', BigInt(String(asked.terms.amount)), await balanceBefore(prismaRunner(tx), junketId, null), line.creditLimit);
    });
  }

  /**
   * A marker, a repayment or a payout on the junket's account, dated today. A marker fits in the
   * junket's approved credit line (docs/domain/credit.md); a repayment by cheque or wire names its
   * reference, and over the property's repayment threshold is recorded only as a second person
   * approved it (the credit request quoted).
   */
  async addEntry(junketId: string, dto: AccountEntryInputDto, ctx: RequestContext): Promise<AccountEntryDto> {
    if ((dto.kind === 'MARKER') !== (dto.method === undefined))
      throw new AppError(
        'VALIDATION_FAILED',
        dto.kind === 'MARKER' ? 'A marker has no payment method' : `A ${dto.kind.toLowerCase()} says how it was paid: method`,
      );
    if (dto.kind !== 'REPAYMENT' && (dto.reference !== undefined || dto.requestId !== undefined))
      throw new AppError('VALIDATION_FAILED', 'Only a repayment takes a reference and a requestId');
    if (dto.kind === 'REPAYMENT' && (dto.method === 'CHECK' || dto.method === 'WIRE') && dto.reference === undefined)
      throw new AppError(
        'VALIDATION_FAILED',
        `A ${dto.method === 'CHECK' ? 'cheque' : 'wire'} repayment names what pays it: reference (the cheque's number, the wire's reference)`,
      );
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await findJunket(tx, junketId);
      const amount = BigInt(dto.amount);
      const { out } = await this.entryIn(tx, ctx, op, {
        kind: dto.kind,
        amount,
        method: dto.method ?? null,
        reference: dto.reference ?? null,
        requestId: dto.requestId ?? null,
      });
      return out;
    });
  }

  /**
   * Writes an entry of the junket's account in the caller's transaction, admitted against the
   * balance and the credit line in force, and its audit entry; returns it and its row id.
   */
  async entryIn(
    tx: Tx,
    ctx: AuditContext & { readonly actor: Actor },
    op: JunketOperator,
    e: { kind: 'MARKER' | 'REPAYMENT' | 'PAYOUT'; amount: bigint; method: string | null; reference: string | null; requestId: string | null },
  ): Promise<{ out: AccountEntryDto; id: string }> {
    const db = prismaRunner(tx);
    await db.run(SQL.lockJunket.bind({ junketId: op.id }));
    const balance = await balanceBefore(db, op.id, null);
    const line = await this.credit.junketLine(db, op.id);
    const approval = async () => {
      const property = await tx.property.findUniqueOrThrow({ where: { id: op.propertyId } });
      await this.credit.admitRepayment(db, property, { ...e, currency: op.currency, method: e.method! }, { junketId: op.id });
    };
    // A repayment quoting a request is judged by it first (paid already, or not this one, is said as such);
    // one without is judged by what is owed first (no approval is asked for what cannot be paid).
    if (e.kind === 'REPAYMENT' && e.requestId !== null) await approval();
    admitEntry(e.kind, e.amount, balance, line.creditLimit);
    if (e.kind === 'REPAYMENT' && e.requestId === null) await approval();
    const now = new Date();
    const row = await tx.junketAccountEntry.create({
      data: {
        id: randomUUID(),
        operatorId: op.id,
        kind: e.kind,
        amount: e.amount,
        currency: op.currency,
        method: e.method,
        gamingDay: new Date(`${await todayAt(tx, op.propertyId, now)}T00:00:00Z`),
        at: now,
        recordedByKeyId: ctx.actor.keyId,
        reference: e.reference,
        requestId: e.requestId,
      },
    });
    const out = entryDto(row, balance + balanceEffect({ kind: e.kind, amount: e.amount }));
    await this.audit.append(tx, ctx, {
      stream: JUNKETS_STREAM,
      action: 'junket.entry',
      entityType: 'junket',
      entityId: op.id,
      data: { ...out, amount: e.amount, balance: balance + balanceEffect({ kind: e.kind, amount: e.amount }) },
      seals: [seal('junket_account_entries', row.id)],
    });
    return { out, id: row.id };
  }

  /** The junket's account entries over a range of gaming days, each with the balance after it. */
  async entries(junketId: string, q: PeriodQueryDto): Promise<AccountEntryDto[]> {
    assertDayRange(q.from, q.to);
    const op = await findJunket(this.prisma, junketId);
    const db = prismaRunner(this.prisma);
    let balance = await balanceBefore(db, op.id, q.from);
    const rows = await db.query<{
      id: string;
      kind: AccountEntryKind;
      amount: string;
      currency: string;
      method: string | null;
      statementId: string | null;
      gamingDay: string;
      at: Date;
      recordedByKeyId: string;
      reference: string | null;
    }>(SQL.junketEntries.bind({ junketId: op.id, from: q.from, to: q.to }));
    return rows.map((r) => {
      balance += balanceEffect({ kind: r.kind, amount: BigInt(r.amount) });
      return {
        id: r.id,
        kind: r.kind,
        amount: minorUnits(BigInt(r.amount)),
        currency: r.currency,
        method: r.method,
        statementId: r.statementId,
        gamingDay: r.gamingDay,
        at: r.at.toISOString(),
        recordedByKeyId: r.recordedByKeyId,
        reference: r.reference,
        balance: minorUnits(balance),
      };
    });
  }
}
