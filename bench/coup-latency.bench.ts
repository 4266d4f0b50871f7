/**
 * npm run bench:coup — one pit terminal recording whole coups (8 wagers each, mixed main and side
 * bets, dealt from a real shuffled shoe) through the HTTP API, one after another. Reports the
 * median and p95 latency per coup and the database round trips each coup costs, counted at the
 * pg client (every statement, BEGIN and COMMIT included). Writes bench/results/coup-latency.json.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { adminKeyFor, createApp } from '../src/server/app';
import { loadConfig } from '../src/platform/config/config';
import { dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../src/domain';
import { benchDatabase } from './bench-db';
import { benchTerminal } from './service-process';
import { machine, summarize, writeJson } from './stats';

const COUPS = Number(process.env.COUPS ?? 400);

// Count every query the pg driver sends (Prisma's adapter and raw queries alike).
let statements = 0;
// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with .apply(this, …)
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements++;
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

async function main() {
  const db = await benchDatabase('coup');
  const adminKey = 'bench-admin-key-0123456789abcdef0123456789';
  const config = loadConfig({ DATABASE_URL: db.url, ADMIN_API_KEY: adminKey, LOG_LEVEL: 'error' });
  const app = await createApp(config, db.url, adminKeyFor(config));
  await app.listen(0, '127.0.0.1');
  const base = await app.getUrl();
  const call = async (key: string, path: string, body: unknown) => {
    const res = await fetch(base.replace('[::1]', '127.0.0.1') + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { id: string; key: string };
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const { tableId, key } = await benchTerminal(async (k, p, b) => ({ body: await call(k, p, b) }), adminKey, 'BENCH-1');
  const random = seededRandom(42);
  const bets = ['PLAYER', 'BANKER', 'BANKER', 'TIE', 'PLAYER_PAIR', 'BANKER_PAIR', 'DRAGON_7', 'PANDA_8'];

  const latencies: number[] = [];
  const roundTrips: number[] = [];
  let coups = 0;
  while (coups < COUPS) {
    const shoe = await call(key, `/v1/tables/${tableId}/shoes`, {});
    const cards = shuffledShoe(8, random);
    for (let pos = 0; coups < COUPS;) {
      const dealt = dealPuntoBanco(cards, pos);
      if (!dealt || pos > 400) break;
      pos += dealt.used;
      const body = {
        cards: { player: dealt.player.map(formatCard), banker: dealt.banker.map(formatCard) },
        wagers: bets.map((betType, i) => ({ seat: i + 1, betType, amount: 100 * (1 + Math.floor(random() * 50)) })),
      };
      const before = statements;
      const t0 = performance.now();
      await call(key, `/v1/shoes/${shoe.id}/coups`, body);
      latencies.push(performance.now() - t0);
      roundTrips.push(statements - before);
      coups++;
    }
    await call(key, `/v1/shoes/${shoe.id}/close`, {});
  }
  await app.close();
  await db.drop();

  const warm = latencies.slice(20); // the first coups include JIT warm-up and pool connects
  const lat = summarize(warm);
  const trips = summarize(roundTrips.slice(20));
  console.log(`\nWhole coup, 8 wagers, one terminal, sequential (${warm.length} coups after 20 warm-up)`);
  console.log(`latency ms: median ${lat.median.toFixed(2)}  p95 ${lat.p95.toFixed(2)}  p99 ${lat.p99.toFixed(2)}  max ${lat.max.toFixed(2)}`);
  console.log(`database round trips per coup: median ${trips.median}, min ${trips.min}, max ${trips.max} (BEGIN and COMMIT included)`);
  const file = writeJson('coup-latency', { when: new Date().toISOString(), machine: machine(), coups: warm.length, latencyMs: lat, roundTrips: trips });
  console.log(`written ${file}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
