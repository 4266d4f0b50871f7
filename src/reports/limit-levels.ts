import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';
import { RangeQueryDto } from './dto/report.dto';
import { parseRange, percentSql } from './report-figures';

/**
 * Play by limit level (GET /v1/reports/limit-levels): for each table minimum in force (per
 * currency), the tables and table-days dealt at it, coups, player decisions (a seat with a wager
 * on a coup), occupancy (players a coup), handle, win, hold %, commission, theoretical win and the
 * average bet. From the limit rollups each coup wrote (the change of limits its wagers were placed
 * under: src/ledger/ledger.sql rollups), never the raw wagers; a level's minimum is its change's,
 * or the table's opening minimum (limits_seq 0).
 */
export async function limitLevelsJson(db: PrismaService, q: RangeQueryDto): Promise<string> {
  const { from, to } = parseRange(q);
  const prop = q.propertyId ? Prisma.sql`AND r.property_id = ${q.propertyId}::uuid` : Prisma.empty;
  const [{ json }] = await db.$queryRaw<{ json: string }[]>`
    WITH per_level AS (
      SELECT r.table_id, r.limits_seq, count(*) AS table_days, sum(r.coups) AS coups, sum(r.players) AS players, sum(r.wagers) AS wagers,
             sum(r.handle) AS handle, sum(r.customer_net) AS net, sum(r.commission) AS commission, sum(r.theo_e12) AS theo
      FROM limit_rollups r
      WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
      GROUP BY r.table_id, r.limits_seq
      HAVING sum(r.coups) <> 0
    ), s AS (
      SELECT t.currency::text AS currency, coalesce(c.min_bet, t.min_bet) AS min_bet, count(DISTINCT l.table_id) AS tables, sum(l.table_days) AS table_days,
             sum(l.coups) AS coups, sum(l.players) AS players, sum(l.wagers) AS wagers, sum(l.handle) AS handle, sum(l.net) AS net,
             sum(l.commission) AS commission, sum(l.theo) AS theo
      FROM per_level l JOIN casino_tables t ON t.id = l.table_id
      LEFT JOIN table_limits c ON c.table_id = l.table_id AND c.seq = l.limits_seq
      GROUP BY 1, 2
    )
    SELECT coalesce(json_agg(f ORDER BY f.currency, f."minBet"), '[]')::text AS json FROM (
      SELECT s.currency, s.min_bet AS "minBet", s.tables, s.table_days AS "tableDays", s.coups, s.players AS "playerDecisions",
             round(s.players::numeric / nullif(s.coups, 0), 2)::text AS occupancy, s.wagers, s.handle, -s.net AS win,
             ${Prisma.raw(percentSql('-s.net', 's.handle'))}::text AS "holdPercent", s.commission AS "commissionCharged",
             round(s.theo / 1000000000000)::bigint AS "theoreticalWin",
             round(s.handle::numeric / nullif(s.players, 0))::bigint AS "averageBet"
      FROM s
    ) f`;
  return json;
}
