/**
 * npm run bench:reports — the quarterly statement and a groupBy=table,gamingDay win/loss query
 * over a whole quarter, through the HTTP API, at 1 M and at 10 M wagers. Each size lives in its
 * own database (sabot_bench_reports_<size>) on BENCH_DATABASE_URL's server, seeded once by
 * seed-quarter (200 tables × 92 gaming days) and reused while it holds that many wagers.
 * The service runs as its own process, as `npm start` runs it. Prints median and p95 of 30 timed
 * requests after 5 warm-up ones; writes bench/results/reports.json.
 *
 * Then the same at 1 M wagers with years of history kept before the quarter: a copy of the 1 M
 * database (sabot_bench_reports_1m_history) whose table-day rollups also hold HISTORY_QUARTERS
 * (default 20) earlier copies of the quarter's rows, each shifted 92 days further back — the
 * rollup rows the two reports read, not wagers. A report of one quarter must not slow down as
 * the years go by. HISTORY_QUARTERS=0 skips it.
 *
 * And the same win/loss report translated into USD (a group's statement, `currency=USD`) at a rate
 * entered for every day of the quarter and the one before: every rollup row read is translated at its
 * day's rate, the stored figures of a table's day cannot be sent as they are.
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { migrate } from '../src/database/migrate';
import { seedQuarter } from './seed-quarter';
import { startServiceProcess } from './service-process';
import { machine, summarize, writeJson } from './stats';

const SIZES = (process.env.SIZES ?? '1000000,10000000').split(',').map(Number);
const HISTORY_QUARTERS = Number(process.env.HISTORY_QUARTERS ?? 20);
const RUNS = 30;
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function ensureSeeded(size: number): Promise<string> {
  const name = `sabot_bench_reports_${size >= 1e6 ? `${size / 1e6}m` : size}`;
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  let wagers = 0;
  if (exists) {
    const c = new Client({ connectionString: u.toString() });
    await c.connect();
    wagers = Number(
      (await c.query<{ n: string | number }>('SELECT coalesce(sum(wagers), 0) AS n FROM table_day_rollups').catch(() => ({ rows: [{ n: 0 }] }))).rows[0].n,
    );
    await c.end();
  }
  if (wagers < size * 0.95) {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    console.log(`Seeding ${name} with ${size} wagers…`);
    const r = await seedQuarter(u.toString(), { wagers: size, tables: 200, year: 2026, quarter: 3, maxMinutes: 30, progress: process.stdout.isTTY });
    console.log(`  ${r.wagers} wagers, ${r.coups} coups in ${r.seconds.toFixed(0)} s`);
  }
  await admin.end();
  await migrate(u.toString()); // a reused database gets any migration added since it was seeded
  return u.toString();
}

/** The 1 M database copied, with `quarters` earlier copies of the quarter's table-day rollup rows. */
async function ensureHistory(quarters: number): Promise<string> {
  const source = await ensureSeeded(1e6);
  const name = 'sabot_bench_reports_1m_history';
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    if (exists) {
      const c = new Client({ connectionString: u.toString() });
      await c.connect();
      const { rows } = await c.query<{ before: string; quarter: string }>(
        `SELECT count(*) FILTER (WHERE gaming_day < '2026-07-01') AS before, count(*) FILTER (WHERE gaming_day >= '2026-07-01') AS quarter FROM table_day_rollups`,
      );
      await c.end();
      if (Number(rows[0].before) === quarters * Number(rows[0].quarter)) return u.toString();
    }
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${new URL(source).pathname.slice(1)}"`);
  } finally {
    await admin.end();
  }
  console.log(`Adding ${quarters} earlier quarters of table-day rollups to ${name}…`);
  const c = new Client({ connectionString: u.toString() });
  await c.connect();
  await c.query(
    `
    INSERT INTO table_day_rollups (table_id, gaming_day, decks, coups, banker_wins, player_wins, ties, naturals, wagers, handle, payouts,
                                   commission, commission_collected, customer_net, theo_e12, banked_coups, house_commission)
    SELECT table_id, gaming_day - 92 * k, decks, coups, banker_wins, player_wins, ties, naturals, wagers, handle, payouts,
           commission, commission_collected, customer_net, theo_e12, banked_coups, house_commission
    FROM table_day_rollups, generate_series(1, $1::int) AS k`,
    [quarters],
  );
  await c.query('VACUUM ANALYZE table_day_rollups');
  await c.end();
  return u.toString();
}

/** A USD rate for each table currency on every day from the quarter before to the quarter's end (once). */
async function withRates(url: string): Promise<void> {
  const c = new Client({ connectionString: url });
  await c.connect();
  await c.query(`
    INSERT INTO exchange_rates (rate_day, currency, into_currency, rate_e9, entered_by_key_id)
    SELECT d::date, t.currency, 'USD', 1084200000 + (extract(doy FROM d)::int * 137) % 20000000, 'bench'
    FROM generate_series('2026-04-01'::date, '2026-09-30'::date, interval '1 day') d, (SELECT DISTINCT currency FROM casino_tables WHERE currency <> 'USD') t
    WHERE NOT EXISTS (SELECT 1 FROM exchange_rates WHERE entered_by_key_id = 'bench')`);
  await c.end();
}

async function main() {
  const results: Record<string, unknown>[] = [];
  const targets: { size: number | string; url: () => Promise<string> }[] = SIZES.map((size) => ({ size, url: () => ensureSeeded(size) }));
  if (HISTORY_QUARTERS > 0) targets.push({ size: `1 M + ${HISTORY_QUARTERS} earlier quarters`, url: () => ensureHistory(HISTORY_QUARTERS) });
  for (const { size, url: seeded } of targets) {
    const url = await seeded();
    await withRates(url);
    const adminKey = 'bench-admin-key-0123456789abcdef0123456789';
    const service = await startServiceProcess({ DATABASE_URL: url, ADMIN_API_KEY: adminKey });
    const base = service.base;
    const get = async (path: string) => {
      const t0 = performance.now();
      const res = await fetch(base + path, { headers: { Authorization: `Bearer ${adminKey}` } });
      const body = await res.text();
      if (!res.ok) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
      return { ms: performance.now() - t0, bytes: body.length };
    };
    for (const [name, path] of [
      ['quarterly statement', '/v1/reports/quarterly?year=2026&quarter=3'],
      ['win-loss groupBy=table,gamingDay', '/v1/reports/win-loss?from=2026-07-01&to=2026-09-30&groupBy=table,gamingDay'],
      ['the same in USD', '/v1/reports/win-loss?from=2026-07-01&to=2026-09-30&groupBy=table,gamingDay&currency=USD'],
      ['win-loss by property in USD', '/v1/reports/win-loss?from=2026-07-01&to=2026-09-30&groupBy=property&currency=USD'],
    ] as const) {
      for (let i = 0; i < 5; i++) await get(path);
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < RUNS; i++) {
        const r = await get(path);
        times.push(r.ms);
        bytes = r.bytes;
      }
      const s = summarize(times);
      results.push({ size, report: name, ...s, bytes });
      console.log(
        `${typeof size === 'number' ? `${String(size).padStart(9)} wagers` : size}  ${name.padEnd(34)} median ${s.median.toFixed(1).padStart(6)} ms  p95 ${s.p95.toFixed(1).padStart(6)} ms  ${(bytes / 1e6).toFixed(2)} MB`,
      );
    }
    await service.stop();
  }
  console.log(`written ${writeJson('reports', { when: new Date().toISOString(), machine: machine(), results })}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
