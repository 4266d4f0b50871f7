import path from 'node:path';
import { notFound } from '../../platform/common/errors';
import { PrismaService } from '../../platform/database/prisma.service';
import { Prisma } from '../../generated/prisma/client';
import { DEFAULT_PROPERTY_ID } from '../../foundation/pit/table-rules';
import { minorUnits, parseExact } from '../../platform/common/exact-json';
import { ExceptionsDto, FiguresDto, ProgrammeRevenueDto, QuarterlyDto, QuarterlyQueryDto, TableAccountingLineDto, WinLossRowDto } from './dto/report.dto';
import { figuresSql, probabilitiesSql, sumsSql } from './report-figures';
import { tableAccountingJson } from './table-accounting-report';
import { prismaRunner, SqlRunner } from '../../platform/database/sql';
import { loadQueries } from '../../platform/database/named-sql';
import { houseWin, junketDues, ProgrammeVersion } from '../../domain';

/** A property's quarterly statement (GET /v1/reports/quarterly): totals, months, variants, tables, table accounting and the exception report. */

export async function quarterly(db: PrismaService, q: QuarterlyQueryDto): Promise<QuarterlyDto> {
  const year = Number(q.year);
  const quarter = Number(q.quarter);
  const propertyId = q.propertyId ?? DEFAULT_PROPERTY_ID;
  const property = await db.property.findUnique({ where: { id: propertyId } });
  if (!property) throw notFound('Property', propertyId);
  const firstMonth = (quarter - 1) * 3;
  const from = new Date(Date.UTC(year, firstMonth, 1)).toISOString().slice(0, 10);
  const to = new Date(Date.UTC(year, firstMonth + 3, 0)).toISOString().slice(0, 10);

  // One pass over the table-day rollups, every section at once (GROUPING SETS); the table
  // accounting and the exception report are independent queries, run at the same time.
  const accounting = tableAccountingJson(db, from, to, propertyId, false);
  const exceptions = exceptionReport(db, from, to, propertyId);
  const [{ json }] = await db.$queryRaw<{ json: string }[]>`
    WITH a AS (
      SELECT r.table_id, date_trunc('month', r.gaming_day)::date AS m, ${Prisma.raw(sumsSql(true))}
      FROM table_day_rollups r
      WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date AND r.table_id IN (SELECT id FROM casino_tables WHERE property_id = ${propertyId}::uuid)
      GROUP BY 1, 2
    ), s AS (
      SELECT GROUPING(a.m, t.variant, t.id) AS g, t.currency::text AS currency, to_char(a.m, 'YYYY-MM') AS month, t.variant::text AS variant,
             t.id::text AS "tableId", t.code AS "tableCode",
             sum(a.wagers) AS wagers, sum(a.handle) AS handle, sum(a.payouts) AS payouts, sum(a.commission) AS commission, sum(a.collected) AS collected,
             sum(a.net) AS net, sum(a.theo) AS theo, sum(a.var) AS var,
             sum(a.p_wagers) AS p_wagers, sum(a.p_handle) AS p_handle, sum(a.p_commission) AS p_commission, sum(a.p_net) AS p_net, sum(a.p_theo) AS p_theo, sum(a.coups) AS coups, sum(a.banker) AS banker, sum(a.player) AS player, sum(a.tie) AS tie,
             sum(a.naturals) AS naturals, sum(a.banked_coups) AS banked_coups, sum(a.house_commission) AS house_commission, sum(a.coups * pr.banker) AS exp_banker, sum(a.coups * pr.player) AS exp_player,
             sum(a.coups * pr.tie) AS exp_tie, sum(a.coups * pr.nat) AS exp_nat
      FROM a JOIN casino_tables t ON t.id = a.table_id JOIN (VALUES ${probabilitiesSql()}) AS pr(decks, banker, player, tie, nat) ON pr.decks = t.decks
      GROUP BY GROUPING SETS ((t.currency), (t.currency, a.m), (t.currency, t.variant), (t.currency, t.id, t.code, t.variant))
    )
    SELECT coalesce(json_agg(f ORDER BY f.currency, f.month, f.variant, f."tableCode"), '[]')::text AS json
    FROM (SELECT s.g, s.currency, s.month, s.variant, s."tableId", s."tableCode", ${Prisma.raw(figuresSql(true))} FROM s) f`;
  type Line = FiguresDto & { g: number; currency: string; month: string | null; variant: string | null; tableId: string | null; tableCode: string | null };
  const lines = parseExact<Line[]>(json); // money past 2^53 minor units stays exact (bigint)
  const section = (g: number, keys: (keyof Line)[]): WinLossRowDto[] =>
    lines
      .filter((l) => l.g === g)
      .map(({ g: _g, currency, month, variant, tableId, tableCode, ...f }) => {
        const all: Record<string, string | null> = { currency, month, variant, tableId, tableCode };
        return { group: Object.fromEntries(keys.map((k) => [k, all[k as string] as string])), ...f };
      });
  const totals = lines.filter((l) => l.g === 7).map(({ g: _g, month: _m, variant: _v, tableId: _t, tableCode: _c, ...f }) => f);
  const premiumWinOf = (currency: string) => BigInt(totals.find((t) => t.currency === currency)?.premium.win ?? 0);
  return {
    propertyId,
    propertyName: property.name,
    year,
    quarter,
    from,
    to,
    totals,
    months: section(3, ['currency', 'month']),
    variants: section(5, ['currency', 'variant']),
    tables: section(4, ['currency', 'tableId', 'tableCode', 'variant']),
    tableAccounting: parseExact<TableAccountingLineDto[]>(await accounting),
    exceptions: await exceptions,
    programmes: await programmeRevenue(prismaRunner(db), { from, to, propertyId }, premiumWinOf),
  };
}

