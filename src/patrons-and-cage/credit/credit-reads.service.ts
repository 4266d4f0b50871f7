import { Injectable } from '@nestjs/common';
import { AGE_BUCKETS, ageBucket, gamingDayOf, markerAgeDays, markerAgeing } from '../../domain';
import type { RequestContext } from '../../platform/common/context';
import { minorUnits } from '../../platform/common/exact-json';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { CreditLedger } from '../../foundation/ledger/credit-ledger';
import { AgeingDto, CreditLineDto, CreditPolicyDto } from './dto/credit.dto';

/**
 * What the credit department and the cage read (docs/domain/credit.md): a patron's credit line
 * with what they owe and may still borrow, the property's credit policy, and the markers' ageing.
 */
@Injectable()
export class CreditReadsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly lines: CreditLedger,
    private readonly audit: AuditLog,
  ) {}

  /** A patron's credit line at the property (a read of the patron's record, audited). */
  async patronLine(propertyId: string, card: string, currency: string | undefined, ctx: RequestContext): Promise<CreditLineDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const property = await tx.property.findUnique({ where: { id: propertyId } });
      if (!property) throw notFound('Property', propertyId);
      if (!(await tx.patron.findUnique({ where: { card }, select: { card: true } })))
        throw new AppError('UNKNOWN_PATRON', `No patron is registered with card ${card}`);
      const db = prismaRunner(tx);
      const cur = currency ?? property.cashCurrency;
      const line = await this.lines.patronLine(db, card, property.id, cur);
      const outstanding = await this.lines.patronOutstanding(db, card, property.id, cur);
      await this.audit.patronRead(tx, ctx, { type: 'patron', id: card }, { read: 'credit line', propertyId, currency: cur });
      return {
        holder: card,
        currency: cur,
        creditLimit: minorUnits(line.creditLimit),
        outstanding: minorUnits(outstanding),
        available: minorUnits(line.creditLimit > outstanding ? line.creditLimit - outstanding : 0n),
        approvedAt: line.approvedAt?.toISOString() ?? null,
      };
    });
  }

  async policy(propertyId: string): Promise<CreditPolicyDto> {
    const property = await this.prisma.property.findUnique({ where: { id: propertyId } });
    if (!property) throw notFound('Property', propertyId);
    const p = await this.lines.policy(prismaRunner(this.prisma), property);
    return {
      currency: p.currency,
      seniorLimitThreshold: minorUnits(p.seniorLimitThreshold),
      repaymentThreshold: minorUnits(p.repaymentThreshold),
      rollingCommissionCapBps: p.rollingCommissionCapBps,
      winLossCommissionCapBps: p.winLossCommissionCapBps,
      approved: p.approved,
    };
  }

  /** The property's markers still owed, aged to a gaming day (default today): 30/60/90 days, per currency. */
  async ageing(propertyId: string, asOf: string | undefined, ctx: RequestContext): Promise<AgeingDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const property = await tx.property.findUnique({ where: { id: propertyId } });
      if (!property) throw notFound('Property', propertyId);
      const day = asOf ?? gamingDayOf(new Date(), property.timeZone, property.gamingDayStartHour);
      const rows = await this.lines.markersOwed(prismaRunner(tx), propertyId);
      const owed = rows.filter((r) => BigInt(r.outstanding) > 0n && r.issuedDay <= day);
      const totals = markerAgeing(
        owed.map((r) => ({ id: r.id, currency: r.currency, issuedDay: r.issuedDay, outstanding: BigInt(r.outstanding) })),
        day,
      );
      await this.audit.patronRead(tx, ctx, { type: 'property', id: propertyId }, { read: 'marker ageing', asOf: day });
      return {
        asOf: day,
        totals: [...totals.entries()]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([currency, t]) => ({
            currency,
            current: minorUnits(t.CURRENT),
            days31to60: minorUnits(t.DAYS_31_60),
            days61to90: minorUnits(t.DAYS_61_90),
            over90: minorUnits(t.OVER_90),
            total: minorUnits(AGE_BUCKETS.reduce((s, b) => s + t[b], 0n)),
          })),
        markers: owed.map((r) => {
          const ageDays = markerAgeDays(r.issuedDay, day);
          return {
            id: r.id,
            patronId: r.patronId,
            tableId: r.tableId,
            currency: r.currency,
            issuedDay: r.issuedDay,
            ageDays,
            bucket: ageBucket(ageDays),
            amount: minorUnits(BigInt(r.amount)),
            outstanding: minorUnits(BigInt(r.outstanding)),
            depositedAt: r.depositedAt ? new Date(r.depositedAt).toISOString() : null,
          };
        }),
      };
    });
  }
}
