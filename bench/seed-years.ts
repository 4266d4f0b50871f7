/**
 * Years of records behind a seeded quarter: the quarter's coups, wagers, shoes, commission entries,
 * table sessions, slips and rollups copied back `quarters` times, the k-th copy 92·k gaming days
 * earlier (a quarter is at most 92 days, so copies never overlap), with new ids (md5 of the old id
 * and k, so the copy of a coup and the copy of its wagers still meet). Month rollups of the earlier
 * months are summed from the copied day rollups at the end, as the settlement keeps both.
 *
 * The copies are made by the database itself: the quarter's rows are read once into temporary
 * tables, then each copy is one `INSERT … SELECT` a table, in a transaction of its own, into the
 * monthly partitions created first with sabot_ledger_months (a row with no partition would land in
 * the open one). No row crosses the wire: after COPY this is PostgreSQL's fastest bulk load, and it
 * needs no client to generate 100 M rows. The quarter itself is seeded by seed-quarter (COPY of
 * engine-dealt coups).
 *
 * Only a quarter without rated play is copied (seatings and patron rollups are not).
 */
import { SingleBar } from 'cli-progress';
import { Client } from 'pg';
import { storedColumns } from './port-database';

export interface YearsOptions {
  /** The seeded quarter's first and last gaming days. */
  from: string;
  to: string;
  /** How many copies, each 92 days before the last. */
  quarters: number;
  progress: boolean;
}

const SHIFT_DAYS = 92;

/** Column → expression for the k-th copy; the rest are copied as they are. */
type Overrides = Record<string, string>;

export async function addEarlierQuarters(databaseUrl: string, o: YearsOptions): Promise<{ wagers: number; seconds: number }> {
  const started = Date.now();
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query('SET synchronous_commit = off'); // a bulk load of generated history, not live play
    const rated = await c.query(`SELECT 1 FROM wagers WHERE patron_id IS NOT NULL AND gaming_day BETWEEN $1 AND $2 LIMIT 1`, [o.from, o.to]);
    if (rated.rowCount) throw new Error('addEarlierQuarters copies a quarter of unrated play only (its seatings and patron rollups are not copied)');
    const earliest = shift(o.from, o.quarters);
    await c.query('SELECT sabot_ledger_months($1::date, $2::date)', [earliest, o.to]);
    for (const [table, where] of Object.entries(SOURCES)) {
      await c.query(`CREATE TEMP TABLE "src_${table}" AS SELECT * FROM "${table}" WHERE ${where}`, [o.from, o.to]);
    }
    const bar = o.progress
      ? new SingleBar({ format: 'earlier quarters |{bar}| {percentage}% | {value}/{total} quarters | {wagers} wagers | {eta_formatted} left' })
      : null;
    bar?.start(o.quarters, 0, { wagers: 0 });
    let wagers = 0;
    for (let k = 1; k <= o.quarters; k++) {
      await c.query('BEGIN');
      wagers += await copyQuarter(c, k);
      await c.query('COMMIT');
      bar?.increment(1, { wagers });
    }
    bar?.stop();
    // The month grain of every earlier month, summed from the day grain.
    const sums = (await storedColumns(c, 'wager_rollups')).filter((col) => !['table_id', 'property_id', 'gaming_day', 'bet_type'].includes(col));
    await c.query(
      `INSERT INTO month_rollups (table_id, property_id, month, bet_type, ${sums.join(', ')})
       SELECT table_id, property_id, date_trunc('month', gaming_day)::date, bet_type, ${sums.map((s) => `sum(${s})`).join(', ')}
       FROM wager_rollups WHERE gaming_day < date_trunc('month', $1::date) GROUP BY 1, 2, 3, 4`,
      [o.from],
    );
    await c.query('ANALYZE');
    return { wagers, seconds: (Date.now() - started) / 1000 };
  } finally {
    await c.end();
  }

  async function copyQuarter(c: Client, k: number): Promise<number> {
    const id = (col: string) => `md5(${col}::text || ':${k}')::uuid`;
    const day = (col: string) => `${col} - ${SHIFT_DAYS * k}`;
    const at = (col: string) => `${col} - interval '${SHIFT_DAYS * k} days'`;
    await copyRows(c, 'shoes', { id: id('id'), number: `number + ${100_000 * k}`, opened_at: at('opened_at'), closed_at: at('closed_at') });
    await copyRows(c, 'coups', {
      id: id('id'),
      shoe_id: id('shoe_id'),
      opened_at: at('opened_at'),
      settled_at: at('settled_at'),
      gaming_day: day('gaming_day'),
    });
    const n = await copyRows(c, 'wagers', {
      id: id('id'),
      coup_id: id('coup_id'),
      shoe_id: id('shoe_id'),
      carried_from_id: id('carried_from_id'),
      placed_at: at('placed_at'),
      settled_at: at('settled_at'),
      gaming_day: day('gaming_day'),
    });
    await copyRows(c, 'commission_entries', {
      id: id('id'),
      shoe_id: id('shoe_id'),
      coup_id: id('coup_id'),
      wager_id: id('wager_id'),
      created_at: at('created_at'),
      gaming_day: day('gaming_day'),
    });
    await copyRows(c, 'table_sessions', { id: id('id'), gaming_day: day('gaming_day'), opened_at: at('opened_at'), closed_at: at('closed_at') });
    await copyRows(c, 'table_slips', {
      id: id('id'),
      session_id: id('session_id'),
      year: `extract(year FROM ${day('gaming_day')})::int`,
      number: `number + ${1_000_000 * k}`,
      gaming_day: day('gaming_day'),
      created_at: at('created_at'),
    });
    await copyRows(c, 'wager_rollups', { gaming_day: day('gaming_day') });
    await copyRows(c, 'table_day_rollups', { gaming_day: day('gaming_day') });
    return n;
  }
}

/** The rows of the seeded quarter ($1 to $2) each table's copies are made of. */
const SOURCES: Record<string, string> = {
  shoes: `opened_at >= $1::date AND opened_at < $2::date + 1`,
  coups: `gaming_day BETWEEN $1 AND $2`,
  wagers: `gaming_day BETWEEN $1 AND $2`,
  commission_entries: `created_at >= $1::date AND created_at < $2::date + 1`,
  table_sessions: `gaming_day BETWEEN $1 AND $2`,
  table_slips: `gaming_day BETWEEN $1 AND $2`,
  wager_rollups: `gaming_day BETWEEN $1 AND $2`,
  table_day_rollups: `gaming_day BETWEEN $1 AND $2`,
};

/** INSERT … SELECT of the quarter's rows of a table (its temporary copy), every stored column copied or overridden. */
async function copyRows(c: Client, table: string, overrides: Overrides): Promise<number> {
  const cols = await storedColumns(c, table);
  const list = cols.map((col) => `"${col}"`).join(', ');
  const select = cols.map((col) => overrides[col] ?? `"${col}"`).join(', ');
  const r = await c.query(`INSERT INTO "${table}" (${list}) SELECT ${select} FROM "src_${table}"`);
  return r.rowCount ?? 0;
}

/** The day `quarters` copies before `day`. */
function shift(day: string, quarters: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - SHIFT_DAYS * quarters);
  return d.toISOString().slice(0, 10);
}