export async function exceptionReport(db: PrismaService, from: string, to: string, propertyId?: string): Promise<ExceptionsDto> {
  const prop = propertyId ? Prisma.sql`AND t.property_id = ${propertyId}::uuid` : Prisma.empty;
  const coups = await db.$queryRaw<
    {
      coup_id: string;
      table_code: string;
      shoe_number: number;
      coup_number: number;
      gaming_day: string | null;
      reason: string;
      by: string;
      role: string;
      at: Date;
      handle: string;
    }[]
  >`
    SELECT c.id::text AS coup_id, t.code AS table_code, s.number AS shoe_number, c.number AS coup_number, to_char(c.gaming_day, 'YYYY-MM-DD') AS gaming_day,
           v.reason, v.voided_by_key_id AS by, v.voided_by_role::text AS role, v.created_at AS at,
           coalesce((SELECT sum(w.amount) FROM wagers w
                     WHERE w.coup_id = c.id AND w.gaming_day = c.gaming_day AND w.gaming_day BETWEEN ${from}::date AND ${to}::date AND w.status = 'SETTLED'), 0)::text AS handle
    FROM coup_voids v JOIN coups c ON c.id = v.coup_id JOIN shoes s ON s.id = c.shoe_id JOIN casino_tables t ON t.id = c.table_id
    -- a coup cancelled before its cards has no gaming day (the open partition): the day of its void
    WHERE (c.gaming_day BETWEEN ${from}::date AND ${to}::date OR (c.gaming_day IS NULL AND v.created_at::date BETWEEN ${from}::date AND ${to}::date)) ${prop}
    ORDER BY v.created_at`;
  const slips = await db.$queryRaw<
    {
      slip_id: string;
      table_code: string;
      kind: string;
      number: number;
      year: number;
      amount: string;
      gaming_day: string;
      reason: string;
      by: string;
      at: Date;
    }[]
  >`
    SELECT sl.id::text AS slip_id, t.code AS table_code, sl.kind::text, sl.number, sl.year, sl.amount::text, to_char(sl.gaming_day, 'YYYY-MM-DD') AS gaming_day,
           v.reason, v.voided_by_key_id AS by, v.created_at AS at
    FROM slip_voids v JOIN table_slips sl ON sl.id = v.slip_id JOIN casino_tables t ON t.id = sl.table_id
    WHERE sl.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
    ORDER BY v.created_at`;
  const bankCoups = await db.$queryRaw<
    {
      id: string;
      table_code: string;
      shoe_number: number;
      number: number;
      banker_seat: number;
      gaming_day: string;
      reason: string;
      by: string;
      approved: string;
      at: Date;
      commission: bigint;
    }[]
  >`
    SELECT b.id::text, t.code AS table_code, s.number AS shoe_number, b.number, b.banker_seat, to_char(b.gaming_day, 'YYYY-MM-DD') AS gaming_day,
           v.reason, v.voided_by_key_id AS by, v.approved_by_key_id AS approved, v.created_at AS at, b.commission
    FROM bank_coup_voids v JOIN bank_coups b ON b.id = v.bank_coup_id JOIN shoes s ON s.id = b.shoe_id JOIN casino_tables t ON t.id = b.table_id
    WHERE b.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
    ORDER BY v.created_at`;
  const buyIns = await db.$queryRaw<
    {
      id: string;
      table_code: string;
      kind: string;
      amount: bigint;
      currency: string;
      patron_id: string | null;
      gaming_day: string;
      reason: string;
      by: string;
      approved: string;
      at: Date;
    }[]
  >`
    SELECT b.id::text, t.code AS table_code, b.kind::text, b.amount, b.currency, b.patron_id, to_char(b.gaming_day, 'YYYY-MM-DD') AS gaming_day,
           v.reason, v.voided_by_key_id AS by, v.approved_by_key_id AS approved, v.created_at AS at
    FROM buy_in_voids v JOIN buy_ins b ON b.id = v.buy_in_id JOIN casino_tables t ON t.id = b.table_id
    WHERE b.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
    ORDER BY v.created_at, v.id`;
  const alerts = await db.$queryRaw<
    {
      id: string;
      kind: string;
      severity: string;
      p_value: number;
      table_code: string;
      shoe_number: number;
      gaming_day: string;
      patron_id: string | null;
      dealer_id: string | null;
      status: string;
      at: Date;
      closing_note: string | null;
    }[]
  >`
    SELECT a.id::text, a.kind, a.severity, a.p_value, t.code AS table_code, s.number AS shoe_number, to_char(a.gaming_day, 'YYYY-MM-DD') AS gaming_day,
           a.patron_id, a.dealer_id, a.created_at AS at,
           CASE WHEN c.id IS NOT NULL THEN 'CLOSED' WHEN k.id IS NOT NULL THEN 'ACKNOWLEDGED' ELSE 'OPEN' END AS status, c.note AS closing_note
    FROM surveillance_alerts a JOIN casino_tables t ON t.id = a.table_id JOIN shoes s ON s.id = a.shoe_id
    LEFT JOIN surveillance_alert_steps k ON k.alert_id = a.id AND k.step = 'ACKNOWLEDGE'
    LEFT JOIN surveillance_alert_steps c ON c.alert_id = a.id AND c.step = 'CLOSE'
    WHERE a.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
    ORDER BY a.created_at, a.id`;
  // Coups recorded at a terminal while the service could not be reached, sent when it answered again.
  const offline = await db.$queryRaw<
    { id: string; table_code: string; shoe_number: number; number: number; gaming_day: string; recorded: Date; settled: Date; voided: boolean }[]
  >`
    SELECT c.id::text, t.code AS table_code, s.number AS shoe_number, c.number, to_char(c.gaming_day, 'YYYY-MM-DD') AS gaming_day,
           c.recorded_offline_at AS recorded, c.settled_at AS settled, EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id) AS voided
    FROM coups c JOIN shoes s ON s.id = c.shoe_id JOIN casino_tables t ON t.id = c.table_id
    WHERE c.recorded_offline_at IS NOT NULL AND c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
    ORDER BY c.settled_at, c.id`;
  return {
    coupsRecordedOffline: offline.map((c) => ({
      coupId: c.id,
      tableCode: c.table_code,
      shoeNumber: c.shoe_number,
      coupNumber: c.number,
      gamingDay: c.gaming_day,
      recordedAt: c.recorded.toISOString(),
      arrivedAt: c.settled.toISOString(),
      delaySeconds: Math.floor((c.settled.getTime() - c.recorded.getTime()) / 1000),
      voided: c.voided,
    })),
    integrityAlerts: alerts.map((a) => ({
      alertId: a.id,
      kind: a.kind,
      severity: a.severity,
      pValue: a.p_value,
      tableCode: a.table_code,
      shoeNumber: a.shoe_number,
      gamingDay: a.gaming_day,
      patronId: a.patron_id,
      dealerId: a.dealer_id,
      status: a.status,
      raisedAt: a.at.toISOString(),
      closingNote: a.closing_note,
    })),
    voidedBankCoups: bankCoups.map((b) => ({
      bankCoupId: b.id,
      tableCode: b.table_code,
      shoeNumber: b.shoe_number,
      coupNumber: b.number,
      bankerSeat: b.banker_seat,
      gamingDay: b.gaming_day,
      reason: b.reason,
      voidedByKeyId: b.by,
      approvedByKeyId: b.approved,
      voidedAt: b.at.toISOString(),
      commission: minorUnits(BigInt(b.commission)),
    })),
    voidedBuyIns: buyIns.map((b) => ({
      buyInId: b.id,
      tableCode: b.table_code,
      kind: b.kind,
      amount: minorUnits(b.amount),
      currency: b.currency,
      patronId: b.patron_id,
      gamingDay: b.gaming_day,
      reason: b.reason,
      voidedByKeyId: b.by,
      approvedByKeyId: b.approved,
      voidedAt: b.at.toISOString(),
    })),
    voidedCoups: coups.map((c) => ({
      coupId: c.coup_id,
      tableCode: c.table_code,
      shoeNumber: c.shoe_number,
      coupNumber: c.coup_number,
      gamingDay: c.gaming_day,
      reason: c.reason,
      voidedByKeyId: c.by,
      voidedByRole: c.role,
      voidedAt: c.at.toISOString(),
      handle: minorUnits(BigInt(c.handle)),
    })),
    voidedSlips: slips.map((s) => ({
      slipId: s.slip_id,
      tableCode: s.table_code,
      kind: s.kind,
      number: s.number,
      year: s.year,
      amount: minorUnits(BigInt(s.amount)),
      gamingDay: s.gaming_day,
      reason: s.reason,
      voidedByKeyId: s.by,
      voidedAt: s.at.toISOString(),
    })),
  };
}

