import { AppError } from '../../platform/common/errors';
import { PrismaService } from '../../platform/database/prisma.service';
import { Prisma } from '../../generated/prisma/client';
import { minorUnits } from '../../platform/common/exact-json';
import { missingRateSql, MONEY_SUMS, roundedSql, tablesInSql, translatedRollupSql } from './translation-sql';
import { GroupBy, WinLossQueryDto } from './dto/report.dto';
import {
  Column,
  DIMENSIONS,
  TABLE_DIMENSIONS,
  figuresJsonSql,
  figuresSql,
  jsonValueSql,
  orderKeys,
  parseGroupBy,
  parseRange,
  probabilitiesSql,
  sourceFor,
  sumsSql,
} from './report-figures';

/** The win/loss report (GET /v1/reports/win-loss): wager-level figures for a range, grouped as asked, streamed as JSON or whole for CSV, translated into one currency when asked. */

/**
 * The win/loss report as chunks of JSON text: the query is checked before anything is sent, then
 * PostgreSQL builds each row's JSON and the rows go out as they come, while the totals and the
 * void summary are read on another connection. (Building the rows in two halves on two
 * connections was measured slower: on two cores the halves, the service and the client compete.)
 */
export async function winLossChunks(db: PrismaService, q: WinLossQueryDto): Promise<AsyncGenerator<string | Buffer>> {
  const { from, to } = parseRange(q);
  const groupBy = parseGroupBy(q.groupBy);
  if (q.currency) await assertRates(db, q.currency, from, to, q.propertyId);
  const sql = winLossSql(groupBy, from, to, q.propertyId, q.currency);
  const summary = (async () => {
    const [{ totals, single }] = await db.$queryRaw<{ totals: string; single: string | null }[]>(sql.totals);
    return { totals, single, voided: await voidSummary(db, from, to, q.propertyId, q.currency) };
  })();
  summary.catch(() => undefined); // awaited below; until then a failure is not unhandled
  const rows = db.streamReportRows(sql.rows);
  // The first rows are awaited here, so a failing query is still an error answer, not a cut stream.
  const first = await rows.next();
  const head = `{"from":${JSON.stringify(from)},"to":${JSON.stringify(to)},"groupBy":${JSON.stringify(groupBy)},"rows":[`;
  const tail = async () => {
    // PostgreSQL's text as it is: sums past 2^53 minor units keep every digit (no JSON.parse).
    const { totals, single, voided } = await summary;
    return `],"totals":${single ?? 'null'},"totalsByCurrency":${totals},"voided":${JSON.stringify(voided)}}`;
  };
  return (async function* () {
    try {
      yield head;
      if (!first.done) {
        yield first.value;
        for await (const joined of rows) yield joined;
      }
      yield await tail();
    } finally {
      await rows.return(undefined); // a reader that stopped early frees the connection
    }
  })();
}

/** The whole win/loss report as one JSON text. */
export async function winLossJson(db: PrismaService, q: WinLossQueryDto): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await winLossChunks(db, q)) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The SQL of a win/loss report: rows grouped by the dimensions (always by currency too), each as
 * one JSON text, in the report's order, and the totals per currency; both from the coarsest
 * rollup that answers the grouping. With `into`, every amount is translated into that currency
 * (translation-sql.ts): the rollup's days are read translated, and money sums are rounded where
 * they are shown.
 */
