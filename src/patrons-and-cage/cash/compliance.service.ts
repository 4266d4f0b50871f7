import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../platform/common/context';
import { minorUnits, minorUnitsOrNull } from '../../platform/common/exact-json';
import { notFound } from '../../platform/common/errors';
import { PrismaService } from '../../platform/database/prisma.service';
import { assertDayRange } from '../../platform/common/validation';
import { prismaRunner } from '../../platform/database/sql';
import {
  CashTransaction,
  expectedDrop,
  inMultipleTransactionLog,
  PatronCashDay,
  patronCashDays,
  reportCandidates,
  STRUCTURING_WINDOW_HOURS,
  structuringAcrossDays,
  structuringAlerts,
} from '../../domain';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { thresholdsOf } from './cash.service';
import { CASH_SQL as SQL } from './cash-sql';
import { CashReportDto, CashReportQueryDto, CashTransactionDto, DropLineDto, PatronCashDayDto } from './dto/cash.dto';

interface LogRow {
  id: string;
  patron_id: string | null;
  direction: 'IN' | 'OUT';
  kind: string;
  amount: string;
  currency: string;
  gaming_day: string;
  table_id: string | null;
  at: Date;
}

interface DropRow {
  table_id: string;
  table_code: string;
  currency: string;
  gaming_day: string;
  cash: string;
  markers: string;
  chips: string;
  counted: string | null;
  open_sessions: number;
}

/**
 * Gaming days read before a report's range, for structuring across a gaming-day boundary: a window
 * of STRUCTURING_WINDOW_HOURS ending on the range's first day reaches into the day before it, or
 * into the one before that when the day before was shortened by a change of clocks.
 */
const LOOK_BACK_DAYS = Math.ceil(STRUCTURING_WINDOW_HOURS / 24) + 1;

/**
 * What a compliance officer files from (docs/domain.md §11), and the drop reconciled against the
 * buy-ins. The reports read patrons' records: each read is in the audit chain.
 */
@Injectable()
export class ComplianceService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
  ) {}

  async cashReport(q: CashReportQueryDto, ctx: RequestContext): Promise<CashReportDto> {
    assertDayRange(q.from, q.to);
    return this.prisma.transaction(ctx, async (tx) => {
      const property = await tx.property.findUnique({ where: { id: q.propertyId } });
      if (!property) throw notFound('Property', q.propertyId);
      const thresholds = thresholdsOf(property);
      const rows = await prismaRunner(tx).query<LogRow>(SQL.cashLog.bind({ ...q, lookBackDays: LOOK_BACK_DAYS }));
      const byId = new Map(rows.map((r) => [r.id, r]));
      const all: CashTransaction[] = rows.map((r) => ({
        id: r.id,
        patronId: r.patron_id,
        direction: r.direction,
        amount: BigInt(r.amount),
        currency: r.currency,
        gamingDay: r.gaming_day,
        at: r.at,
      }));
      // The days before the range are read only for windows across a gaming-day boundary that end in it.
      const inRange = (day: string) => day >= q.from && day <= q.to;
      const log = all.filter((t) => inRange(t.gamingDay));
      const days = patronCashDays(log, thresholds);
      const tx$ = (t: CashTransaction) => toTransactionDto(byId.get(t.id)!);
      const day$ = (d: PatronCashDay): PatronCashDayDto => ({
        patronId: d.patronId,
        gamingDay: d.gamingDay,
        direction: d.direction,
        total: minorUnits(d.total),
        transactions: d.transactions.map(tx$),
      });
      await this.audit.patronRead(tx, ctx, { type: 'property', id: q.propertyId }, { read: 'cash-report', from: q.from, to: q.to });
      return {
        propertyId: q.propertyId,
        from: q.from,
        to: q.to,
        thresholds: {
          currency: thresholds.currency,
          mtl: minorUnits(thresholds.mtl),
          ctr: minorUnits(thresholds.ctr),
          structuringFloorBps: thresholds.structuringFloorBps,
        },
        multipleTransactionLog: log.filter((t) => inMultipleTransactionLog(t, thresholds)).map(tx$),
        reportCandidates: reportCandidates(days, thresholds).map(day$),
        structuring: [...structuringAlerts(days, thresholds), ...structuringAcrossDays(all, thresholds).filter((a) => inRange(a.gamingDay))]
          .sort((a, b) => cmp(a.patronId, b.patronId) || cmp(a.gamingDay, b.gamingDay) || cmp(a.direction, b.direction))
          .map((a) => ({ ...day$(a), pattern: a.pattern })),
        patronDays: days.map(day$),
      };
    });
  }

  /** Each table-day's buy-ins against its counted drop. */
  async drop(q: CashReportQueryDto): Promise<DropLineDto[]> {
    assertDayRange(q.from, q.to);
    if (!(await this.prisma.property.findUnique({ where: { id: q.propertyId }, select: { id: true } }))) throw notFound('Property', q.propertyId);
    const rows = await prismaRunner(this.prisma).query<DropRow>(SQL.dropLines.bind(q));
    return rows.map((r) => {
      const expected = expectedDrop([
        { kind: 'CASH', amount: BigInt(r.cash) },
        { kind: 'MARKER', amount: BigInt(r.markers) },
        { kind: 'CHIPS', amount: BigInt(r.chips) },
      ]);
      const counted = r.open_sessions === 0 && r.counted !== null ? BigInt(r.counted) : null;
      return {
        tableId: r.table_id,
        tableCode: r.table_code,
        gamingDay: r.gaming_day,
        currency: r.currency,
        cash: minorUnits(BigInt(r.cash)),
        markers: minorUnits(BigInt(r.markers)),
        chips: minorUnits(BigInt(r.chips)),
        expectedDrop: minorUnits(expected),
        countedDrop: minorUnitsOrNull(counted),
        difference: minorUnitsOrNull(counted === null ? null : counted - expected),
        status: counted === null ? 'NOT_COUNTED' : counted === expected ? 'RECONCILED' : 'EXCEPTION',
      };
    });
  }
}

function toTransactionDto(r: LogRow): CashTransactionDto {
  return {
    id: r.id,
    patronId: r.patron_id,
    direction: r.direction,
    kind: r.kind,
    amount: minorUnits(BigInt(r.amount)),
    currency: r.currency,
    gamingDay: r.gaming_day,
    tableId: r.table_id,
    at: r.at.toISOString(),
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