const SQL = loadQueries<{
  junketPlayByProgrammeDay: { from: string; to: string; propertyId: string | null };
  programmeVersionsOf: { propertyIds: string[] };
}>(path.join(__dirname, 'programme-revenue.sql'));

/**
 * Premium revenue net of the programmes (docs/domain.md §16, "In the finance reports"): per currency,
 * the junkets' programmes' commission and allowances on the range's premium play, beside the
 * premium win (gross) and what the house keeps of it.
 */
async function programmeRevenue(
  db: SqlRunner,
  range: { from: string; to: string; propertyId: string | null },
  premiumWin: (currency: string) => bigint,
): Promise<ProgrammeRevenueDto[]> {
  const rows = await db.query<{ junketId: string; propertyId: string; currency: string; code: string; day: string; rolled: string; net: string }>(
    SQL.junketPlayByProgrammeDay.bind(range),
  );
  const propertyOf = new Map(rows.map((r) => [r.junketId, r.propertyId]));
  const versions = new Map<string, ProgrammeVersion[]>();
  if (rows.length > 0)
    for (const v of await db.query<ProgrammeVersion & { propertyId: string; code: string }>(
      SQL.programmeVersionsOf.bind({ propertyIds: [...new Set(propertyOf.values())] }),
    ))
      versions.set(`${v.propertyId}|${v.code}`, [...(versions.get(`${v.propertyId}|${v.code}`) ?? []), v]);
  const dues = junketDues(
    rows.map((r) => ({ junketId: r.junketId, currency: r.currency, code: r.code, day: r.day, rolled: BigInt(r.rolled), win: houseWin(BigInt(r.net)) })),
    (junketId, code) => versions.get(`${propertyOf.get(junketId)}|${code}`) ?? [],
  );
  return dues.map((d) => {
    const gross = premiumWin(d.currency);
    return {
      currency: d.currency,
      junkets: d.junkets,
      junketRolling: minorUnits(d.rolled),
      premiumWin: minorUnits(gross),
      programmeCommission: minorUnits(d.commission),
      programmeAllowance: minorUnits(d.allowance),
      premiumNetWin: minorUnits(gross - d.commission - d.allowance),
    };
  });
}