export function winLossSql(groupBy: GroupBy[], from: string, to: string, propertyId?: string, into?: string): { rows: Prisma.Sql; totals: Prisma.Sql } {
  const dims = [...new Set<GroupBy>([...groupBy, 'currency'])];
  const source = sourceFor(dims, from, to, into !== undefined);
  const rollup = (table: typeof source.table) => (into && table !== 'month_rollups' ? translatedRollupSql(table, into, from, to) : Prisma.raw(table));
  const tables = into ? tablesInSql(into) : Prisma.raw('casino_tables');
  const shown = (sum: string, field: string) => (into && MONEY_SUMS.has(field) ? roundedSql(sum) : sum);
  const cols = dims.flatMap((d) => DIMENSIONS[d]);
  const day = `r.${source.day}`;
  const dkey = dims.includes('gamingDay')
    ? day
    : dims.includes('month')
      ? `date_trunc('month', ${day})::date`
      : dims.includes('quarter')
        ? `date_trunc('quarter', ${day})::date`
        : 'NULL::date';
  const bkey = dims.includes('betType') ? 'r.bet_type' : 'NULL::"BetType"';
  const prop = propertyId ? Prisma.sql`AND r.table_id IN (SELECT id FROM casino_tables WHERE property_id = ${propertyId}::uuid)` : Prisma.empty;
  // Rows per table need no second grouping: every other table attribute follows from the table.
  const regroup = !dims.includes('table');
  const sumOf = (e: string) => (regroup ? `sum(${e})` : e);
  const fields = [
    'wagers',
    'handle',
    'payouts',
    'commission',
    'collected',
    'net',
    'theo',
    'var',
    'p_wagers',
    'p_handle',
    'p_commission',
    'p_net',
    'p_theo',
    ...(source.coups ? ['coups', 'banker', 'player', 'tie', 'naturals', 'banked_coups', 'house_commission'] : []),
  ];
  const sums = fields.map((f) => `${shown(sumOf(`a.${f}`), f)} AS ${f}`);
  const expectedSums = source.coups ? (['banker', 'player', 'tie', 'nat'] as const).map((f) => `${sumOf(`a.coups * pr.${f}`)} AS exp_${f}`) : [];
  const totalsCols = [
    ...fields.map((f) => `${shown(`sum(c.${f})`, f)} AS ${f}`),
    ...(source.coups ? (['banker', 'player', 'tie', 'nat'] as const).map((f) => `sum(c.coups * pr.${f}) AS exp_${f}`) : []),
  ];
  const group = cols.map(([, alias, kind], i) => `'${i ? ',' : ''}"${alias}":' || ${jsonValueSql(kind, `s."${alias}"`)}`).join(' || ');
  // Totals of a report by bet type keep the band of the coups as played: each table's variance from
  // table_day_rollups (every coup's stakes through the covariances), not the sum of the bet types'
  // own parts, which would leave out that a Banker and a Player bet on one coup cancel.
  const dayVariance = Prisma.sql`, (SELECT sum(d.var_e12) FROM ${rollup('table_day_rollups')} d
      WHERE d.table_id = r.table_id AND d.gaming_day BETWEEN ${from}::date AND ${to}::date) AS var`;
  const keys = orderKeys(cols);
  const order = keys.map(([, alias, , sort]) => (sort ? `s."k:${alias}"` : `s."${alias}"`)).join(', ');
  // When the grouping is the rollup's own grain, its rows are used as they are.
  const ownGrain = dims.includes('gamingDay')
    ? source.table === 'table_day_rollups' || dims.includes('betType')
    : source.table === 'month_rollups' && dims.includes('month') && dims.includes('betType');
  const inner = ownGrain
    ? `SELECT r.table_id, ${dkey} AS dkey, ${bkey} AS bkey, r.wagers, r.handle, r.payouts, r.commission, r.commission_collected AS collected, r.customer_net AS net, r.theo_e12 AS theo, r.var_e12 AS var, ` +
      `r.premium_wagers AS p_wagers, r.premium_handle AS p_handle, r.premium_commission AS p_commission, r.premium_customer_net AS p_net, r.premium_theo_e12 AS p_theo` +
      (source.coups ? ', r.coups, r.banker_wins AS banker, r.player_wins AS player, r.ties AS tie, r.naturals, r.banked_coups, r.house_commission' : '')
    : `SELECT r.table_id, ${dkey} AS dkey, ${bkey} AS bkey, ${sumsSql(source.coups)}`;
  const withS = Prisma.sql`
    WITH a AS (
      ${Prisma.raw(inner)}
      FROM ${rollup(source.table)} r
      WHERE ${Prisma.raw(day)} BETWEEN ${from}::date AND ${to}::date ${prop}
      ${Prisma.raw(ownGrain ? '' : 'GROUP BY 1, 2, 3')}
    ), s AS (
      SELECT ${Prisma.raw([...cols.flatMap(([sql, alias, , sort]) => [`${sql} AS "${alias}"`, ...(sort ? [`${sort} AS "k:${alias}"`] : [])]), ...sums, ...expectedSums].join(', '))}
      FROM a JOIN ${tables} t ON t.id = a.table_id JOIN properties p ON p.id = t.property_id
      JOIN (VALUES ${probabilitiesSql()}) AS pr(decks, banker, player, tie, nat) ON pr.decks = t.decks
      ${Prisma.raw(regroup ? `GROUP BY ${cols.flatMap(([sql, , , sort]) => (sort ? [sql, sort] : [sql])).join(', ')}` : '')}
    )`;
  return {
    // Rows of single tables and days are table-day rollup rows as they are: sent with the figures
    // the rollup keeps rendered (figures_json, the expected outcome counts included), the table's
    // part of each row's group rendered once per table.
    rows:
      ownGrain && !regroup && source.table === 'table_day_rollups' && !into
        ? tableDayRowsSql(dims, keys, from, to, propertyId)
        : // Sorted before the JSON is built, so the sort carries the figures and not megabytes of text
          // (PostgreSQL keeps the subquery's order for the outer ORDER BY without sorting again).
          Prisma.sql`${withS}
        SELECT '{"group":{' || ${Prisma.raw(group)} || '},' || ${Prisma.raw(figuresJsonSql(source.coups))} || '}'
        FROM (SELECT * FROM s ORDER BY ${Prisma.raw(order)} OFFSET 0) s ORDER BY ${Prisma.raw(order)}`,
    // Totals do not depend on the grouping: summed per table straight from the rollup (no join per
    // rollup row), then per currency; expected outcome counts are each table's coups × the exact
    // probabilities for its decks.
    totals: Prisma.sql`
      SELECT coalesce(json_agg(f ORDER BY f.currency), '[]')::text AS totals, CASE WHEN count(*) = 1 THEN min(to_json(f)::text) END AS single FROM (
        SELECT s.currency, ${Prisma.raw(figuresSql(source.coups))} FROM (
          SELECT t.currency, ${Prisma.raw(totalsCols.join(', '))}
          FROM (
            SELECT r.table_id, ${Prisma.raw(sumsSql(source.coups, source.coups))}${source.coups ? Prisma.empty : dayVariance}
            FROM ${rollup(source.table)} r
            WHERE ${Prisma.raw(day)} BETWEEN ${from}::date AND ${to}::date ${prop}
            GROUP BY r.table_id
          ) c JOIN (SELECT id, currency::text AS currency, decks FROM ${tables} t) t ON t.id = c.table_id
          JOIN (VALUES ${probabilitiesSql()}) AS pr(decks, banker, player, tie, nat) ON pr.decks = t.decks
          GROUP BY t.currency
        ) s
      ) f`,
  };
}

