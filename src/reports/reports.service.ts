import { Injectable } from '@nestjs/common';
import { assertDayRange } from '../common/validation';
import { AppError, notFound } from '../common/errors';
import { PrismaService } from '../database/prisma.service';
import { BetType, coupPlayDeltas, coupVariances, fractionToDecimal, MAX_DECKS, MIN_DECKS, outcomeProbabilities } from '../domain';
import { CasinoTable, Prisma } from '../generated/prisma/client';
import { DEFAULT_PROPERTY_ID } from '../pit/table-rules';
import { covariancesOf, edgesOf } from '../pit/table-rules';
import { minorUnits, parseExact } from '../common/exact-json';
import { missingRateSql, MONEY_SUMS, roundedSql, tablesInSql, translatedRollupSql } from './translation-sql';
import {
  ExceptionsDto,
  FiguresDto,
  GROUP_BY,
  GroupBy,
  QuarterlyDto,
  QuarterlyQueryDto,
  RangeQueryDto,
  ReconciliationDifferenceDto,
  ReconciliationDto,
  TableAccountingLineDto,
  WinLossQueryDto,
  WinLossRowDto,
} from './dto/report.dto';

/** A figure of a report: a number, a decimal shown as a string, or an object of figures. */
type Figure = { key: string; sql: string; as: 'number' | 'decimal' } | { key: string; fields: Figure[] | null };

/** The sums the figures are computed from. */
type Sum =
  | 'wagers'
  | 'handle'
  | 'payouts'
  | 'net'
  | 'commission'
  | 'collected'
  | 'theo'
  | 'var'
  | 'coups'
  | 'banked_coups'
  | 'house_commission'
  | 'banker'
  | 'player'
  | 'tie'
  | 'naturals'
  | 'exp_banker'
  | 'exp_player'
  | 'exp_tie'
  | 'exp_nat';

/**
 * The standard deviation of theoretical win in minor units, from Σ variance × 10^12 (domain
 * theoreticalStdDev): ⌊(⌊√⌊4v / 10^12⌋⌋ + 1) / 2⌋, in integers where PostgreSQL allows. Its numeric
 * division and square root keep about 16 significant digits: 4v / 10^12 just below a square rounded
 * up to it, and the root with it (test/e2e/formulas.spec.ts found both, at (k + ½)² − 10^-12). So the
 * quotient is div()'s integer one, and the root is taken with 30 decimals, which makes its floor exact:
 * √n of an integer n that is not a square lies at least 1/(2√n + 1) below the next integer, far more
 * than 10^-30 for any variance a bigint sum holds.
 */
function stdDevSql(v: string): string {
  return `div(floor(sqrt(div(4 * greatest(${v}, 0), 1000000000000)::numeric(80, 30))) + 1, 2)::bigint`;
}

/**
 * num ÷ den × 100 to 4 decimals, rounded half away from zero, exactly (domain holdPercent and
 * dropHoldPercent). PostgreSQL's numeric division gives at least 16 significant digits, which lost
 * the decimals of a large quotient; with a dividend of 30 decimal places the quotient is exact to 30
 * places, and rounding that to 4 is the exact rounding for any divisor below 5 × 10^25 (a bigint's
 * is below 10^19): no value of 30 places can sit between the true quotient and a half-way point.
 */
function percentSql(num: string, den: string): string {
  return `CASE WHEN ${den} = 0 THEN NULL ELSE round((${num})::numeric(60, 30) * 100 / ${den}, 4) END`;
}

/** A row of sums `s`, as the report queries name them. */
const sumsRow = (name: Sum): string => `s.${name}`;

/**
 * THE report formulas (docs/domain.md §6), over a row of sums: win = stakes lost − payouts +
 * commission = −Σ customer net; hold % = win / handle; outstanding = charged − collected;
 * revenue = win − outstanding; theoretical win = Σ stake × edge (× 10^12 in the rollups) rounded
 * to the minor unit; expected outcome counts = Σ coups × exact probability. Statistics are rounded
 * half away from zero for display; money that changes hands is rounded only by the engine's
 * roundMoney. PostgreSQL evaluates them, so large reports never pass through JS objects; the one
 * list renders as columns (figuresSql) or as JSON text (figuresJsonSql), over the sums of a report
 * query or (ROLLUP_FIGURES_SQL) over a table-day rollup row itself.
 */
