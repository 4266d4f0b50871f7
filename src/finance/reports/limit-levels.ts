import { PrismaService } from '../../platform/database/prisma.service';
import { Prisma } from '../../generated/prisma/client';
import { RangeQueryDto } from './dto/report.dto';
import { parseRange, percentSql } from './report-figures';

/**
 * Play by limit level (GET /v1/reports/limit-levels): for each table minimum in force (per
 * currency), the tables and table-days dealt at it, coups, player decisions (a seat with a wager
 * on a coup), occupancy (players a coup), handle, win, hold %, commission, theoretical win and the
 * average bet. From the limit rollups each coup wrote (the change of limits its wagers were placed
 * under: src/foundation/ledger/ledger.sql rollups), never the raw wagers; a level's minimum is its change's,
 * or the table's opening minimum (limits_seq 0).
 */
export async function limitLevelsJson(db: PrismaService, q: RangeQueryDto): Promise<string> {
  const { from, to } = parseRange(q);
  const prop = q.propertyId ? Prisma.sql`AND t.property_id = ${q.propertyId}::uuid` : Prisma.empty;
  // Each rollup row at its level's minimum (the change's, else the table's opening one): a table-day
  // counts once at a minimum however many changes kept it there; a row all voided counts nowhere.
  const [{ json }] = await db.$queryRaw<{ json: string }[]>`
    WITH at_minimum AS (
      SELECT t.currency::text AS currency, coalesce(c.min_bet, t.min_bet) AS min_bet, r.table_id, r.gaming_day, r.coups, r.players, r.wagers,
             r.handle, r.customer_net, r.commission, r.theo_e12
      FROM limit_rollups r JOIN casino_tables t ON t.id = r.table_id
      LEFT JOIN table_limits c ON c.table_id = r.table_id AND c.seq = r.limits_seq
      WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date AND r.coups <> 0 ${prop}
    ), s AS (
      SELECT currency, min_bet, count(DISTINCT table_id) AS tables, count(DISTINCT (table_id, gaming_day)) AS table_days, sum(coups) AS coups,
             sum(players) AS players, sum(wagers) AS wagers, sum(handle) AS handle, sum(customer_net) AS net, sum(commission) AS commission,
             sum(theo_e12) AS theo
      FROM at_minimum GROUP BY currency, min_bet
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
