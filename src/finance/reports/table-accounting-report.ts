import { PrismaService } from '../../platform/database/prisma.service';
import { Prisma } from '../../generated/prisma/client';
import { RangeQueryDto } from './dto/report.dto';
import { parseRange, tableAccountingFiguresSql } from './report-figures';

/** Table accounting (GET /v1/reports/table-accounting): statistical win against wager-level win, per table and gaming day. */

/** Table inventory against wager-level win, per table and gaming day (or per table for the range), as JSON text. */
export async function tableAccountingJson(db: PrismaService, from: string, to: string, propertyId: string | undefined, byDay: boolean): Promise<string> {
  const prop = propertyId ? Prisma.sql`AND t.property_id = ${propertyId}::uuid` : Prisma.empty;
  // Per table and day, or (for a statement) per table: each side is summed to that grain before the join.
  const d = (col: string) => Prisma.raw(byDay ? col : 'NULL::date');
  const [{ json }] = await db.$queryRaw<{ json: string }[]>`
    WITH ss AS (
      SELECT s.table_id, ${d('s.gaming_day')} AS d, count(*) AS sessions, sum(s.opener_total) AS opener, sum(s.closer_total) AS closer, sum(s.drop_amount) AS dropped
      FROM table_sessions s WHERE s.status = 'CLOSED' AND s.gaming_day BETWEEN ${from}::date AND ${to}::date GROUP BY 1, 2
    ), sl AS (
      SELECT sl.table_id, ${d('sl.gaming_day')} AS d, coalesce(sum(sl.amount) FILTER (WHERE sl.kind = 'FILL'), 0) AS fills,
             coalesce(sum(sl.amount) FILTER (WHERE sl.kind = 'CREDIT'), 0) AS credits
      FROM table_slips sl JOIN table_sessions s ON s.id = sl.session_id AND s.status = 'CLOSED'
      -- A slip's gaming day is its session's (table-accounting addSlip): both bounded, both read by day.
      WHERE sl.gaming_day BETWEEN ${from}::date AND ${to}::date AND s.gaming_day BETWEEN ${from}::date AND ${to}::date AND NOT EXISTS (SELECT 1 FROM slip_voids v WHERE v.slip_id = sl.id)
      GROUP BY 1, 2
    ), ww AS (
      SELECT r.table_id, ${d('r.gaming_day')} AS d, -sum(r.customer_net) AS win FROM table_day_rollups r
      WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date GROUP BY 1, 2
    ), x AS (
      SELECT t.id::text AS "tableId", t.code AS "tableCode", t.currency::text AS currency, to_char(coalesce(ss.d, ww.d), 'YYYY-MM-DD') AS "gamingDay",
             coalesce(ss.sessions, 0) AS sessions, coalesce(ss.opener, 0) AS opener, coalesce(ss.closer, 0) AS closer,
             coalesce(sl.fills, 0) AS fills, coalesce(sl.credits, 0) AS credits, coalesce(ss.dropped, 0) AS "drop", coalesce(ww.win, 0) AS "wagerWin"
      FROM ss FULL JOIN ww ON ww.table_id = ss.table_id AND ww.d IS NOT DISTINCT FROM ss.d
      LEFT JOIN sl ON sl.table_id = coalesce(ss.table_id, ww.table_id) AND sl.d IS NOT DISTINCT FROM coalesce(ss.d, ww.d)
      JOIN casino_tables t ON t.id = coalesce(ss.table_id, ww.table_id)
      WHERE true ${prop}
    )
    SELECT coalesce(json_agg(f ORDER BY f."tableCode", f."gamingDay"), '[]')::text AS json FROM (
      SELECT x."tableId", x."tableCode", x.currency, x."gamingDay", x.sessions, x.opener, x.closer, x.fills, x.credits, x."drop",
             ${Prisma.raw(tableAccountingFiguresSql('x'))}
      FROM x
    ) f`;
  return json;
}

export async function tableAccountingReportJson(db: PrismaService, q: RangeQueryDto): Promise<string> {
  const { from, to } = parseRange(q);
  return tableAccountingJson(db, from, to, q.propertyId, true);
}