function figures(withCoups: boolean, sum: (name: Sum) => string = sumsRow): Figure[] {
  const n = (key: string, sql: string): Figure => ({ key, sql, as: 'number' });
  const d = (key: string, sql: string): Figure => ({ key, sql, as: 'decimal' });
  const [net, handle, commission, collected, theo, variance] = [sum('net'), sum('handle'), sum('commission'), sum('collected'), sum('theo'), sum('var')];
  return [
    n('wagers', sum('wagers')),
    n('handle', handle),
    n('payouts', sum('payouts')),
    n('win', `-${net}`),
    d('holdPercent', percentSql(`-${net}`, handle)),
    n('commissionCharged', commission),
    n('commissionCollected', collected),
    n('commissionOutstanding', `${commission} - ${collected}`),
    n('revenue', `-${net} - (${commission} - ${collected})`),
    n('theoreticalWin', `round(${theo} / 1000000000000)::bigint`),
    n('winMinusTheoretical', `-${net} - round(${theo} / 1000000000000)::bigint`),
    n('theoreticalWinStdDev', stdDevSql(variance)),
    withCoups ? n('coups', sum('coups')) : n('coups', 'NULL::bigint'),
    // The player-banked games: the house's only revenue there is its commission on the bankers'
    // winnings (the players' money between themselves is not house revenue). It belongs to no bet type.
    withCoups ? n('bankedCoups', sum('banked_coups')) : n('bankedCoups', 'NULL::bigint'),
    withCoups ? n('houseCommission', sum('house_commission')) : n('houseCommission', 'NULL::bigint'),
    withCoups ? n('totalRevenue', `-${net} - (${commission} - ${collected}) + ${sum('house_commission')}`) : n('totalRevenue', 'NULL::bigint'),
    {
      key: 'outcomes',
      fields: withCoups ? [n('bankerWins', sum('banker')), n('playerWins', sum('player')), n('ties', sum('tie')), n('naturals', sum('naturals'))] : null,
    },
    {
      key: 'expectedOutcomes',
      fields: withCoups
        ? [
            d('bankerWins', `round(${sum('exp_banker')}, 2)`),
            d('playerWins', `round(${sum('exp_player')}, 2)`),
            d('ties', `round(${sum('exp_tie')}, 2)`),
            d('naturals', `round(${sum('exp_nat')}, 2)`),
          ]
        : null,
    },
  ];
}

/** Exact outcome probabilities per deck count (statistics, not money), joined by the tables' decks. */
export const PROBABILITIES = Array.from({ length: MAX_DECKS - MIN_DECKS + 1 }, (_, i) => {
  const decks = MIN_DECKS + i;
  const p = outcomeProbabilities(decks);
  return {
    decks,
    banker: fractionToDecimal(p.banker, 15),
    player: fractionToDecimal(p.player, 15),
    tie: fractionToDecimal(p.tie, 15),
    natural: fractionToDecimal(p.natural, 15),
  };
});

/** The probabilities as a VALUES list, pr(decks, banker, player, tie, nat). */
const probabilitiesSql = () =>
  Prisma.join(PROBABILITIES.map((p) => Prisma.sql`(${p.decks}::int, ${p.banker}::numeric, ${p.player}::numeric, ${p.tie}::numeric, ${p.natural}::numeric)`));

/** A table-day rollup row's expected count of an outcome: its coups × the probability for its deck count. */
const expectedSql = (outcome: 'banker' | 'player' | 'tie' | 'natural'): string =>
  `(coups * CASE decks ${PROBABILITIES.map((p) => `WHEN ${p.decks} THEN ${p[outcome]}`).join(' ')} END)`;

/** The columns of table_day_rollups behind each sum. */
const ROLLUP_COLUMNS: Record<Sum, string> = {
  wagers: 'wagers',
  handle: 'handle',
  payouts: 'payouts',
  net: 'customer_net',
  commission: 'commission',
  collected: 'commission_collected',
  theo: 'theo_e12',
  var: 'var_e12',
  coups: 'coups',
  banked_coups: 'banked_coups',
  house_commission: 'house_commission',
  banker: 'banker_wins',
  player: 'player_wins',
  tie: 'ties',
  naturals: 'naturals',
  exp_banker: expectedSql('banker'),
  exp_player: expectedSql('player'),
  exp_tie: expectedSql('tie'),
  exp_nat: expectedSql('natural'),
};

/**
 * A table-day rollup row's figures as the members of a JSON object, the expected outcome counts
 * included (by the deck count the row keeps of its table): the expression of the stored generated
 * column table_day_rollups.figures_json (migration 20261123150000_rollup_figures_exact), which
 * PostgreSQL keeps in step with the row's sums on every write. The win/loss report sends it as it is
 * for rows at the rollup's own grain: rendering some twenty-five numbers a row at every request
 * measured 2.5 times slower for a quarter's table × day rows (BENCHMARKS.md). The stored text is
 * checked against this expression by test/e2e/report-streaming.spec.ts, and the expression against
 * the domain's formulas by test/e2e/formulas.spec.ts.
 */
export const ROLLUP_FIGURES_SQL = figures(true, (name) => ROLLUP_COLUMNS[name])
  .map((f, i) => `'${i ? ',' : ''}"${f.key}":' || ${figureJsonSql(f)}`)
  .join(' || ');

/** The figures as columns (json_agg/to_json turn them into the same JSON as figuresJsonSql). */
export function figuresSql(withCoups: boolean): string {
  const column = (f: Figure): string => {
    if ('sql' in f) return f.as === 'decimal' ? `(${f.sql})::text` : f.sql;
    return f.fields ? `(${figureJsonSql(f)})::json` : 'NULL::json'; // written as rows write it
  };
  return figures(withCoups)
    .map((f) => `${column(f)} AS "${f.key}"`)
    .join(', ');
}

