import { minorDigits, nonDecimalCurrencies, RATE_DECIMALS } from '../../domain';
import { Prisma } from '../../generated/prisma/client';

/**
 * A report in one currency (`currency=` on the win/loss report): the SQL of domain/money/fx.ts translate.
 * Each rollup row's amounts are multiplied by its gaming day's rate, exactly (numeric); sums of them
 * are rounded once, half away from zero (PostgreSQL's round of a numeric), where a figure is shown.
 * test/e2e/finance/group.spec.ts pins the answers to translate().
 */

/** Rollup columns that are money: translated, and rounded where shown. Counts are not touched. */
const MONEY = [
  'handle',
  'payouts',
  'commission',
  'commission_collected',
  'customer_net',
  'house_commission',
  'voided_handle',
  'premium_handle',
  'premium_commission',
  'premium_customer_net',
];
/** Σ stake × edge × 10^12 scales like money; Σ variance × 10^12 like money squared. */
const SCALED: Record<string, (k: string) => string> = { theo_e12: (k) => k, premium_theo_e12: (k) => k, var_e12: (k) => `${k} * ${k}` };

/** The wager figures both daily rollups keep, and each one's own columns around them. */
const WAGER_FIGURES = [
  'wagers',
  'handle',
  'payouts',
  'commission',
  'commission_collected',
  'customer_net',
  'premium_wagers',
  'premium_handle',
  'premium_commission',
  'premium_customer_net',
  'premium_theo_e12',
];
const COLUMNS: Record<'wager_rollups' | 'table_day_rollups', string[]> = {
  wager_rollups: ['bet_type', ...WAGER_FIGURES, 'wins', 'losses', 'pushes', 'theo_e12', 'var_e12'],
  table_day_rollups: [
    ...['decks', 'coups', 'banker_wins', 'player_wins', 'ties', 'naturals'],
    ...WAGER_FIGURES,
    ...['theo_e12', 'var_e12', 'banked_coups', 'house_commission', 'voided_coups', 'voided_wagers', 'voided_handle'],
  ],
};

/** The report's sums (as the report queries name them) that are money. */
export const MONEY_SUMS = new Set(['handle', 'payouts', 'commission', 'collected', 'net', 'house_commission', 'p_handle', 'p_commission', 'p_net']);

/** A sum of translated money, rounded to the minor unit where it is shown. */
export const roundedSql = (sum: string): string => `round(${sum})`;

/**
 * Each currency of the tables and each day of the range, with k: what one minor unit of the
 * currency is worth in minor units of `into` that day (domain minorUnitRatio), at the latest rate
 * entered for the latest day on or before it; 1 for `into` itself.
 */
function ratesSql(into: string, from: string, to: string): Prisma.Sql {
  const digits = Prisma.join(nonDecimalCurrencies().map(([c, d]) => Prisma.sql`(${c}::bpchar, ${d}::int)`));
  return Prisma.sql`
    SELECT c.currency, d.day::date AS day,
           CASE WHEN c.currency = ${into}::bpchar THEN 1::numeric
                ELSE x.rate_e9 * ('1e' || (${minorDigits(into)}::int - coalesce(dg.digits, 2) - ${RATE_DECIMALS}::int))::numeric END AS k
    FROM (SELECT DISTINCT currency FROM casino_tables) c
    CROSS JOIN generate_series(${from}::date, ${to}::date, interval '1 day') d(day)
    LEFT JOIN (VALUES ${digits}) dg(currency, digits) ON dg.currency = c.currency
    LEFT JOIN LATERAL (
      SELECT e.rate_e9 FROM exchange_rates e
      WHERE e.currency = c.currency AND e.into_currency = ${into}::bpchar AND e.rate_day <= d.day::date
      ORDER BY e.rate_day DESC, e.entered_at DESC, e.id DESC LIMIT 1
    ) x ON true`;
}

/**
 * A daily rollup's rows of the range with every amount translated into `into`, under the rollup's
 * own column names: the reports read it where they would read the rollup.
 */
export function translatedRollupSql(table: 'wager_rollups' | 'table_day_rollups', into: string, from: string, to: string): Prisma.Sql {
  const cols = COLUMNS[table].map((c) => (MONEY.includes(c) ? `r.${c} * x.k AS ${c}` : c in SCALED ? `r.${c} * ${SCALED[c]('x.k')} AS ${c}` : `r.${c}`));
  // The rates are found once per currency and day (MATERIALIZED), then joined by hash: left to
  // itself the planner looked the rate up again for every rollup row (18,400 a quarter: 0.7 s).
  return Prisma.sql`(
    WITH x AS MATERIALIZED (${ratesSql(into, from, to)})
    SELECT r.table_id, r.gaming_day, ${Prisma.raw(cols.join(', '))}
    FROM ${Prisma.raw(table)} r JOIN casino_tables t ON t.id = r.table_id
    JOIN x ON x.currency = t.currency AND x.day = r.gaming_day
    WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date)`;
}

/** The tables, their currency read as `into`: what the report's rows group and total by. */
export function tablesInSql(into: string): Prisma.Sql {
  return Prisma.sql`(SELECT id, code, pit, variant, decks, property_id, ${into}::text AS currency FROM casino_tables)`;
}

/**
 * The first currency of the report's tables without a rate into `into` on or before its first
 * gaming day in the range (a later day then has one too): the report cannot be given in `into`.
 */
export function missingRateSql(into: string, from: string, to: string, propertyId?: string): Prisma.Sql {
  const prop = propertyId ? Prisma.sql`AND t.property_id = ${propertyId}::uuid` : Prisma.empty;
  return Prisma.sql`
    SELECT m.currency::text AS currency, m.first_day::text AS day
    FROM (
      SELECT t.currency, min(r.gaming_day) AS first_day
      FROM table_day_rollups r JOIN casino_tables t ON t.id = r.table_id
      WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date AND t.currency <> ${into}::bpchar ${prop}
      GROUP BY t.currency
    ) m
    WHERE NOT EXISTS (SELECT 1 FROM exchange_rates e WHERE e.currency = m.currency AND e.into_currency = ${into}::bpchar AND e.rate_day <= m.first_day)
    ORDER BY m.currency LIMIT 1`;
}
