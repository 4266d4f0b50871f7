import { assertDayRange } from '../../platform/common/validation';
import { AppError } from '../../platform/common/errors';
import { fractionToDecimal, MAX_DECKS, MIN_DECKS, outcomeProbabilities } from '../../domain';
import { Prisma } from '../../generated/prisma/client';
import { GROUP_BY, GroupBy, RangeQueryDto } from './dto/report.dto';

/**
 * What every report is built from: the figures as SQL over the rollups, the dimensions a report
 * groups by, its range. The reports read from the database they are handed (the replica or the
 * primary, as the controller picked it: ReadDatabase); nothing here writes.
 */

/** A figure of a report: a number, a decimal shown as a string, or an object of figures. */
export type Figure = { key: string; sql: string; as: 'number' | 'decimal' } | { key: string; fields: Figure[] | null };

/** The sums the figures are computed from. */
export type Sum =
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
  | 'exp_nat'
  | 'p_wagers'
  | 'p_handle'
  | 'p_net'
  | 'p_commission'
  | 'p_theo';

/**
 * The standard deviation of theoretical win in minor units, from Σ variance × 10^12 (domain
 * theoreticalStdDev): ⌊(⌊√⌊4v / 10^12⌋⌋ + 1) / 2⌋, in integers where PostgreSQL allows. Its numeric
 * division and square root keep about 16 significant digits: 4v / 10^12 just below a square rounded
 * up to it, and the root with it (test/e2e/finance/formulas.spec.ts found both, at (k + ½)² − 10^-12). So the
 * quotient is div()'s integer one, and the root is taken with 30 decimals, which makes its floor exact:
 * √n of an integer n that is not a square lies at least 1/(2√n + 1) below the next integer, far more
 * than 10^-30 for any variance a bigint sum holds.
 */
export function stdDevSql(v: string): string {
  return `div(floor(sqrt(div(4 * greatest(${v}, 0), 1000000000000)::numeric(80, 30))) + 1, 2)::bigint`;
}

/**
 * num ÷ den × 100 to 4 decimals, rounded half away from zero, exactly (domain holdPercent and
 * dropHoldPercent). PostgreSQL's numeric division gives at least 16 significant digits, which lost
 * the decimals of a large quotient; with a dividend of 30 decimal places the quotient is exact to 30
 * places, and rounding that to 4 is the exact rounding for any divisor below 5 × 10^25 (a bigint's
 * is below 10^19): no value of 30 places can sit between the true quotient and a half-way point.
 */
export function percentSql(num: string, den: string): string {
  return `CASE WHEN ${den} = 0 THEN NULL ELSE round((${num})::numeric(60, 30) * 100 / ${den}, 4) END`;
}