/**
 * The figures as the members of a JSON object, in text (`"wagers":56,…`): plain concatenation
 * costs PostgreSQL about half of what json_build_object/to_json do per row, which is most of a
 * large report's time. Every value is a number, a decimal string or null, so nothing needs escaping.
 */
function figuresJsonSql(withCoups: boolean): string {
  return figures(withCoups)
    .map((f, i) => `'${i ? ',' : ''}"${f.key}":' || ${figureJsonSql(f)}`)
    .join(' || ');
}

/**
 * The table-accounting figures over a row of its sums (opener, closer, credits, fills, "drop",
 * "wagerWin"): statisticalWin and dropHoldPercent of domain/accounting.ts, and the reconciliation
 * item (statistical win − wager-level win).
 */
export function tableAccountingFiguresSql(x: string): string {
  const win = `(${x}.closer - ${x}.opener + ${x}.credits - ${x}.fills + ${x}."drop")`;
  return `${win} AS "statisticalWin",
    (${percentSql(win, `${x}."drop"`)})::text AS "dropHoldPercent",
    ${x}."wagerWin", ${win} - ${x}."wagerWin" AS difference`;
}

/** One figure's value as JSON text. */
function figureJsonSql(f: Figure): string {
  if ('sql' in f) return f.as === 'decimal' ? `coalesce('"' || (${f.sql})::text || '"', 'null')` : `coalesce((${f.sql})::text, 'null')`;
  return f.fields ? `'{' || ${f.fields.map((g, i) => `'${i ? ',' : ''}"${g.key}":' || ${figureJsonSql(g)}`).join(' || ')} || '}'` : `'null'`;
}

/** Sum columns over rollup rows (alias r), coup columns where the grain has them; the variance unless left to the caller. */
function sumsSql(withCoups: boolean, withVariance = true): string {
  return (
    `sum(r.wagers) AS wagers, sum(r.handle) AS handle, sum(r.payouts) AS payouts, sum(r.commission) AS commission,
          sum(r.commission_collected) AS collected, sum(r.customer_net) AS net, sum(r.theo_e12) AS theo` +
    (withVariance ? ', sum(r.var_e12) AS var' : '') +
    (withCoups
      ? ', sum(r.coups) AS coups, sum(r.banker_wins) AS banker, sum(r.player_wins) AS player, sum(r.ties) AS tie, sum(r.naturals) AS naturals, sum(r.banked_coups) AS banked_coups, sum(r.house_commission) AS house_commission'
      : '')
  );
}

/**
 * Grouping dimensions: fixed SQL over the aggregated rollup rows (a), tables (t) and properties
 * (p), each with its JSON key, whether it is a name typed by people (escaped) or not, and, for
 * ids and dates, the typed value rows are sorted by (cheaper to sort than their text, same order).
 */
const DIMENSIONS: Record<GroupBy, [sql: string, alias: string, kind: 'free' | 'plain', sort?: string][]> = {
  property: [
    ['p.id::text', 'propertyId', 'plain', 'p.id'],
    ['p.name', 'propertyName', 'free'],
  ],
  pit: [['t.pit', 'pit', 'free']],
  table: [
    ['t.id::text', 'tableId', 'plain', 't.id'],
    ['t.code', 'tableCode', 'free'],
  ],
  variant: [['t.variant::text', 'variant', 'plain']],
  betType: [['a.bkey::text', 'betType', 'plain']],
  currency: [['t.currency::text', 'currency', 'plain']],
  gamingDay: [['a.dkey::text', 'gamingDay', 'plain', 'a.dkey']], // YYYY-MM-DD: report rows are read with DateStyle ISO
  month: [["to_char(a.dkey, 'YYYY-MM')", 'month', 'plain', 'a.dkey']],
  quarter: [['to_char(a.dkey, \'YYYY-"Q"Q\')', 'quarter', 'plain', 'a.dkey']],
};

type Column = (typeof DIMENSIONS)[GroupBy][number];

/** The dimensions that are attributes of a table: one value per table. */
const TABLE_DIMENSIONS: GroupBy[] = ['property', 'pit', 'table', 'variant', 'currency'];

/** Group members whose value follows from an earlier one's: sorting by them too changes nothing. */
const FOLLOWS_FROM: Record<string, string[]> = {
  tableId: ['tableCode', 'pit', 'variant', 'currency', 'propertyId', 'propertyName'],
  propertyId: ['propertyName'],
};

/** The columns a report's rows are sorted by: its group members in order, less those that cannot change the order. */
function orderKeys(cols: Column[]): Column[] {
  const keys: Column[] = [];
  const implied = new Set<string>();
  const seen = new Set<string>();
  for (const col of cols) {
    const [sql, alias, , sort] = col;
    if (implied.has(alias) || seen.has(sort ?? sql)) continue;
    seen.add(sort ?? sql);
    for (const a of FOLLOWS_FROM[alias] ?? []) implied.add(a);
    keys.push(col);
  }
  return keys;
}

