/**
 * npm run bench:yield — the yield advisor at a quarter's scale (SIZE wagers, default 1,000,000;
 * seed-quarter: 200 tables, 2026 Q3, every fourth table's minimum raised from 25.00 to 50.00 on the
 * quarter's 46th day): through the HTTP API of a service process, alternating, RUNS timed reads after
 * warm-ups of the quarter's advice (GET /v1/reports/yield-advice) beside the two reports it stands
 * next to, by limit level (the same rollups) and game pace (the same coups' times); then the held-back
 * test of the quarter (GET /v1/reports/yield-evaluation, the last HOLD_BACK weeks held back, default
 * 4), its figures printed. The database (sabot_bench_yield_<size>) is seeded once and kept. Writes
 * bench/results/yield.json.
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { migrate } from '../src/platform/database/migrate';
import { withClient } from './bench-db';
import { seedQuarter } from './seed-quarter';
import { benchStaffKeys, startServiceProcess } from './service-process';
import { machine, summarize, writeJson } from './stats';

const SIZE = Number(process.env.SIZE ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 10);
const HOLD_BACK = Number(process.env.HOLD_BACK ?? 4);
const Q = { from: '2026-07-01', to: '2026-09-30' };

/** The quarter kept between runs: seeded unless the database already holds its coups. */
async function keptQuarter(size: number): Promise<string> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const db = `sabot_bench_yield_${size >= 1e6 ? `${size / 1e6}m` : size}`;
  const u = new URL(adminUrl);
  u.pathname = `/${db}`;
  const url = u.toString();
  await withClient(adminUrl, async (admin) => {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db])).rowCount === 1;
    const coups = exists
      ? await withClient(url, async (c) =>
          Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM coups').catch(() => ({ rows: [{ n: '0' }] }))).rows[0].n),
        )
      : 0;
    if (coups > 0) return;
    await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${db}"`);
    console.log(`Seeding ${db} with ${size} wagers…`);
    const r = await seedQuarter(url, { wagers: size, tables: 200, year: 2026, quarter: 3, maxMinutes: 40, progress: process.stdout.isTTY });
    console.log(`  ${r.wagers} wagers, ${r.coups} coups in ${r.seconds.toFixed(0)} s`);
  });
  await migrate(url);
  return url;
}

async function main() {
  const url = await keptQuarter(SIZE);
  const db = new Client({ connectionString: url });
  await db.connect();
  const [{ property }] = (
    await db.query<{ property: string }>('SELECT property_id::text AS property FROM casino_tables GROUP BY 1 ORDER BY count(*) DESC LIMIT 1')
  ).rows;
  const { rows: total } = await db.query<{ wagers: string; coups: string }>(
    'SELECT (SELECT count(*) FROM wagers) AS wagers, (SELECT count(*) FROM coups) AS coups',
  );
  await db.end();
  const adminKey = 'bench-admin-key-0123456789abcdef0123456789';
  const service = await startServiceProcess({ DATABASE_URL: url, ADMIN_API_KEY: adminKey, SURVEILLANCE: 'off' });
  try {
    const { FINANCE: finance } = await benchStaffKeys(service.base, adminKey, url, 'yield', ['FINANCE']);
    const advice = `/v1/reports/yield-advice?propertyId=${property}&from=${Q.from}&to=${Q.to}`;
    const pairs = [
      { name: "a quarter's yield advice, beside the quarter by limit level", today: `/v1/reports/limit-levels?from=${Q.from}&to=${Q.to}`, yield: advice },
      { name: "a quarter's yield advice, beside the quarter's game pace", today: `/v1/reports/pace?from=${Q.from}&to=${Q.to}`, yield: advice },
    ];
    const read = async (path: string) => {
      const t0 = performance.now();
      const res = await fetch(service.base + path, { headers: { Authorization: `Bearer ${finance}` } });
      const body = await res.text();
      if (!res.ok) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
      return { ms: performance.now() - t0, body };
    };
    const results = [];
    for (const p of pairs) {
      for (let i = 0; i < 2; i++) {
        await read(p.today);
        await read(p.yield);
      }
      const today: number[] = [];
      const ours: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        today.push((await read(p.today)).ms);
        ours.push((await read(p.yield)).ms);
      }
      const [t, n] = [summarize(today), summarize(ours)];
      results.push({ name: p.name, today: { path: p.today, ...t }, yield: { path: p.yield, ...n }, ratioOfMedians: n.median / t.median });
      console.log(
        `${p.name}: yield median ${n.median.toFixed(1)} ms (p95 ${n.p95.toFixed(1)}), beside it ${t.median.toFixed(1)} ms (p95 ${t.p95.toFixed(1)}): ${(n.median / t.median).toFixed(2)}×`,
      );
    }
    const held = await read(`/v1/reports/yield-evaluation?propertyId=${property}&from=${Q.from}&to=${Q.to}&holdBackWeeks=${HOLD_BACK}`);
    const e = JSON.parse(held.body) as {
      trainFrom: string;
      trainTo: string;
      heldFrom: string;
      heldTo: string;
      advised: { theo: number; low: number | null; high: number | null };
      actual: number;
      modelOfDone: number;
      gain: { theo: number; low: number | null; high: number | null };
      advice: { levels: unknown[]; totals: unknown; hours: { hourOfWeek: number; advice: unknown[]; done: unknown[] }[] };
    };
    const busy = e.advice.hours.filter((h) => h.advice.length || h.done.length);
    const evaluation = {
      ms: held.ms,
      train: [e.trainFrom, e.trainTo],
      held: [e.heldFrom, e.heldTo],
      advised: e.advised,
      actual: e.actual,
      modelOfDone: e.modelOfDone,
      gain: e.gain,
      levels: e.advice.levels,
      busyHours: busy.map((h) => ({ hourOfWeek: h.hourOfWeek, advice: h.advice, done: h.done })).slice(0, 3),
    };
    console.log(`held-back test (${held.ms.toFixed(0)} ms): ${JSON.stringify(evaluation, null, 1)}`);
    console.log(`(${Number(total[0].wagers)} wagers, ${Number(total[0].coups)} coups in the database)`);
    console.log(
      `written ${writeJson('yield', { when: new Date().toISOString(), machine: machine(), wagers: Number(total[0].wagers), coups: Number(total[0].coups), results, evaluation })}`,
    );
  } finally {
    await service.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