/**
 * Rows grouped by table and gaming day (and any table attribute, month or quarter beside them):
 * table-day rollup rows as they are. Each row is its table's part of the group, its day's part
 * and the figures the rollup keeps rendered (figures_json). The table's part is rendered once per
 * table, in tp, whose rows come in table id order, so that grouped by table first the rollup rows
 * are read in primary-key order, merged with tp, and never sorted. The rollup is read by one
 * primary-key range per table (`table_id = ANY(…)` on the key's first column: one descent per
 * table, rows still in key order), so the work follows the range asked for, not the years of
 * history kept. (Measured on a quarter of 18,400 rows: joining a rendered CTE instead cost a
 * re-read sort, ~30 ms; a memoized lateral subquery ~15 ms; to_char of the day ~10 ms more than
 * the date's own output, see DIMENSIONS. With 21 quarters stored instead of one, filtering the
 * whole key by day went from 20 to 44 ms, the planner then taking the day index and a sort; the
 * ranges per table stay at 20; a lateral subquery per table, 23–26 for both, sorting each table's rows.)
 */
export function tableDayRowsSql(dims: GroupBy[], keys: Column[], from: string, to: string, propertyId?: string): Prisma.Sql {
  const fromTable = new Set(dims.filter((d) => TABLE_DIMENSIONS.includes(d)).flatMap((d) => DIMENSIONS[d].map(([, alias]) => alias)));
  const members = dims
    .flatMap((d) => DIMENSIONS[d])
    .map(([sql, alias, kind], i) => ({ alias, text: `'${i ? ',' : ''}"${alias}":' || ${jsonValueSql(kind, sql)}` }));
  // Runs of table members become one column of tp each; day members are rendered per row.
  const fragments: string[] = [];
  const parts: string[] = [];
  for (let i = 0; i < members.length;) {
    if (!fromTable.has(members[i].alias)) {
      parts.push(members[i++].text);
      continue;
    }
    const run: string[] = [];
    while (i < members.length && fromTable.has(members[i].alias)) run.push(members[i++].text);
    parts.push(`tp.f${fragments.length}`);
    fragments.push(`${run.join(' || ')} AS f${fragments.length}`);
  }
  const sortColumns = keys.filter(([, alias]) => fromTable.has(alias) && alias !== 'tableId').map(([sql, , , sort], i) => `${sort ?? sql} AS k${i}`);
  let k = 0;
  const order = keys.map(([sql, alias, , sort]) => (alias === 'tableId' ? 'a.table_id' : fromTable.has(alias) ? `tp.k${k++}` : (sort ?? sql)));
  const prop = propertyId ? Prisma.sql`WHERE t.property_id = ${propertyId}::uuid` : Prisma.empty;
  return Prisma.sql`
    SELECT '{"group":{' || ${Prisma.raw(parts.join(' || '))} || '},' || a.figures_json || '}'
    FROM (
      SELECT r.table_id, r.gaming_day AS dkey, r.figures_json FROM table_day_rollups r
      WHERE r.table_id = ANY (ARRAY(SELECT t.id FROM casino_tables t ${prop})) AND r.gaming_day BETWEEN ${from}::date AND ${to}::date
    ) a
    JOIN (
      SELECT ${Prisma.raw(['t.id', ...sortColumns, ...fragments].join(', '))}
      FROM casino_tables t JOIN properties p ON p.id = t.property_id ${prop} ORDER BY t.id OFFSET 0
    ) tp ON tp.id = a.table_id
    ORDER BY ${Prisma.raw(order.join(', '))}`;
}

