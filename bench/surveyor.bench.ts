/**
 * npm run bench:surveyor — what integrity surveillance costs, measured on the surveyor alone.
 *
 *  1. the service (dist/src/server/main.js) on a fresh database with SURVEILLANCE=off records a backlog:
 *     TABLES EZ tables (Dragon 7, Panda 8), each with SEATS rated patrons betting main and side bets,
 *     SHOES shoes each dealt to the cut card from real shuffled shoes and closed;
 *  2. a surveyor of its own (SURVEILLANCE=only, SURVEILLANCE_SHARE=1: no rest between passes, as
 *     when it is behind) is started on that backlog; the run ends when every coup is surveyed and the
 *     cursors have reached the end of the log.
 * Prints the surveyor's CPU per coup (its process's user + system time, from /proc: steady on a
 * shared machine) and its capacity (coups surveyed a second of wall time, the patrons' records at
 * every shoe close included), and the alerts raised (honest play: none expected). Writes
 * bench/results/surveyor.json.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { newAuditKeyText } from '../src/platform/config/keyring';
import { dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../src/domain';
import { benchDatabase } from './bench-db';
import { benchHost, jsonPoster, processCpuMs, startServiceProcess } from './service-process';
import { machine, writeJson } from './stats';

const TABLES = Number(process.env.TABLES ?? 6);
const SHOES = Number(process.env.SHOES ?? 3);
const SEATS = Number(process.env.SEATS ?? 7);
const ADMIN = 'bench-admin-key-0123456789abcdef0123456789';
const AUDIT_KEYS = newAuditKeyText('bench');
const httpPost = jsonPoster(8);

async function main() {
  const db = await benchDatabase('surveyor');
  const env = { DATABASE_URL: db.url, ADMIN_API_KEY: ADMIN, AUDIT_KEYS };
  const service = await startServiceProcess({ ...env, SURVEILLANCE: 'off' });
  const pool = new Pool({ connectionString: db.url, max: 1 });
  let coups = 0;
  try {
    const post = async (key: string, p: string, body: unknown) => {
      const res = await httpPost(service.base + p, key, body);
      if (res.status >= 400) throw new Error(`${p}: ${res.status} ${JSON.stringify(res.body)}`);
      return res;
    };
    // The staff register as a casino sets it up, for the host who registers the patrons.
    const host = await benchHost(post, ADMIN, 'S');

    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: TABLES }, async (_, i) => {
        const table = (
          await post(ADMIN, '/v1/tables', {
            code: `S-${i}`,
            variant: 'EZ',
            currency: 'MOP',
            minBet: 100,
            maxBet: 10_000_000,
            sideBets: ['DRAGON_7', 'PANDA_8'],
          })
        ).body;
        const key = (await post(ADMIN, '/v1/api-keys', { name: `terminal ${i}`, role: 'TERMINAL', tableId: table.id })).body.key;
        for (let seat = 1; seat <= SEATS; seat++) await post(host, '/v1/patrons', { card: `S-${i}-${seat}` });
        const random = seededRandom(4000 + i);
        for (let s = 0; s < SHOES; s++) {
          const shoe = (await post(key, `/v1/tables/${table.id}/shoes`, {})).body;
          const cards = shuffledShoe(8, random);
          for (let pos = 0; pos < 400;) {
            const d = dealPuntoBanco(cards, pos);
            if (!d) break;
            pos += d.used;
            const wagers = [];
            for (let seat = 1; seat <= SEATS; seat++) {
              const patronId = `S-${i}-${seat}`;
              wagers.push({ seat, betType: random() < 0.5 ? 'BANKER' : 'PLAYER', amount: 100 * (10 + Math.floor(random() * 90)), patronId });
              if (random() < 0.15)
                wagers.push({ seat, betType: random() < 0.5 ? 'DRAGON_7' : 'PANDA_8', amount: 100 * (1 + Math.floor(random() * 20)), patronId });
            }
            await post(key, `/v1/shoes/${shoe.id}/coups`, { cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) }, wagers });
            coups++;
          }
          await post(key, `/v1/shoes/${shoe.id}/close`, {});
        }
      }),
    );
    console.log(
      `\nbench:surveyor — a backlog of ${coups} coups at ${TABLES} tables (${SHOES} shoes each, ${SEATS} rated patrons) recorded in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    await service.stop();

    // The surveyor on the backlog, alone.
    const nodeArgs = (process.env.SURVEYOR_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, path.join(process.cwd(), 'dist', 'src', 'server', 'main.js')], {
      env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'warn', SURVEILLANCE: 'only', SURVEILLANCE_SHARE: '1', SURVEILLANCE_POLL_MS: '20' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const pending = async () =>
      (
        await pool.query<{ coups: number; entries: number }>(
          `SELECT (SELECT count(*)::int FROM coups c WHERE c.status = 'SETTLED' AND NOT EXISTS (SELECT 1 FROM coup_surveillance s WHERE s.coup_id = c.id)) AS coups,
                  (SELECT coalesce(sum(h.seq - coalesce(c.seq, 0)), 0)::int FROM audit_heads h LEFT JOIN surveillance_cursors c ON c.stream = h.stream
                    WHERE h.stream NOT IN ('admin', 'surveillance')) AS entries`,
        )
      ).rows[0];
    let started: { at: number; cpu: number } | null = null;
    for (let i = 0; i < 6_000; i++) {
      const p = await pending();
      if (started === null && p.coups < coups) started = { at: performance.now(), cpu: processCpuMs(child.pid!) };
      if (p.coups === 0 && p.entries === 0) break;
      if (child.exitCode !== null) throw new Error('the surveyor stopped');
      await new Promise((r) => setTimeout(r, 50));
    }
    const wall = (performance.now() - started!.at) / 1000;
    const cpu = processCpuMs(child.pid!) - started!.cpu;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    const alerts = (await pool.query<{ kind: string; n: number }>(`SELECT kind, count(*)::int AS n FROM surveillance_alerts GROUP BY kind ORDER BY kind`)).rows;
    const result = {
      coups,
      shoes: TABLES * SHOES,
      patronShoes: TABLES * SHOES * SEATS,
      wallSeconds: wall,
      capacityCoupsPerSecond: coups / wall,
      cpuMsPerCoup: cpu / coups,
      alerts,
    };
    console.log(
      `surveyed in ${wall.toFixed(1)} s: ${result.capacityCoupsPerSecond.toFixed(0)} coups/s when behind; the surveyor's CPU ${result.cpuMsPerCoup.toFixed(2)} ms a coup (odds, run index, ${result.patronShoes} patron-shoes examined); alerts: ${alerts.length === 0 ? 'none' : JSON.stringify(alerts)}`,
    );
    console.log(`written ${writeJson('surveyor', { when: new Date().toISOString(), machine: machine(), settings: { TABLES, SHOES, SEATS }, ...result })}`);
  } finally {
    await pool.end();
    await service.stop();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
