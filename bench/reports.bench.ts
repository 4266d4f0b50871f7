import fs from 'node:fs';
/**
 * npm run bench:reports — finance's reports of one quarter, through the HTTP API, as the records
 * behind them grow: SIZES wagers (default 1 M, 10 M and 100 M) stored a quarter after another at
 * QUARTER_WAGERS a quarter (default 1 M: 200 tables × 92 days, 7 coups of 8 wagers a table-day),
 * the measured quarter (2026 Q3) the last of them. 1 M is that quarter alone; 10 M is two and a
 * half years of monthly partitions; 100 M is twenty-five years of them, 300 months. Rows of one
 * quarter stay the same while the years behind them grow a hundredfold.
 *
 * Each size lives in its own database (sabot_bench_years_<size>) on BENCH_DATABASE_URL's server,
 * seeded once and reused while it holds that many wagers: the quarter by seed-quarter (coups dealt
 * from real shuffled shoes, settled by the engine, written with COPY), then the earlier quarters by
 * seed-years (the quarter copied back by the database). The service runs as its own process, as
 * `npm start` runs it.
 *
 * Timed, 30 requests after 5 warm-up ones (the reconciliations 5 after 1):
 * - the quarterly statement, and win/loss grouped by table × gaming day (finance's two statements);
 * - the same table × day report, and the group's statement by property, in USD at a daily rate;
 * - the pace report of the quarter (dealers rotating every 20 minutes, tables closed after each day's play);
 * - the reconciliation of one gaming day and of one month (2026-08): the raw ledgers read again
 *   and checked against the rollups — the path that the partitions' pruning serves. A
 *   reconciliation that finds a difference stops the bench: the seed must be exact.
 * And the database's bytes per wager at each size.
 *
 * BASELINE=<a built checkout of another commit> answers the same questions on the same rows for
 * BASELINE_SIZES (default 10 M): its own migrations build a database, the rows are poured in
 * (port-database), and its own service answers, one build after the other in one run.
 * Writes bench/results/reports.json.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { migrate } from '../src/platform/database/migrate';
import { withClient } from './bench-db';
import { portDatabase } from './port-database';
import { seedQuarter } from './seed-quarter';
import { addEarlierQuarters } from './seed-years';
import { startServiceProcess } from './service-process';
import { machine, summarize, writeJson } from './stats';

const SIZES = (process.env.SIZES ?? '1000000,10000000,100000000').split(',').map(Number);
const QUARTER_WAGERS = Number(process.env.QUARTER_WAGERS ?? 1_000_000);
const BASELINE = process.env.BASELINE;
const BASELINE_SIZES = (process.env.BASELINE_SIZES ?? '10000000').split(',').map(Number);
const RUNS = 30;
const RECONCILE_RUNS = 5;
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const QUARTER = { year: 2026, quarter: 3, from: '2026-07-01', to: '2026-09-30' };
/** How many quarters of QUARTER_WAGERS make `size`. */
const quartersOf = (size: number) => Math.max(1, Math.round(size / QUARTER_WAGERS));

const label = (size: number) => (size >= 1e6 ? `${size / 1e6}m` : String(size));
const urlOf = (name: string) => Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();

const admin = <T>(fn: (c: Client) => Promise<T>, url = adminUrl) => withClient(url, fn);

/** Whether the database holds `size` wagers (by its rollups) reaching back `quarters` quarters. */
async function holds(name: string, size: number): Promise<boolean> {
  const exists = await admin(async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
  if (!exists) return false;
  return admin(async (c) => {
    const r = await c
      .query<{ wagers: string; first: string }>(
        `SELECT coalesce(sum(wagers), 0) AS wagers, to_char(min(gaming_day), 'YYYY-MM-DD') AS first FROM table_day_rollups`,
      )
      .catch(() => null);
    if (!r) return false;
    const earliest = new Date(`${QUARTER.from}T00:00:00Z`);
    earliest.setUTCDate(earliest.getUTCDate() - 92 * (quartersOf(size) - 1));
    return Number(r.rows[0].wagers) >= size * 0.95 && r.rows[0].first <= earliest.toISOString().slice(0, 10);
  }, urlOf(name));
}

async function recreate(name: string) {
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
  });
}

