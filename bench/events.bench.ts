/**
 * npm run bench:events — coup committed → event at a subscriber. The service runs as its own
 * process with NATS_URL (the machine's NATS JetStream, or BENCH_NATS_URL), TABLES terminals record
 * RATE coups a second in all for RATE_SECONDS, and a JetStream consumer on the stream's table
 * subjects notes when each coup's event arrives. The latency of a coup is the event's arrival less
 * the moment its 201 answer came back (the commit happened before the answer left, so this slightly
 * understates it by the answer's loopback trip). Prints median, p95, p99, max; writes
 * bench/results/events.json.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { connect, JsMsg } from 'nats';
import { dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../src/domain';
import type { SabotEvent } from '../src/events/event';
import { benchDatabase } from './bench-db';
import { startServiceProcess } from './service-process';
import { machine, summarize, writeJson } from './stats';

const NATS = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
const TABLES = Number(process.env.TABLES ?? 20);
const RATE = Number(process.env.RATE ?? 100);
const RATE_SECONDS = Number(process.env.RATE_SECONDS ?? 15);
const ADMIN = 'bench-admin-key-0123456789abcdef0123456789';
const STREAM = `BENCH_${Date.now().toString(36).toUpperCase()}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: TABLES * 2 });

function post(base: string, key: string, p: string, body: unknown): Promise<{ status: number; body: Record<string, string> }> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      base + p,
      { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data), Authorization: `Bearer ${key}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, string> }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function main() {
  const db = await benchDatabase('events');
  const service = await startServiceProcess({ DATABASE_URL: db.url, ADMIN_API_KEY: ADMIN, NATS_URL: NATS, EVENTS_STREAM: STREAM });
  const nc = await connect({ servers: NATS });
  try {
    const tables = [];
    for (let i = 0; i < TABLES; i++) {
      const table = (await post(service.base, ADMIN, '/v1/tables', { code: `EV-${i}`, variant: 'EZ', currency: 'EUR', minBet: 100, maxBet: 1_000_000 })).body;
      const key = (await post(service.base, ADMIN, '/v1/api-keys', { name: `terminal ${i}`, role: 'TERMINAL', tableId: table.id })).body.key;
      const shoe = (await post(service.base, key, `/v1/tables/${table.id}/shoes`, {})).body;
      tables.push({ id: table.id, key, shoeId: shoe.id, cards: shuffledShoe(8, seededRandom(500 + i)), pos: 0 });
    }
    // The relay creates the stream with the first change; wait for it, then follow it from now on.
    const jsm = await nc.jetstreamManager();
    for (let i = 0; i < 100; i++) {
      if (
        await jsm.streams.info(STREAM).then(
          () => true,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const arrived = new Map<string, number>();
    // A plain NATS subscription too (what the service's live feeds use): it gets each message as the
    // server stores it, without a consumer's pull in between.
    const direct = new Map<string, number>();
    const sub = nc.subscribe(`${STREAM.toLowerCase()}.table.*.coup.settle`, {
      callback: (err, m) => {
        if (err) return;
        const e = m.json<SabotEvent>();
        direct.set(`${e.stream}:${(e.data as { number: number }).number}`, performance.now());
      },
    });
    const consumer = await nc.jetstream().consumers.get(STREAM, { filterSubjects: `${STREAM.toLowerCase()}.table.*.coup.settle` });
    const messages = await consumer.consume();
    void (async () => {
      for await (const m of messages as AsyncIterable<JsMsg>) {
        const e = m.json<SabotEvent>();
        arrived.set(`${e.stream}:${(e.data as { number: number }).number}`, performance.now());
      }
    })();

    const answered = new Map<string, number>();
    const coupLatencies: number[] = [];
    const pending: Promise<void>[] = [];
    const start = performance.now();
    for (let i = 0; i < RATE * RATE_SECONDS; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const t = tables[i % tables.length];
      const d = dealPuntoBanco(t.cards, t.pos);
      if (!d) break;
      t.pos += d.used;
      const body = { cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) }, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] };
      const sent = performance.now();
      pending.push(
        post(service.base, t.key, `/v1/shoes/${t.shoeId}/coups`, body).then((r) => {
          if (r.status !== 201) throw new Error(`coup: ${r.status} ${JSON.stringify(r.body)}`);
          answered.set(`${t.id}:${r.body.number}`, performance.now());
          coupLatencies.push(performance.now() - sent);
        }),
      );
    }
    await Promise.all(pending);
    // Every coup's event, or give up after 10 s.
    for (let i = 0; i < 100 && [...answered.keys()].some((k) => !arrived.has(k)); i++) await new Promise((r) => setTimeout(r, 100));
    const latenciesOf = (at: Map<string, number>) => {
      const latencies: number[] = [];
      let missing = 0;
      let early = 0;
      for (const [k, answeredAt] of answered) {
        const got = at.get(k);
        if (got === undefined) missing++;
        else {
          if (got < answeredAt) early++;
          latencies.push(Math.max(0, got - answeredAt));
        }
      }
      return { latencies, missing, early };
    };
    const { latencies, missing, early } = latenciesOf(arrived);
    const s = summarize(latencies);
    const core = latenciesOf(direct);
    const c = summarize(core.latencies);
    console.log(`\nbench:events — ${answered.size} coups at ${RATE}/s over ${TABLES} tables, NATS ${NATS}`);
    console.log(
      `coup answered → event at a subscriber: median ${s.median.toFixed(1)} p95 ${s.p95.toFixed(1)} p99 ${s.p99.toFixed(1)} max ${s.max.toFixed(1)} ms`,
    );
    console.log(`events missing: ${missing}; arrived before the answer was read: ${early}`);
    const q = summarize(coupLatencies);
    console.log(
      `the coups themselves (sent → answered): median ${q.median.toFixed(1)} p95 ${q.p95.toFixed(1)} p99 ${q.p99.toFixed(1)} max ${q.max.toFixed(1)} ms`,
    );
    console.log(
      `the same at a plain NATS subscription: median ${c.median.toFixed(1)} p95 ${c.p95.toFixed(1)} p99 ${c.p99.toFixed(1)} max ${c.max.toFixed(1)} ms; missing ${core.missing}`,
    );
    console.log(
      `written ${writeJson('events', { machine: machine(), rate: RATE, seconds: RATE_SECONDS, tables: TABLES, coups: answered.size, missing, early, latencyMs: s, subscriptionLatencyMs: c, coupLatencyMs: q })}`,
    );
    sub.unsubscribe();
    await messages.close();
    await jsm.streams.delete(STREAM).catch(() => undefined);
  } finally {
    await nc.close();
    await service.stop();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
