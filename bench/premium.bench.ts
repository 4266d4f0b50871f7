/**
 * npm run bench:premium — the premium floor's reports at a quarter's scale, each beside the report
 * of today it stands next to, in the same run on the same database (SIZE wagers, default
 * 10,000,000; seed-quarter with rated play: 5,000 patrons and 4 whales who play dead chips at the
 * premium tables, whose minimum is raised mid-quarter). Through the HTTP API of a service process,
 * alternating, RUNS timed reads of each after warm-ups:
 * - by limit level (GET /v1/reports/limit-levels) beside win/loss by table and gaming day
 *   (GET /v1/reports/win-loss?groupBy=table,gamingDay), the quarter;
 * - the heaviest whale's rolling account (GET /v1/patrons/{card}/rolling) beside their rating
 *   (GET /v1/patrons/{card}/rating), the quarter;
 * - the junket's statement of the quarter's first month (GET /v1/junkets/{id}/statement) beside
 *   win/loss by table and gaming day of that month.
 * The database (sabot_bench_premium_<size>) is seeded once and kept. Writes bench/results/premium.json.
 *
 * SERVICE_DIRS: checkouts whose builds serve the reads, comma-separated (default: this one), each a
 * service process of its own on the same database (migrated by this checkout: a build of an earlier
 * commit ignores migrations it does not know), their reads alternating in the same rounds, so that
 * two builds are compared side by side on one machine at one moment.
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { keptRatedQuarter } from './bench-db';
import { seedJunkets } from './seed-junkets';
import { benchStaffKeys, startServiceProcess } from './service-process';
import { machine, summarize, writeJson } from './stats';

const SIZE = Number(process.env.SIZE ?? 10_000_000);
const RUNS = Number(process.env.RUNS ?? 20);
const Q = { from: '2026-07-01', to: '2026-09-30' };
const MONTH = '2026-07-31';
const DIRS = (process.env.SERVICE_DIRS ?? process.cwd()).split(',').filter(Boolean);

async function main() {
  const url = await keptRatedQuarter('premium', SIZE, 5_000);
  const db = new Client({ connectionString: url });
  await db.connect();
  const [whale] = (
    await db.query<{ card: string; n: string }>(
      "SELECT patron_id AS card, count(*) AS n FROM wagers WHERE patron_id LIKE 'W-%' AND dead_chips GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1",
    )
  ).rows;
  const { rows: total } = await db.query<{ n: string }>('SELECT count(*) AS n FROM wagers');
  // A quarter kept from before the junkets were seeded gets its junket now.
  await seedJunkets(db, { firstDay: Q.from, days: 92 });
  const [junket] = (await db.query<{ id: string }>("SELECT id FROM junket_operators WHERE code = 'GOLDEN-DRAGON'")).rows;
  await db.end();
  if (!whale) throw new Error('no whale played dead chips in the seeded quarter');
  const adminKey = 'bench-admin-key-0123456789abcdef0123456789';
  const services: { dir: string; base: string; stop(): Promise<void> }[] = [];
  try {
    for (const dir of DIRS) services.push({ dir, ...(await startServiceProcess({ DATABASE_URL: url, ADMIN_API_KEY: adminKey, SURVEILLANCE: 'off' }, dir)) });
    const { FINANCE: finance, HOST: host } = await benchStaffKeys(services[0].base, adminKey, url, 'premium', ['FINANCE', 'HOST']);
    const pairs = [
      {
        name: 'a quarter by limit level, beside win/loss by table and gaming day',
        today: { key: finance, path: `/v1/reports/win-loss?from=${Q.from}&to=${Q.to}&groupBy=table,gamingDay` },
        premium: { key: finance, path: `/v1/reports/limit-levels?from=${Q.from}&to=${Q.to}` },
      },
      {
        name: "the heaviest whale's quarter: rolling account, beside their rating",
        today: { key: host, path: `/v1/patrons/${whale.card}/rating?from=${Q.from}&to=${Q.to}` },
        premium: { key: host, path: `/v1/patrons/${whale.card}/rolling?from=${Q.from}&to=${Q.to}` },
      },
      {
        name: "a junket's month: its statement, beside win/loss by table and gaming day",
        today: { key: finance, path: `/v1/reports/win-loss?from=${Q.from}&to=${MONTH}&groupBy=table,gamingDay` },
        premium: { key: finance, path: `/v1/junkets/${junket.id}/statement?from=${Q.from}&to=${MONTH}` },
      },
    ];
    const read = async (base: string, r: { key: string; path: string }) => {
      const t0 = performance.now();
      const res = await fetch(base + r.path, { headers: { Authorization: `Bearer ${r.key}` } });
      const body = await res.text();
      if (!res.ok) throw new Error(`${r.path}: ${res.status} ${body.slice(0, 200)}`);
      return performance.now() - t0;
    };
    const results = [];
    for (const p of pairs) {
      for (let i = 0; i < 3; i++) {
        for (const s of services) {
          await read(s.base, p.today);
          await read(s.base, p.premium);
        }
      }
      const today = services.map((): number[] => []);
      const premium = services.map((): number[] => []);
      for (let i = 0; i < RUNS; i++) {
        for (const [j, s] of services.entries()) {
          today[j].push(await read(s.base, p.today));
          premium[j].push(await read(s.base, p.premium));
        }
      }
      for (const [j, s] of services.entries()) {
        const [t, n] = [summarize(today[j]), summarize(premium[j])];
        results.push({
          name: p.name,
          dir: s.dir,
          today: { path: p.today.path, ...t },
          premium: { path: p.premium.path, ...n },
          ratioOfMedians: n.median / t.median,
        });
        console.log(
          `${p.name} [${s.dir}]: new median ${n.median.toFixed(1)} ms (p95 ${n.p95.toFixed(1)}), today's ${t.median.toFixed(1)} ms (p95 ${t.p95.toFixed(1)}): ${(n.median / t.median).toFixed(2)}×`,
        );
      }
    }
    console.log(`(${Number(total[0].n)} wagers in the database; the whale ${whale.card}: ${whale.n} dead-chip wagers)`);
    console.log(`written ${writeJson('premium', { when: new Date().toISOString(), machine: machine(), wagers: Number(total[0].n), results })}`);
  } finally {
    for (const s of services) await s.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
