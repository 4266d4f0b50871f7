import { notFound } from '../../platform/common/errors';
import { PrismaService } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import {
  decisionsPerHour,
  expectedPaceInForce,
  ExpectedPaceEntry,
  hoursOf,
  IDLE_ALLOWANCE_SECONDS,
  idleMinutesPerHour,
  midpointDecisionsPerHour,
  minutesOf,
  PaceSums,
  percentOfExpected,
  perThousand,
  Variant,
} from '../../domain';
import { ExpectedPaceDto, PaceFiguresDto, PaceQueryDto, PaceReportDto } from './dto/pace.dto';
import { PACE_SQL } from './pace-sql';
import { parseRange } from './report-figures';

/**
 * The pace report (GET /v1/reports/pace; docs/domain.md §13): decisions per hour by dealer, table and
 * hour of the day, voids and misdeals per 1,000 coups, idle time, and each variant against the pace
 * its property expects and against its own median. PostgreSQL sums staffed and idle time and counts
 * the coups (pace.sql); every figure is made from those sums by the domain's formulas.
 */

interface Row {
  grain: 'dealer' | 'table' | 'hour' | 'variant' | 'total';
  dealer_id: string | null;
  table_id: string | null;
  table_code: string | null;
  pit: string | null;
  hour: number | null;
  property_id: string | null;
  variant: Variant | null;
  staffed: string;
  idle: string;
  decisions: string;
  voids: string;
  misdeals: string;
  outside: string | null;
  samples: string | null;
  lo_decisions: string | null;
  lo_staffed: string | null;
  hi_decisions: string | null;
  hi_staffed: string | null;
}

const sumsOf = (r: Row): PaceSums => ({
  staffed: BigInt(r.staffed),
  idle: BigInt(r.idle),
  decisions: BigInt(r.decisions),
  voids: BigInt(r.voids),
  misdeals: BigInt(r.misdeals),
});

/** A row's figures, each by its one formula. */
export function paceFigures(s: PaceSums): PaceFiguresDto {
  const coups = s.decisions + s.voids + s.misdeals;
  return {
    staffedHours: hoursOf(s.staffed),
    decisions: Number(s.decisions),
    decisionsPerHour: decisionsPerHour(s.decisions, s.staffed),
    coups: Number(coups),
    voids: Number(s.voids),
    voidsPer1000Coups: perThousand(s.voids, coups),
    misdeals: Number(s.misdeals),
    misdealsPer1000Coups: perThousand(s.misdeals, coups),
    idleMinutes: minutesOf(s.idle),
    idleMinutesPerHour: idleMinutesPerHour(s.idle, s.staffed),
  };
}

export async function paceReport(db: PrismaService, q: PaceQueryDto): Promise<PaceReportDto> {
  const { from, to } = parseRange(q);
  if (q.propertyId && !(await db.property.findUnique({ where: { id: q.propertyId }, select: { id: true } }))) throw notFound('Property', q.propertyId);
  if (q.tableId && !(await db.casinoTable.findUnique({ where: { id: q.tableId }, select: { id: true } }))) throw notFound('Table', q.tableId);
  const runner = prismaRunner(db);
  const rows = await runner.query<Row>(
    PACE_SQL.paceFigures.bind({
      from,
      to,
      asOf: new Date().toISOString(),
      allowanceSeconds: IDLE_ALLOWANCE_SECONDS,
      propertyId: q.propertyId ?? null,
      tableId: q.tableId ?? null,
      pit: q.pit ?? null,
      variant: q.variant ?? null,
    }),
  );
  const propertyIds = [...new Set(rows.filter((r) => r.property_id !== null).map((r) => r.property_id!))].sort();
  const entries = propertyIds.length
    ? await runner.query<{ id: string; property_id: string; variant: Variant; decisions_per_hour: number; entered_at: Date }>(
        PACE_SQL.paceTargetEntries.bind({ propertyIds }),
      )
    : [];
  const inForce = new Map(
    propertyIds.map((p) => [
      p,
      expectedPaceInForce(
        entries
          .filter((e) => e.property_id === p)
          .map((e): ExpectedPaceEntry => ({ id: e.id, variant: e.variant, decisionsPerHour: e.decisions_per_hour, enteredAt: e.entered_at.getTime() })),
      ),
    ]),
  );
  const expected = (r: Row): ExpectedPaceDto => {
    const e = inForce.get(r.property_id!)![r.variant!];
    return {
      decisionsPerHour: e.decisionsPerHour,
      source: e.source,
      percentOfExpected: percentOfExpected(BigInt(r.decisions), BigInt(r.staffed), e.decisionsPerHour),
    };
  };
  const of = (grain: Row['grain']) => rows.filter((r) => r.grain === grain);
  const total = of('total')[0];
  return {
    from,
    to,
    idleAllowanceSeconds: IDLE_ALLOWANCE_SECONDS,
    totals: { ...paceFigures(sumsOf(total)), decisionsOutsideShifts: Number(total.outside ?? 0) },
    dealers: of('dealer')
      .sort((a, b) => (a.dealer_id! < b.dealer_id! ? -1 : 1))
      .map((r) => ({ dealerId: r.dealer_id!, ...paceFigures(sumsOf(r)) })),
    tables: of('table')
      .sort((a, b) => (a.table_code! < b.table_code! ? -1 : a.table_code! > b.table_code! ? 1 : a.table_id! < b.table_id! ? -1 : 1))
      .map((r) => ({
        tableId: r.table_id!,
        tableCode: r.table_code!,
        pit: r.pit!,
        variant: r.variant!,
        propertyId: r.property_id!,
        ...paceFigures(sumsOf(r)),
        decisionsOutsideShifts: Number(r.outside ?? 0),
        expected: expected(r),
      })),
    hours: of('hour')
      .sort((a, b) => a.hour! - b.hour!)
      .map((r) => ({ hour: r.hour!, ...paceFigures(sumsOf(r)) })),
    variants: of('variant')
      .sort((a, b) => (a.property_id! < b.property_id! ? -1 : a.property_id! > b.property_id! ? 1 : a.variant! < b.variant! ? -1 : 1))
      .map((r) => ({
        propertyId: r.property_id!,
        variant: r.variant!,
        ...paceFigures(sumsOf(r)),
        expected: expected(r),
        observedMedianDecisionsPerHour:
          r.samples === null
            ? null
            : midpointDecisionsPerHour(
                { decisions: BigInt(r.lo_decisions!), staffed: BigInt(r.lo_staffed!) },
                { decisions: BigInt(r.hi_decisions!), staffed: BigInt(r.hi_staffed!) },
              ),
        tableDays: Number(r.samples ?? 0),
      })),
  };
}