/** What was voided in the range, from the table-day rollups (kept by each void); the handle translated with the report. */
export async function voidSummary(db: PrismaService, from: string, to: string, propertyId?: string, into?: string) {
  const prop = propertyId ? Prisma.sql`AND r.table_id IN (SELECT id FROM casino_tables WHERE property_id = ${propertyId}::uuid)` : Prisma.empty;
  const rollup = into ? translatedRollupSql('table_day_rollups', into, from, to) : Prisma.raw('table_day_rollups');
  const handle = into ? roundedSql('sum(r.voided_handle)') : 'sum(r.voided_handle)';
  const [v] = await db.$queryRaw<{ coups: string; wagers: string; handle: string }[]>`
    SELECT coalesce(sum(r.voided_coups), 0)::text AS coups, coalesce(sum(r.voided_wagers), 0)::text AS wagers, coalesce(${Prisma.raw(handle)}, 0)::text AS handle
    FROM ${rollup} r
    WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}`;
  return { coups: Number(v.coups), wagers: Number(v.wagers), handle: minorUnits(BigInt(v.handle)) };
}

/** A report translated into `into` needs a rate for every currency it holds, from its first day on. */
export async function assertRates(db: PrismaService, into: string, from: string, to: string, propertyId?: string): Promise<void> {
  const [missing] = await db.$queryRaw<{ currency: string; day: string }[]>(missingRateSql(into, from, to, propertyId));
  if (missing) {
    throw new AppError(
      'EXCHANGE_RATE_MISSING',
      `No ${missing.currency} to ${into} exchange rate on or before ${missing.day}, the first gaming day with ${missing.currency} tables in the report: enter it (POST /v1/exchange-rates) to have the report in ${into}`,
    );
  }
}