async function ensureSeeded(size: number): Promise<string> {
  const name = `sabot_bench_years_${label(size)}`;
  const url = urlOf(name);
  if (!(await holds(name, size))) {
    await recreate(name);
    const quarters = quartersOf(size);
    const perQuarter = Math.round(size / quarters);
    console.log(`Seeding ${name}: ${perQuarter} wagers in ${QUARTER.year} Q${QUARTER.quarter}, then ${quarters - 1} quarters before it…`);
    const q = await seedQuarter(url, {
      wagers: perQuarter,
      tables: 200,
      year: QUARTER.year,
      quarter: QUARTER.quarter,
      maxMinutes: 60,
      progress: process.stdout.isTTY,
    });
    console.log(`  the quarter: ${q.wagers} wagers, ${q.coups} coups in ${q.seconds.toFixed(0)} s (COPY)`);
    if (quarters > 1) {
      const y = await addEarlierQuarters(url, { from: QUARTER.from, to: QUARTER.to, quarters: quarters - 1, progress: process.stdout.isTTY });
      console.log(`  ${quarters - 1} earlier quarters: ${y.wagers} wagers in ${y.seconds.toFixed(0)} s (INSERT … SELECT)`);
    }
    await withRates(url);
  }
  await migrate(url); // a reused database gets any migration added since it was seeded
  await vacuum(url);
  return url;
}

/**
 * VACUUM (ANALYZE) before measuring, as an operator does after a bulk load: otherwise autovacuum
 * comes to the freshly written tables during the measurement and takes the machine's cores.
 * Quick on a database vacuumed before (its pages are all-visible).
 */
async function vacuum(url: string): Promise<void> {
  await admin((c) => c.query('VACUUM (ANALYZE)'), url);
}

/** The migration CLI a checkout's `npm run db:migrate` runs (its path is the checkout's layout's: dist/src/server/… since the wings). */
function migrateScript(dir: string): string {
  const script = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['db:migrate'];
  const m = /node (dist\/src\/\S*migrate\.cli\.js)/.exec(script);
  if (!m) throw new Error(`${dir}: package.json's db:migrate does not run dist/src/…/migrate.cli.js: ${script}`);
  return m[1];
}

/** The same rows in a database built by the baseline's own migrations. */
async function ensureBaseline(size: number, source: string, dir: string, commit: string): Promise<string> {
  const name = `sabot_bench_years_${label(size)}_at_${commit}`;
  const url = urlOf(name);
  if (await holds(name, size)) {
    await vacuum(url);
    return url;
  }
  await recreate(name);
  execFileSync(process.execPath, [path.join(dir, migrateScript(dir))], {
    cwd: dir,
    env: { ...process.env, DATABASE_URL: url },
    stdio: 'ignore',
  });
  console.log(`Pouring ${new URL(source).pathname.slice(1)} into ${name} (${commit}'s own schema)…`);
  await portDatabase(source, url, console.log);
  await vacuum(url);
  return url;
}

/** A USD rate for each table currency on every day of the seeded years (once). */
async function withRates(url: string): Promise<void> {
  await admin(
    (c) =>
      c.query(`
    INSERT INTO exchange_rates (rate_day, currency, into_currency, rate_e9, entered_by_key_id)
    SELECT d::date, t.currency, 'USD', 1084200000 + (extract(doy FROM d)::int * 137) % 20000000, 'bench'
    FROM generate_series((SELECT min(gaming_day) FROM table_day_rollups), '${QUARTER.to}'::date, interval '1 day') d,
         (SELECT DISTINCT currency FROM casino_tables WHERE currency <> 'USD') t
    WHERE NOT EXISTS (SELECT 1 FROM exchange_rates WHERE entered_by_key_id = 'bench')`),
    url,
  );
}

