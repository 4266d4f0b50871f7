/**
 * npm run bench:events — coup committed → event at a subscriber. The service runs as its own
 * process with NATS_URL (the machine's NATS JetStream, or BENCH_NATS_URL), TABLES terminals record
 * RATE coups a second in all for RATE_SECONDS, and a subscriber in a third process (its own event
 * loop, so the load generator's HTTP work never delays a message's arrival) notes when each coup's
 * event arrives, both at a JetStream consumer and at a plain subscription. The latency of a coup is
 * the event's arrival less the moment its 201 answer came back, both on the machine's clock
 * (performance.timeOrigin + now); the commit happened before the answer left, so this slightly
 * understates it by the answer's loopback trip. Prints median, p95, p99, max; writes
 * bench/results/events.json.
 */
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { connect, JsMsg } from 'nats';
import { dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../src/domain';
import type { SabotEvent } from '../src/operations/events/event';
import { benchDatabase } from './bench-db';
import { jsonPoster, startServiceProcess } from './service-process';
import { machine, summarize, writeJson } from './stats';

const NATS = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
const TABLES = Number(process.env.TABLES ?? 20);
const RATE = Number(process.env.RATE ?? 100);
const RATE_SECONDS = Number(process.env.RATE_SECONDS ?? 15);
const ADMIN = 'bench-admin-key-0123456789abcdef0123456789';
const STREAM = `BENCH_${Date.now().toString(36).toUpperCase()}`;
const httpPost = jsonPoster(TABLES * 2);
const post = (base: string, key: string, p: string, body: unknown) => httpPost(base + p, key, body);
/** Now on the machine's clock, in ms, comparable between processes. */
const clock = () => performance.timeOrigin + performance.now();

interface BenchTable {
  id: string;
  key: string;
  shoeId: string;
  cards: number[];
  pos: number;
  random: () => number;
}

type Arrivals = { jetstream: [string, number][]; core: [string, number][] };

/**
 * The subscriber process: a JetStream consumer and a plain subscription on the stream's coup
 * subjects; says 'ready' once both are listening, and sends what arrived when asked.
 */
async function subscriber(stream: string) {
  const nc = await connect({ servers: NATS });
  const subject = `${stream.toLowerCase()}.table.*.coup.settle`;
  const keyOf = (e: SabotEvent) => `${e.stream}:${(e.data as { number: number }).number}`;
  const jetstream = new Map<string, number>();
  const core = new Map<string, number>();
  // A plain NATS subscription (what the service's live feeds use): each message as the server
  // stores it, without a consumer's pull in between.
  const sub = nc.subscribe(subject, { callback: (err, m) => err || core.set(keyOf(m.json<SabotEvent>()), clock()) });
  const consumer = await nc.jetstream().consumers.get(stream, { filterSubjects: subject });
  const messages = await consumer.consume();
  void (async () => {
    for await (const m of messages as AsyncIterable<JsMsg>) jetstream.set(keyOf(m.json<SabotEvent>()), clock());
  })();
  process.on('message', (msg: { expected: string[] }) => {
    void (async () => {
      // Every expected event, or give up after 10 s.
      for (let i = 0; i < 100 && msg.expected.some((k) => !jetstream.has(k) || !core.has(k)); i++) await new Promise((r) => setTimeout(r, 100));
      const arrivals: Arrivals = { jetstream: [...jetstream], core: [...core] };
      sub.unsubscribe();
      await messages.close();
      await nc.close();
      process.send!(arrivals, () => process.exit(0));
    })();
  });
  process.send!('ready');
}

/** Starts the subscriber process on the stream and waits until it listens. */
async function startSubscriber(stream: string) {
  const child = fork(__filename, ['--subscriber', stream], { stdio: 'inherit' });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the subscriber exited (${code})`)));
  });
  return {
    arrivals: (expected: string[]) =>
      new Promise<Arrivals>((resolve) => {
        child.once('message', (m) => resolve(m as Arrivals));
        child.send({ expected });
      }),
  };
}

async function main() {
  const db = await benchDatabase('events');
  const service = await startServiceProcess({ DATABASE_URL: db.url, ADMIN_API_KEY: ADMIN, NATS_URL: NATS, EVENTS_STREAM: STREAM });
  const nc = await connect({ servers: NATS });
  try {
    const tables: BenchTable[] = [];
    for (let i = 0; i < TABLES; i++) {
      const table = (await post(service.base, ADMIN, '/v1/tables', { code: `EV-${i}`, variant: 'EZ', currency: 'EUR', minBet: 100, maxBet: 1_000_000 })).body;
      const key = (await post(service.base, ADMIN, '/v1/api-keys', { name: `terminal ${i}`, role: 'TERMINAL', tableId: table.id })).body.key;
      const shoe = (await post(service.base, key, `/v1/tables/${table.id}/shoes`, {})).body;
      const random = seededRandom(500 + i);
      tables.push({ id: table.id, key, shoeId: shoe.id, cards: shuffledShoe(8, random), pos: 0, random });
    }
    /** One coup from the table's shoe (a new shoe when this one runs low): its number and its time. */
    const recordCoup = async (t: BenchTable) => {
      let d = dealPuntoBanco(t.cards, t.pos);
      if (!d || t.pos > 390) {
        await post(service.base, t.key, `/v1/shoes/${t.shoeId}/close`, {});
        t.shoeId = (await post(service.base, t.key, `/v1/tables/${t.id}/shoes`, {})).body.id;
        t.cards = shuffledShoe(8, t.random);
        t.pos = 0;
        d = dealPuntoBanco(t.cards, 0)!;
      }
      t.pos += d.used;
      const body = { cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) }, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] };
      const sent = performance.now();
      const r = await post(service.base, t.key, `/v1/shoes/${t.shoeId}/coups`, body);
      if (r.status !== 201) throw new Error(`coup: ${r.status} ${JSON.stringify(r.body)}`);
      return { number: r.body.number, at: clock(), ms: performance.now() - sent };
    };
    // Warm-up, as bench:coups does (the service's first coups compile its code paths).
    await Promise.all(
      tables.map(async (t) => {
        for (let i = 0; i < 5; i++) await recordCoup(t);
      }),
    );
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
    const listener = await startSubscriber(STREAM);

    const answered = new Map<string, number>();
    const coupLatencies: number[] = [];
    const pending: Promise<void>[] = [];
    const busy = new Set<BenchTable>();
    let skipped = 0;
    const start = performance.now();
    for (let i = 0; i < RATE * RATE_SECONDS; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const t = tables[i % tables.length];
      // A terminal records its next coup only when the last is settled, as in bench:coups.
      if (busy.has(t)) {
        skipped++;
        continue;
      }
      busy.add(t);
      pending.push(
        recordCoup(t).then((c) => {
          answered.set(`${t.id}:${c.number}`, c.at);
          coupLatencies.push(c.ms);
          busy.delete(t);
        }),
      );
    }
    await Promise.all(pending);
    const got = await listener.arrivals([...answered.keys()]);
    const arrived = new Map(got.jetstream);
    const direct = new Map(got.core);
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
    console.log(`events missing: ${missing}; arrived before the answer was read: ${early}; coups skipped (terminal still waiting): ${skipped}`);
    const q = summarize(coupLatencies);
    console.log(
      `the coups themselves (sent → answered): median ${q.median.toFixed(1)} p95 ${q.p95.toFixed(1)} p99 ${q.p99.toFixed(1)} max ${q.max.toFixed(1)} ms`,
    );
    console.log(
      `the same at a plain NATS subscription: median ${c.median.toFixed(1)} p95 ${c.p95.toFixed(1)} p99 ${c.p99.toFixed(1)} max ${c.max.toFixed(1)} ms; missing ${core.missing}`,
    );
    console.log(
      `written ${writeJson('events', { machine: machine(), rate: RATE, seconds: RATE_SECONDS, tables: TABLES, coups: answered.size, skipped, missing, early, latencyMs: s, subscriptionLatencyMs: c, coupLatencyMs: q })}`,
    );
    await jsm.streams.delete(STREAM).catch(() => undefined);
  } finally {
    await nc.close();
    await service.stop();
    await db.drop();
  }
}

(process.argv[2] === '--subscriber' ? subscriber(process.argv[3]) : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