/** A row of sums `s`, as the report queries name them. */
export const sumsRow = (name: Sum): string => `s.${name}`;

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
export function figures(withCoups: boolean, sum: (name: Sum) => string = sumsRow): Figure[] {
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
    // Premium play (dead-chip wagers, docs/domain.md §14 "Premium and mass") and mass play (the
    // rest): mass is the total less premium, figure by figure (theo too, each rounded once), so the
    // two always add up to the totals.
    {
      key: 'premium',
      fields: [
        n('wagers', sum('p_wagers')),
        n('handle', sum('p_handle')),
        n('win', `-${sum('p_net')}`),
        d('holdPercent', percentSql(`-${sum('p_net')}`, sum('p_handle'))),
        n('commissionCharged', sum('p_commission')),
        n('theoreticalWin', `round(${sum('p_theo')} / 1000000000000)::bigint`),
      ],
    },
    {
      key: 'mass',
      fields: [
        n('wagers', `${sum('wagers')} - ${sum('p_wagers')}`),
        n('handle', `${handle} - ${sum('p_handle')}`),
        n('win', `${sum('p_net')} - ${net}`),
        d('holdPercent', percentSql(`${sum('p_net')} - ${net}`, `(${handle} - ${sum('p_handle')})`)),
        n('commissionCharged', `${commission} - ${sum('p_commission')}`),
        n('theoreticalWin', `round(${theo} / 1000000000000)::bigint - round(${sum('p_theo')} / 1000000000000)::bigint`),
      ],
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
export const probabilitiesSql = () =>
  Prisma.join(PROBABILITIES.map((p) => Prisma.sql`(${p.decks}::int, ${p.banker}::numeric, ${p.player}::numeric, ${p.tie}::numeric, ${p.natural}::numeric)`));

/** A table-day rollup row's expected count of an outcome: its coups × the probability for its deck count. */
export const expectedSql = (outcome: 'banker' | 'player' | 'tie' | 'natural'): string =>
  `(coups * CASE decks ${PROBABILITIES.map((p) => `WHEN ${p.decks} THEN ${p[outcome]}`).join(' ')} END)`;

/** The columns of table_day_rollups behind each sum. */
export const ROLLUP_COLUMNS: Record<Sum, string> = {
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
  p_wagers: 'premium_wagers',
  p_handle: 'premium_handle',
  p_net: 'premium_customer_net',
  p_commission: 'premium_commission',
  p_theo: 'premium_theo_e12',
};

/**
 * A table-day rollup row's figures as the members of a JSON object, the expected outcome counts
 * included (by the deck count the row keeps of its table): the expression of the stored generated
 * column table_day_rollups.figures_json (migration 20261123150000_rollup_figures_exact), which
 * PostgreSQL keeps in step with the row's sums on every write. The win/loss report sends it as it is
 * for rows at the rollup's own grain: rendering some twenty-five numbers a row at every request
 * measured 2.5 times slower for a quarter's table × day rows (BENCHMARKS.md). The stored text is
 * checked against this expression by test/e2e/finance/report-streaming.spec.ts, and the expression against
 * the domain's formulas by test/e2e/finance/formulas.spec.ts.
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
export function figuresJsonSql(withCoups: boolean): string {
  return figures(withCoups)
    .map((f, i) => `'${i ? ',' : ''}"${f.key}":' || ${figureJsonSql(f)}`)
    .join(' || ');
}

/**
 * The table-accounting figures over a row of its sums (opener, closer, credits, fills, "drop",
 * "wagerWin"): statisticalWin and dropHoldPercent of domain/finance/accounting.ts, and the reconciliation
 * item (statistical win − wager-level win).
 */
export function tableAccountingFiguresSql(x: string): string {
  const win = `(${x}.closer - ${x}.opener + ${x}.credits - ${x}.fills + ${x}."drop")`;
  return `${win} AS "statisticalWin",
    (${percentSql(win, `${x}."drop"`)})::text AS "dropHoldPercent",
    ${x}."wagerWin", ${win} - ${x}."wagerWin" AS difference`;
}

/** One figure's value as JSON text. */
export function figureJsonSql(f: Figure): string {
  if ('sql' in f) return f.as === 'decimal' ? `coalesce('"' || (${f.sql})::text || '"', 'null')` : `coalesce((${f.sql})::text, 'null')`;
  return f.fields ? `'{' || ${f.fields.map((g, i) => `'${i ? ',' : ''}"${g.key}":' || ${figureJsonSql(g)}`).join(' || ')} || '}'` : `'null'`;
}

/** Sum columns over rollup rows (alias r), coup columns where the grain has them; the variance unless left to the caller. */
export function sumsSql(withCoups: boolean, withVariance = true): string {
  return (
    `sum(r.wagers) AS wagers, sum(r.handle) AS handle, sum(r.payouts) AS payouts, sum(r.commission) AS commission,
          sum(r.commission_collected) AS collected, sum(r.customer_net) AS net, sum(r.theo_e12) AS theo,
          sum(r.premium_wagers) AS p_wagers, sum(r.premium_handle) AS p_handle, sum(r.premium_commission) AS p_commission,
          sum(r.premium_customer_net) AS p_net, sum(r.premium_theo_e12) AS p_theo` +
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
export const DIMENSIONS: Record<GroupBy, [sql: string, alias: string, kind: 'free' | 'plain', sort?: string][]> = {
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

export type Column = (typeof DIMENSIONS)[GroupBy][number];

/** The dimensions that are attributes of a table: one value per table. */
export const TABLE_DIMENSIONS: GroupBy[] = ['property', 'pit', 'table', 'variant', 'currency'];

/** Group members whose value follows from an earlier one's: sorting by them too changes nothing. */
export const FOLLOWS_FROM: Record<string, string[]> = {
  tableId: ['tableCode', 'pit', 'variant', 'currency', 'propertyId', 'propertyName'],
  propertyId: ['propertyName'],
};

/** The columns a report's rows are sorted by: its group members in order, less those that cannot change the order. */
export function orderKeys(cols: Column[]): Column[] {
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
export function jsonValueSql(kind: 'free' | 'plain', sql: string): string {
  return kind === 'free' ? `coalesce(to_json(${sql})::text, 'null')` : `coalesce('"' || ${sql} || '"', 'null')`;
}

/**
 * The coarsest rollup that answers a grouping: per table and day (all bet types, with coups)
 * unless bet types are asked for; per table, month and bet type when the range is whole months;
 * else per table, day and bet type. None of them grows with the number of wagers. A report
 * translated into one currency reads days (each day has its rate), never months.
 */
export function sourceFor(
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