/** A group member's value as JSON text: names typed by people are escaped, ids, codes and dates quoted. */
function jsonValueSql(kind: 'free' | 'plain', sql: string): string {
  return kind === 'free' ? `coalesce(to_json(${sql})::text, 'null')` : `coalesce('"' || ${sql} || '"', 'null')`;
}

/**
 * The coarsest rollup that answers a grouping: per table and day (all bet types, with coups)
 * unless bet types are asked for; per table, month and bet type when the range is whole months;
 * else per table, day and bet type. None of them grows with the number of wagers. A report
 * translated into one currency reads days (each day has its rate), never months.
 */
function sourceFor(
  dims: GroupBy[],
  from: string,
  to: string,
  daily: boolean,
): { table: 'table_day_rollups' | 'wager_rollups' | 'month_rollups'; day: string; coups: boolean } {
  if (!dims.includes('betType')) return { table: 'table_day_rollups', day: 'gaming_day', coups: true };
  const wholeMonths = !daily && from.endsWith('-01') && new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).getUTCDate() === 1;
  if (!dims.includes('gamingDay') && wholeMonths) return { table: 'month_rollups', day: 'month', coups: false };
  return { table: 'wager_rollups', day: 'gaming_day', coups: false };
}

export function parseRange(q: RangeQueryDto): { from: string; to: string } {
  assertDayRange(q.from, q.to);
  return { from: q.from, to: q.to };
}

export function parseGroupBy(text: string | undefined): GroupBy[] {
  if (!text) return [];
  const dims = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  for (const d of dims) {
    if (!GROUP_BY.includes(d as GroupBy)) throw new AppError('VALIDATION_FAILED', `Cannot group by "${d}": use ${GROUP_BY.join(', ')}`);
  }
  return dims as GroupBy[];
}

/**
 * The reports, each read from the database it is handed: the reporting replica, or the primary, as
 * the controller picked it (ReadDatabase). Nothing here writes.
 */