async function bytesPerWager(url: string): Promise<number> {
  return admin(async (c) => {
    const { rows } = await c.query<{ b: string }>(`SELECT pg_database_size(current_database())::numeric / (SELECT sum(wagers) FROM table_day_rollups) AS b`);
    return Number(rows[0].b);
  }, url);
}

const REPORTS = [
  ['quarterly statement', `/v1/reports/quarterly?year=${QUARTER.year}&quarter=${QUARTER.quarter}`, RUNS],
  ['win-loss groupBy=table,gamingDay', `/v1/reports/win-loss?from=${QUARTER.from}&to=${QUARTER.to}&groupBy=table,gamingDay`, RUNS],
  ['the same in USD', `/v1/reports/win-loss?from=${QUARTER.from}&to=${QUARTER.to}&groupBy=table,gamingDay&currency=USD`, RUNS],
  ['win-loss by property in USD', `/v1/reports/win-loss?from=${QUARTER.from}&to=${QUARTER.to}&groupBy=property&currency=USD`, RUNS],
  ['pace, the quarter', `/v1/reports/pace?from=${QUARTER.from}&to=${QUARTER.to}`, RUNS],
  ['reconciliation of a gaming day', '/v1/reports/reconciliation?from=2026-08-14&to=2026-08-14', RECONCILE_RUNS],
  ['reconciliation of a month', '/v1/reports/reconciliation?from=2026-08-01&to=2026-08-31', RECONCILE_RUNS],
] as const;

async function measure(size: number, build: string, url: string, dir: string, results: Record<string, unknown>[]) {
  const adminKey = 'bench-admin-key-0123456789abcdef0123456789';
  const service = await startServiceProcess({ DATABASE_URL: url, ADMIN_API_KEY: adminKey }, dir);
  const bytes = await bytesPerWager(url);
  console.log(`${label(size).padStart(5)} wagers in ${quartersOf(size)} quarters, ${build}: ${bytes.toFixed(1)} bytes a wager in the database`);
  results.push({ size, build, report: 'bytes per wager', value: bytes });
  try {
    for (const [name, p, runs] of REPORTS) {
      const get = async () => {
        const t0 = performance.now();
        const res = await fetch(service.base + p, { headers: { Authorization: `Bearer ${adminKey}` } });
        const body = await res.text();
        if (!res.ok) throw new Error(`${p}: ${res.status} ${body.slice(0, 200)}`);
        if (p.includes('reconciliation') && !(JSON.parse(body) as { ok: boolean }).ok) throw new Error(`${p} found differences: the seed is not exact`);
        return { ms: performance.now() - t0, bytes: body.length };
      };
      for (let i = 0; i < (runs === RUNS ? 5 : 1); i++) await get();
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < runs; i++) {
        const r = await get();
        times.push(r.ms);
        bytes = r.bytes;
      }
      const s = summarize(times);
      results.push({ size, build, report: name, ...s, bytes });
      console.log(
        `${label(size).padStart(5)}  ${build.padEnd(9)}  ${name.padEnd(34)} median ${s.median.toFixed(1).padStart(7)} ms  p95 ${s.p95.toFixed(1).padStart(7)} ms  ${(bytes / 1e6).toFixed(2)} MB`,
      );
    }
  } finally {
    await service.stop();
  }
}

async function main() {
  const results: Record<string, unknown>[] = [];
  const baselineCommit = BASELINE ? execFileSync('git', ['-C', BASELINE, 'rev-parse', '--short', 'HEAD']).toString().trim() : null;
  for (const size of SIZES) {
    const url = await ensureSeeded(size);
    if (BASELINE && baselineCommit && BASELINE_SIZES.includes(size)) {
      const baseline = await ensureBaseline(size, url, BASELINE, baselineCommit);
      await measure(size, baselineCommit, baseline, BASELINE, results);
    }
    await measure(size, 'this', url, process.cwd(), results);
  }
  console.log(`written ${writeJson('reports', { when: new Date().toISOString(), machine: machine(), quarterWagers: QUARTER_WAGERS, results })}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
