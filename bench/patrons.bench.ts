/**
 * npm run bench:patrons — a patron's rated play over a year, through the HTTP API, with 10 M wagers
 * in the database (SIZE, default 10000000). The database (sabot_bench_patrons_<size>) is seeded once
 * by seed-quarter with rated play: 5,000 regular patrons and 4 whales, each seat of a table-day a
 * visit of one patron with probability 0.7 (a whale with probability 0.02), and reused while it
 * holds that many wagers. The service runs as its own process. For the heaviest patron and for a
 * patron of median play: median and p95 of 30 timed ratings of the year (the year and each day)
 * after 5 warm-ups, goal p95 ≤ 50 ms; and of the pages of their visits (100 a page), read
 * through to the last page 30 times, and the whole walk.
 * Writes bench/results/patrons.json.
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { keptRatedQuarter } from './bench-db';
import { benchStaffKeys, startServiceProcess } from './service-process';
import { machine, summarize, writeJson } from './stats';

const SIZE = Number(process.env.SIZE ?? 10_000_000);
const PATRONS = 5_000;
const RUNS = 30;

async function main() {
  const url = await keptRatedQuarter('patrons', SIZE, PATRONS);
  const db = new Client({ connectionString: url });
  await db.connect();
  const counts = (
    await db.query<{ patron_id: string; n: string }>(
      'SELECT patron_id, count(*) AS n FROM wagers WHERE patron_id IS NOT NULL GROUP BY patron_id ORDER BY count(*) DESC, patron_id',
    )
  ).rows.map((r) => ({ card: r.patron_id, wagers: Number(r.n) }));
  const { rows: total } = await db.query<{ n: string }>('SELECT count(*) AS n FROM wagers');
  await db.end();
  const subjects = [
    { who: 'the heaviest patron', ...counts[0] },
    { who: 'a patron of median play', ...counts[Math.floor(counts.length / 2)] },
  ];
  const adminKey = 'bench-admin-key-0123456789abcdef0123456789';
  const service = await startServiceProcess({ DATABASE_URL: url, ADMIN_API_KEY: adminKey, SURVEILLANCE: 'off' });
  try {
    // The staff register is kept with the seeded database (bench/service-process.ts benchStaffKeys).
    const { HOST: host } = await benchStaffKeys(service.base, adminKey, url, 'patrons', ['HOST']);
    const results: Record<string, unknown>[] = [];
    for (const s of subjects) {
      const path = `/v1/patrons/${s.card}/rating?from=2026-01-01&to=2026-12-31`;
      const get = async () => {
        const t0 = performance.now();
        const res = await fetch(service.base + path, { headers: { Authorization: `Bearer ${host}` } });
        const body = await res.text();
        if (!res.ok) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
        return { ms: performance.now() - t0, body };
      };
      for (let i = 0; i < 5; i++) await get();
      const times: number[] = [];
      let last = '';
      for (let i = 0; i < RUNS; i++) {
        const r = await get();
        times.push(r.ms);
        last = r.body;
      }
      const rating = JSON.parse(last) as { total: { coups: number; wagers: number }; visitCount: number };
      const st = summarize(times);
      // The visits, a page at a time, to the last page.
      const pageTimes: number[] = [];
      const walks: number[] = [];
      let visits = 0;
      for (let i = 0; i < RUNS + 5; i++) {
        const w0 = performance.now();
        let after: string | null = null;
        visits = 0;
        do {
          const t0 = performance.now();
          const res = await fetch(`${service.base}/v1/patrons/${s.card}/visits?from=2026-01-01&to=2026-12-31${after ? `&after=${after}` : ''}`, {
            headers: { Authorization: `Bearer ${host}` },
          });
          const page = JSON.parse(await res.text()) as { visits: unknown[]; next: string | null };
          if (!res.ok) throw new Error(`visits: ${res.status}`);
          if (i >= 5) pageTimes.push(performance.now() - t0);
          visits += page.visits.length;
          after = page.next;
        } while (after !== null);
        if (i >= 5) walks.push(performance.now() - w0);
      }
      if (visits !== rating.visitCount) throw new Error(`${visits} visits paged, the rating counts ${rating.visitCount}`);
      const pages = summarize(pageTimes);
      const walk = summarize(walks);
      results.push({ ...s, coups: rating.total.coups, visits, ...st, visitPage: pages, allVisits: walk });
      console.log(
        `${s.who.padEnd(24)} ${s.card}: ${s.wagers} wagers, ${rating.total.coups} coups, ${visits} visits — a year's rating median ${st.median.toFixed(1)} ms, p95 ${st.p95.toFixed(1)} ms; ` +
          `a page of visits median ${pages.median.toFixed(1)} ms, p95 ${pages.p95.toFixed(1)} ms; all ${Math.ceil(visits / 100)} pages ${walk.median.toFixed(1)} ms median`,
      );
    }
    console.log(`(${Number(total[0].n)} wagers in the database, ${counts.length} patrons with rated play)`);
    console.log(`written ${writeJson('patrons', { when: new Date().toISOString(), machine: machine(), wagers: Number(total[0].n), results })}`);
  } finally {
    await service.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