@Injectable()
export class ReportsService {
  /**
   * The win/loss report as chunks of JSON text: the query is checked before anything is sent, then
   * PostgreSQL builds each row's JSON and the rows go out as they come, while the totals and the
   * void summary are read on another connection. (Building the rows in two halves on two
   * connections was measured slower: on two cores the halves, the service and the client compete.)
   */
  async winLossChunks(db: PrismaService, q: WinLossQueryDto): Promise<AsyncGenerator<string | Buffer>> {
    const { from, to } = parseRange(q);
    const groupBy = parseGroupBy(q.groupBy);
    if (q.currency) await this.assertRates(db, q.currency, from, to, q.propertyId);
    const sql = this.winLossSql(groupBy, from, to, q.propertyId, q.currency);
    const summary = (async () => {
      const [{ totals, single }] = await db.$queryRaw<{ totals: string; single: string | null }[]>(sql.totals);
      return { totals, single, voided: await this.voidSummary(db, from, to, q.propertyId, q.currency) };
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
  async winLossJson(db: PrismaService, q: WinLossQueryDto): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.winLossChunks(db, q)) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return Buffer.concat(chunks).toString('utf8');
  }

  async quarterly(db: PrismaService, q: QuarterlyQueryDto): Promise<QuarterlyDto> {
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
    const accounting = this.tableAccountingJson(db, from, to, propertyId, false);
    const exceptions = this.exceptions(db, from, to, propertyId);
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
               sum(a.net) AS net, sum(a.theo) AS theo, sum(a.var) AS var, sum(a.coups) AS coups, sum(a.banker) AS banker, sum(a.player) AS player, sum(a.tie) AS tie,
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
    return {
      propertyId,
      propertyName: property.name,
      year,
      quarter,
      from,
      to,
      totals: lines.filter((l) => l.g === 7).map(({ g: _g, month: _m, variant: _v, tableId: _t, tableCode: _c, ...f }) => f),
      months: section(3, ['currency', 'month']),
      variants: section(5, ['currency', 'variant']),
      tables: section(4, ['currency', 'tableId', 'tableCode', 'variant']),
      tableAccounting: parseExact<TableAccountingLineDto[]>(await accounting),
      exceptions: await exceptions,
    };
  }

  /** Table inventory against wager-level win, per table and gaming day (or per table for the range), as JSON text. */
  async tableAccountingJson(db: PrismaService, from: string, to: string, propertyId: string | undefined, byDay: boolean): Promise<string> {
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

  async tableAccountingReportJson(db: PrismaService, q: RangeQueryDto): Promise<string> {
    const { from, to } = parseRange(q);
    return this.tableAccountingJson(db, from, to, q.propertyId, true);
  }

  async exceptions(db: PrismaService, from: string, to: string, propertyId?: string): Promise<ExceptionsDto> {
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
    return {
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

  /**
   * Recomputes the rollups of a range from the raw records (settled wagers of unvoided coups,
   * commission collections) and lists every difference. The ledgers are partitioned by gaming
   * month: a settled wager carries its coup's gaming day, and each query bounds both tables' days,
   * so that each reads the months of the range alone (test/e2e/partitions.spec.ts).
   */
  async reconcile(db: PrismaService, q: RangeQueryDto): Promise<ReconciliationDto> {
    const { from, to } = parseRange(q);
    const detached = await db.$queryRaw<{ month: string }[]>`
      SELECT to_char(month, 'YYYY-MM') AS month FROM ledger_months_detached
      WHERE month <= ${to}::date AND month >= date_trunc('month', ${from}::date)::date ORDER BY month`;
    if (detached.length) {
      throw new AppError(
        'LEDGER_MONTH_DETACHED',
        `The coups and wagers of ${detached.map((d) => d.month).join(', ')} are detached to the archive: attach them again to reconcile this range`,
      );
    }
    const prop = q.propertyId ? Prisma.sql`AND t.property_id = ${q.propertyId}::uuid` : Prisma.empty;
    type Rec = Record<string, string>;
    const raw = await db.$queryRaw<Rec[]>`
      SELECT c.table_id::text, to_char(c.gaming_day, 'YYYY-MM-DD') AS day, w.bet_type::text, count(*)::text AS wagers, sum(w.amount)::text AS handle,
             sum(w.payout)::text AS payouts, sum(w.commission)::text AS commission, sum(w.net)::text AS net,
             count(*) FILTER (WHERE w.result = 'WIN')::text AS wins, count(*) FILTER (WHERE w.result = 'LOSE')::text AS losses, count(*) FILTER (WHERE w.result = 'PUSH')::text AS pushes
      FROM wagers w JOIN coups c ON c.id = w.coup_id AND c.gaming_day = w.gaming_day JOIN casino_tables t ON t.id = c.table_id
      WHERE w.status = 'SETTLED' AND w.gaming_day BETWEEN ${from}::date AND ${to}::date AND c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
        AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
      GROUP BY 1, 2, 3`;
    const collected = await db.$queryRaw<Rec[]>`
      SELECT e.table_id::text, to_char(e.gaming_day, 'YYYY-MM-DD') AS day, (-sum(e.amount))::text AS amount
      FROM commission_entries e JOIN casino_tables t ON t.id = e.table_id
      WHERE e.kind = 'COLLECTION' AND e.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
      GROUP BY 1, 2`;
    const rawCoups = await db.$queryRaw<Rec[]>`
      SELECT c.table_id::text, to_char(c.gaming_day, 'YYYY-MM-DD') AS day, count(*)::text AS coups,
             count(*) FILTER (WHERE c.winner = 'BANKER')::text AS banker, count(*) FILTER (WHERE c.winner = 'PLAYER')::text AS player,
             count(*) FILTER (WHERE c.winner = 'TIE')::text AS tie, count(*) FILTER (WHERE c.natural)::text AS naturals
      FROM coups c JOIN casino_tables t ON t.id = c.table_id
      WHERE c.status = 'SETTLED' AND c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
        AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
      GROUP BY 1, 2`;
    const byDayBet = await db.$queryRaw<Rec[]>`
      SELECT r.table_id::text, to_char(r.gaming_day, 'YYYY-MM-DD') AS day, r.bet_type::text, r.wagers::text, r.handle::text, r.payouts::text, r.commission::text,
             r.customer_net::text AS net, r.wins::text, r.losses::text, r.pushes::text, r.commission_collected::text AS collected, r.theo_e12::text AS theo, r.var_e12::text AS var
      FROM wager_rollups r JOIN casino_tables t ON t.id = r.table_id
      WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}`;
    const byDay = await db.$queryRaw<Rec[]>`
      SELECT r.table_id::text, to_char(r.gaming_day, 'YYYY-MM-DD') AS day, r.coups::text, r.banker_wins::text AS banker, r.player_wins::text AS player,
             r.ties::text AS tie, r.naturals::text, r.wagers::text, r.handle::text, r.payouts::text, r.commission::text, r.customer_net::text AS net,
             r.commission_collected::text AS collected, r.theo_e12::text AS theo, r.var_e12::text AS var, r.banked_coups::text AS banked, r.house_commission::text AS house,
             r.voided_coups::text, r.voided_wagers::text, r.voided_handle::text
      FROM table_day_rollups r JOIN casino_tables t ON t.id = r.table_id
      WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}`;
    const rawBanked = await db.$queryRaw<Rec[]>`
      SELECT b.table_id::text, to_char(b.gaming_day, 'YYYY-MM-DD') AS day, count(*)::text AS banked, sum(b.commission)::text AS house
      FROM bank_coups b JOIN casino_tables t ON t.id = b.table_id
      WHERE b.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop} AND NOT EXISTS (SELECT 1 FROM bank_coup_voids v WHERE v.bank_coup_id = b.id)
      GROUP BY 1, 2`;
    // Voided coups and their settled wagers, as the void summary reads them from the rollups.
    const rawVoided = await db.$queryRaw<Rec[]>`
      SELECT c.table_id::text, to_char(c.gaming_day, 'YYYY-MM-DD') AS day, count(DISTINCT c.id)::text AS voided_coups, count(w.id)::text AS voided_wagers,
             coalesce(sum(w.amount), 0)::text AS voided_handle
      FROM coup_voids v JOIN coups c ON c.id = v.coup_id JOIN casino_tables t ON t.id = c.table_id
      LEFT JOIN wagers w ON w.coup_id = c.id AND w.gaming_day = c.gaming_day AND w.gaming_day BETWEEN ${from}::date AND ${to}::date AND w.status = 'SETTLED'
      WHERE c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
      GROUP BY 1, 2`;
    // Month rollups are compared for the months lying wholly inside the range.
    const firstMonth = from.endsWith('-01') ? from : new Date(Date.UTC(Number(from.slice(0, 4)), Number(from.slice(5, 7)), 1)).toISOString().slice(0, 10);
    const lastMonthEnd = new Date(Date.UTC(Number(to.slice(0, 4)), Number(to.slice(5, 7)) - 1, Number(to.slice(8, 10)) + 1));
    const lastMonth = new Date(Date.UTC(lastMonthEnd.getUTCFullYear(), lastMonthEnd.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
    const byMonth = await db.$queryRaw<Rec[]>`
      SELECT r.table_id::text, to_char(r.month, 'YYYY-MM-DD') AS day, r.bet_type::text, r.wagers::text, r.handle::text, r.payouts::text, r.commission::text,
             r.customer_net::text AS net, r.wins::text, r.losses::text, r.pushes::text, r.commission_collected::text AS collected, r.theo_e12::text AS theo, r.var_e12::text AS var
      FROM month_rollups r JOIN casino_tables t ON t.id = r.table_id
      WHERE r.month BETWEEN ${firstMonth}::date AND ${lastMonth}::date ${prop}`;

    const tables = new Map((await db.casinoTable.findMany()).map((t) => [t.id, t]));
    // Each coup's variance again from its wagers: its stakes per bet type, one row a coup, put
    // through the table's covariances by the domain's coupVariances, as the settlement does.
    const coupStakes = await db.$queryRaw<{ table_id: string; day: string; bets: string[]; stakes: string[] }[]>`
      SELECT s.table_id::text, s.day, array_agg(s.bet_type) AS bets, array_agg(s.st::text) AS stakes
      FROM (
        SELECT w.coup_id, c.table_id, to_char(c.gaming_day, 'YYYY-MM-DD') AS day, w.bet_type::text AS bet_type, sum(w.amount) AS st
        FROM wagers w JOIN coups c ON c.id = w.coup_id AND c.gaming_day = w.gaming_day JOIN casino_tables t ON t.id = c.table_id
        WHERE w.status = 'SETTLED' AND w.gaming_day BETWEEN ${from}::date AND ${to}::date AND c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
          AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
        GROUP BY 1, 2, 3, 4
      ) s
      GROUP BY s.coup_id, s.table_id, s.day`;
    const moneyFields = ['wagers', 'handle', 'payouts', 'commission', 'net', 'collected', 'theo', 'var'];
    const betFields = [...moneyFields, 'wins', 'losses', 'pushes'];
    const expectedDayBet = new Map<string, Record<string, bigint>>();
    const expectedDay = new Map<string, Record<string, bigint>>();
    const expectedMonth = new Map<string, Record<string, bigint>>();
    const add = (m: Map<string, Record<string, bigint>>, key: string, values: Record<string, bigint>) => {
      const acc = m.get(key) ?? {};
      for (const [k, v] of Object.entries(values)) acc[k] = (acc[k] ?? 0n) + v;
      m.set(key, acc);
    };
    const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
    const inMonths = (day: string) => monthOf(day) >= firstMonth && monthOf(day) <= lastMonth;
    for (const r of raw) {
      const edge = edgesOf(tables.get(r.table_id)!)[r.bet_type as keyof ReturnType<typeof edgesOf>] ?? 0n;
      const v: Record<string, bigint> = Object.fromEntries(
        ['wagers', 'handle', 'payouts', 'commission', 'net', 'wins', 'losses', 'pushes'].map((f) => [f, BigInt(r[f])]),
      );
      v.theo = BigInt(r.handle) * edge;
      add(expectedDayBet, `${r.table_id}|${r.day}|${r.bet_type}`, v);
      add(expectedDay, `${r.table_id}|${r.day}`, {
        wagers: v.wagers,
        handle: v.handle,
        payouts: v.payouts,
        commission: v.commission,
        net: v.net,
        theo: v.theo,
      });
      if (inMonths(r.day)) add(expectedMonth, `${r.table_id}|${monthOf(r.day)}|${r.bet_type}`, v);
    }
    for (const r of coupStakes) {
      const stakes = new Map(r.bets.map((b, i) => [b as BetType, BigInt(r.stakes[i])]));
      const { own, whole } = coupVariances(stakes, covariancesOf(tables.get(r.table_id)!));
      for (const [b, v] of own) {
        add(expectedDayBet, `${r.table_id}|${r.day}|${b}`, { var: v });
        if (inMonths(r.day)) add(expectedMonth, `${r.table_id}|${monthOf(r.day)}|${b}`, { var: v });
      }
      add(expectedDay, `${r.table_id}|${r.day}`, { var: whole });
    }
    for (const c of collected) {
      add(expectedDayBet, `${c.table_id}|${c.day}|BANKER`, { collected: BigInt(c.amount) });
      add(expectedDay, `${c.table_id}|${c.day}`, { collected: BigInt(c.amount) });
      if (inMonths(c.day)) add(expectedMonth, `${c.table_id}|${monthOf(c.day)}|BANKER`, { collected: BigInt(c.amount) });
    }
    const voidedFields = ['voided_coups', 'voided_wagers', 'voided_handle'];
    for (const v of rawVoided) add(expectedDay, `${v.table_id}|${v.day}`, Object.fromEntries(voidedFields.map((f) => [f, BigInt(v[f])])));
    for (const b of rawBanked) add(expectedDay, `${b.table_id}|${b.day}`, { banked: BigInt(b.banked), house: BigInt(b.house) });
    for (const c of rawCoups)
      add(expectedDay, `${c.table_id}|${c.day}`, Object.fromEntries(['coups', 'banker', 'player', 'tie', 'naturals'].map((f) => [f, BigInt(c[f])])));

    const differences: ReconciliationDifferenceDto[] = [];
    const compare = (grain: string, expected: Map<string, Record<string, bigint>>, actual: Rec[], keyOf: (r: Rec) => string, fields: string[]) => {
      const got = new Map(actual.map((r) => [keyOf(r), r]));
      for (const key of new Set([...expected.keys(), ...got.keys()])) {
        const [tableId, gamingDay, betType] = key.split('|');
        for (const f of fields) {
          const want = expected.get(key)?.[f] ?? 0n;
          const have = BigInt(got.get(key)?.[f] ?? '0');
          if (want !== have)
            differences.push({ tableId, gamingDay, betType: betType ?? null, field: `${grain}.${f}`, rollup: have.toString(), raw: want.toString() });
        }
      }
    };
    compare('byDayAndBet', expectedDayBet, byDayBet, (r) => `${r.table_id}|${r.day}|${r.bet_type}`, betFields);
    compare('byDay', expectedDay, byDay, (r) => `${r.table_id}|${r.day}`, [
      ...moneyFields,
      'coups',
      'banker',
      'player',
      'tie',
      'naturals',
      'banked',
      'house',
      ...voidedFields,
    ]);
    compare('byMonthAndBet', expectedMonth, byMonth, (r) => `${r.table_id}|${r.day}|${r.bet_type}`, betFields);
    const patronRows = await this.reconcilePatrons(db, from, to, prop, tables, differences);
    return {
      from,
      to,
      rowsChecked: byDayBet.length + byDay.length + byMonth.length + patronRows,
      wagersRecomputed: raw.reduce((n, r) => n + Number(r.wagers), 0),
      ok: differences.length === 0,
      differences,
    };
  }

  /**
   * The patron rollups of a range recomputed from the rated wagers of unvoided coups, coup by coup
   * as the settlement keeps them (domain/rating.ts coupPlayDeltas); each difference is added to
   * `differences`. Returns how many rollup rows were compared.
   */
  private async reconcilePatrons(
    db: PrismaService,
    from: string,
    to: string,
    prop: Prisma.Sql,
    tables: Map<string, CasinoTable>,
    differences: ReconciliationDifferenceDto[],
  ) {
    type Rec = Record<string, string>;
    const rated = await db.$queryRaw<Rec[]>`
      SELECT w.coup_id::text, c.table_id::text, to_char(c.gaming_day, 'YYYY-MM-DD') AS day, w.patron_id, w.seating_id::text, w.bet_type::text,
             w.amount::text, w.net::text
      FROM wagers w JOIN coups c ON c.id = w.coup_id AND c.gaming_day = w.gaming_day JOIN casino_tables t ON t.id = c.table_id
      WHERE w.patron_id IS NOT NULL AND w.status = 'SETTLED' AND w.gaming_day BETWEEN ${from}::date AND ${to}::date AND c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
        AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
      ORDER BY w.coup_id`;
    const keptBets = await db.$queryRaw<Rec[]>`
      SELECT r.table_id::text, to_char(r.gaming_day, 'YYYY-MM-DD') AS day, r.patron_id, r.seating_key::text AS visit, r.bet_type::text,
             r.wagers::text, r.handle::text, r.customer_net::text AS net, r.theo_e12::text AS theo
      FROM patron_rollups r JOIN casino_tables t ON t.id = r.table_id
      WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}`;
    const keptCoups = await db.$queryRaw<Rec[]>`
      SELECT r.table_id::text, to_char(r.gaming_day, 'YYYY-MM-DD') AS day, r.patron_id, r.seating_key::text AS visit, r.coups::text, r.var_e12::text AS var
      FROM patron_coup_rollups r JOIN casino_tables t ON t.id = r.table_id
      WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}`;
    const bets = new Map<string, Record<string, bigint>>();
    const coups = new Map<string, Record<string, bigint>>();
    const add = (m: Map<string, Record<string, bigint>>, key: string, values: Record<string, bigint>) => {
      const acc = m.get(key) ?? {};
      for (const [k, v] of Object.entries(values)) acc[k] = (acc[k] ?? 0n) + v;
      m.set(key, acc);
    };
    const flush = (group: Rec[]) => {
      if (group.length === 0) return;
      const { table_id: tableId, day } = group[0];
      const table = tables.get(tableId)!;
      const d = coupPlayDeltas(
        group.map((w) => ({ patronId: w.patron_id, seatingId: w.seating_id, betType: w.bet_type as BetType, amount: BigInt(w.amount), net: BigInt(w.net) })),
        { edgesE12: edgesOf(table), covariancesE12: covariancesOf(table) },
      );
      for (const b of d.bets)
        add(bets, `${tableId}|${day}|${b.betType}|${b.patronId}|${b.visit}`, {
          wagers: BigInt(b.sums.wagers),
          handle: b.sums.handle,
          net: b.sums.net,
          theo: b.sums.theoE12,
        });
      for (const c of d.coups) add(coups, `${tableId}|${day}||${c.patronId}|${c.visit}`, { coups: 1n, var: c.varE12 });
    };
    let group: Rec[] = [];
    for (const w of rated) {
      if (group.length && group[0].coup_id !== w.coup_id) {
        flush(group);
        group = [];
      }
      group.push(w);
    }
    flush(group);
    const compare = (grain: string, expected: Map<string, Record<string, bigint>>, actual: Rec[], keyOf: (r: Rec) => string, fields: string[]) => {
      const got = new Map(actual.map((r) => [keyOf(r), r]));
      for (const key of new Set([...expected.keys(), ...got.keys()])) {
        const [tableId, gamingDay, betType, patronId, visit] = key.split('|');
        for (const f of fields) {
          const want = expected.get(key)?.[f] ?? 0n;
          const have = BigInt(got.get(key)?.[f] ?? '0');
          if (want !== have)
            differences.push({
              tableId,
              gamingDay,
              betType: betType || null,
              field: `${grain}.${f}`,
              rollup: have.toString(),
              raw: want.toString(),
              patronId,
              visit,
            });
        }
      }
    };
    compare('byPatronVisitAndBet', bets, keptBets, (r) => `${r.table_id}|${r.day}|${r.bet_type}|${r.patron_id}|${r.visit}`, [
      'wagers',
      'handle',
      'net',
      'theo',
    ]);
    compare('byPatronVisit', coups, keptCoups, (r) => `${r.table_id}|${r.day}||${r.patron_id}|${r.visit}`, ['coups', 'var']);
    return keptBets.length + keptCoups.length;
  }

  // -------------------------------------------------------------------------------------------

  /**
   * The SQL of a win/loss report: rows grouped by the dimensions (always by currency too), each as
   * one JSON text, in the report's order, and the totals per currency; both from the coarsest
   * rollup that answers the grouping. With `into`, every amount is translated into that currency
   * (translation-sql.ts): the rollup's days are read translated, and money sums are rounded where
   * they are shown.
   */
  private winLossSql(groupBy: GroupBy[], from: string, to: string, propertyId?: string, into?: string): { rows: Prisma.Sql; totals: Prisma.Sql } {
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
      ? `SELECT r.table_id, ${dkey} AS dkey, ${bkey} AS bkey, r.wagers, r.handle, r.payouts, r.commission, r.commission_collected AS collected, r.customer_net AS net, r.theo_e12 AS theo, r.var_e12 AS var` +
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
          ? this.tableDayRowsSql(dims, keys, from, to, propertyId)
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
  private tableDayRowsSql(dims: GroupBy[], keys: Column[], from: string, to: string, propertyId?: string): Prisma.Sql {
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
  private async voidSummary(db: PrismaService, from: string, to: string, propertyId?: string, into?: string) {
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
  private async assertRates(db: PrismaService, into: string, from: string, to: string, propertyId?: string): Promise<void> {
    const [missing] = await db.$queryRaw<{ currency: string; day: string }[]>(missingRateSql(into, from, to, propertyId));
    if (missing) {
      throw new AppError(
        'EXCHANGE_RATE_MISSING',
        `No ${missing.currency} to ${into} exchange rate on or before ${missing.day}, the first gaming day with ${missing.currency} tables in the report: enter it (POST /v1/exchange-rates) to have the report in ${into}`,
      );
    }
  }
}
