import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { AckPolicy, connect, DeliverPolicy, JsMsg, NatsConnection } from 'nats';
import type { SabotEvent } from '../../../src/operations/events/event';
import { startTestApp, TestContext } from '../../support/app';
import { cloneTestDatabase } from '../../support/database';
import { client, ensureBuilt, exited, startService, waitForHealth } from '../../support/process';
import { dealtHands, givenKey, givenPit } from '../../support/builders';

/**
 * The event stream, against real NATS JetStream servers: the machine's (127.0.0.1:4222), and one of
 * the test's own that it stops and starts again. Every committed change arrives once, in its table's
 * order; a refused request (nothing committed) sends nothing.
 */
jest.setTimeout(120_000);
const MACHINE_NATS = 'nats://127.0.0.1:4222';

/** Every message of a JetStream stream under a subject filter, read from the start by a fresh consumer. */
async function readAll(nc: NatsConnection, stream: string, filter: string): Promise<SabotEvent[]> {
  const jsm = await nc.jetstreamManager();
  const name = `reader_${Math.random().toString(36).slice(2, 10)}`;
  await jsm.consumers.add(stream, { durable_name: name, ack_policy: AckPolicy.None, deliver_policy: DeliverPolicy.All, filter_subject: filter });
  const consumer = await nc.jetstream().consumers.get(stream, name);
  const out: SabotEvent[] = [];
  for (;;) {
    const batch = await consumer.fetch({ max_messages: 500, expires: 1_000 });
    let got = 0;
    for await (const m of batch as AsyncIterable<JsMsg>) {
      out.push(m.json<SabotEvent>());
      got++;
    }
    if (got === 0) break;
  }
  await jsm.consumers.delete(stream, name);
  return out;
}

/** Waits until the stream holds `count` events for the table (no fixed sleep: it asks again until then). */
async function eventsOf(nc: NatsConnection, stream: string, tableId: string, count: number, ms = 30_000): Promise<SabotEvent[]> {
  const until = Date.now() + ms;
  let events: SabotEvent[] = [];
  while (Date.now() < until) {
    events = await readAll(nc, stream, `${stream.toLowerCase()}.table.${tableId}.>`).catch(() => []);
    if (events.length >= count) return events;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${events.length} of ${count} events arrived: ${events.map((e) => e.id).join(', ')}`);
}

/** The table's audit entries as the database holds them: what must have been published, in order. */
async function auditOf(ctx: TestContext, tableId: string): Promise<{ seq: string; action: string }[]> {
  return ctx.prisma.$queryRaw<{ seq: string; action: string }[]>`SELECT seq::text, action FROM audit_log a WHERE a.stream = ${tableId} ORDER BY a.seq`;
}

/** The published schema of events (docs/events.schema.json): every event received must pass it. */
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv);
const validEvent = ajv.compile(JSON.parse(fs.readFileSync(path.join(__dirname, '../../../docs/events.schema.json'), 'utf8')) as object);

function expectExactlyTheAudit(events: SabotEvent[], audit: { seq: string; action: string }[], tableId: string): void {
  for (const e of events) {
    const { id, type } = e;
    if (!validEvent(e)) throw new Error(`event ${id} (${type}) does not match docs/events.schema.json: ${ajv.errorsText(validEvent.errors)}`);
  }
  expect(events.map((e) => [e.seq, e.type])).toEqual(audit.map((a) => [Number(a.seq), a.action]));
  expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  for (const e of events) expect(e).toMatchObject({ version: 1, stream: tableId, id: `${tableId}:${e.seq}` });
}

describe('events on the machine’s NATS', () => {
  const stream = `SABOT_T${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
  let ctx: TestContext;
  let nc: NatsConnection;
  beforeAll(async () => {
    ctx = await startTestApp({ NATS_URL: MACHINE_NATS, EVENTS_STREAM: stream, EVENTS_POLL_MS: '10' });
    nc = await connect({ servers: MACHINE_NATS });
  });
  afterAll(async () => {
    await ctx.close();
    await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
    await nc.close();
  });

  it('publishes each change of a table once, in order, with what was recorded; a refused coup sends nothing', async () => {
    const pit = await givenPit(ctx, { code: 'EV-1' });
    const t = ctx.as(pit.terminal);
    const hands = dealtHands(8, 99, 6);
    for (const cards of hands.slice(0, 5)) {
      expect((await t.post(`/v1/shoes/${pit.shoe.id}/coups`).send({ cards, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] })).status).toBe(201);
    }
    // Refused: the banker stood on 7 yet drew. Nothing is committed, so nothing is published.
    expect((await t.post(`/v1/shoes/${pit.shoe.id}/coups`).send({ cards: { player: ['9S', 'KD'], banker: ['7H', 'KC', '2D'] } })).status).toBe(422);
    const collect = await ctx.as(pit.supervisor).post(`/v1/shoes/${pit.shoe.id}/commissions/collections`).send({ seat: 1 });
    const audit = await auditOf(ctx, pit.table.id);
    const events = await eventsOf(nc, stream, pit.table.id, audit.length);
    expectExactlyTheAudit(events, audit, pit.table.id);
    expect(events.map((e) => e.type)).toEqual([
      'shoe.open',
      ...Array<string>(5).fill('coup.settle'),
      ...(collect.status === 201 ? ['commission.collect'] : []),
    ]);
    const settled = events.find((e) => e.type === 'coup.settle')!;
    expect(settled).toMatchObject({ entity: { type: 'coup' }, actor: { role: 'TERMINAL' }, data: { number: 1, cards: hands[0] } });
  });

  it('a relay that published but died before recording it publishes again, and JetStream drops the duplicates', async () => {
    const pit = await givenPit(ctx, { code: 'EV-2' });
    for (const cards of dealtHands(8, 7, 4)) expect((await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`).send({ cards })).status).toBe(201);
    const audit = await auditOf(ctx, pit.table.id);
    await eventsOf(nc, stream, pit.table.id, audit.length);
    // As if the relay had crashed between publishing the last three entries and recording them.
    await ctx.prisma.$executeRaw`UPDATE event_relay_cursors SET seq = seq - 3 WHERE stream = ${pit.table.id}`;
    // One more coup, so that the relay certainly passed over the three again before it is seen.
    expect(
      (
        await ctx
          .as(pit.terminal)
          .post(`/v1/shoes/${pit.shoe.id}/coups`)
          .send({ cards: dealtHands(8, 8, 1)[0] })
      ).status,
    ).toBe(201);
    const after = await auditOf(ctx, pit.table.id);
    const events = await eventsOf(nc, stream, pit.table.id, after.length);
    expectExactlyTheAudit(events, after, pit.table.id);
    const [cursor] = await ctx.prisma.$queryRaw<{ seq: string }[]>`SELECT seq::text FROM event_relay_cursors WHERE stream = ${pit.table.id}`;
    expect(cursor.seq).toBe(after[after.length - 1].seq);
  });
});

describe('events when NATS stops and starts again', () => {
  let server: ChildProcess | null = null;
  let port = 0;
  let store = '';
  let ctx: TestContext;
  const stream = 'SABOT_RESTART';

  const freePort = () =>
    new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
  async function startNats(): Promise<void> {
    server = spawn('/usr/sbin/nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((resolve) =>
        net
          .connect(port, '127.0.0.1')
          .on('connect', function (this: net.Socket) {
            this.destroy();
            resolve(true);
          })
          .on('error', () => resolve(false)),
      );
      if (up) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('nats-server did not start');
  }
  async function stopNats(): Promise<void> {
    const s = server;
    server = null;
    if (!s || s.exitCode !== null) return;
    await new Promise((resolve) => {
      s.once('exit', resolve);
      s.kill('SIGKILL');
    });
  }

  beforeAll(async () => {
    port = await freePort();
    store = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-nats-'));
    await startNats();
    ctx = await startTestApp({ NATS_URL: `nats://127.0.0.1:${port}`, EVENTS_STREAM: stream, EVENTS_POLL_MS: '10' });
  });
  afterAll(async () => {
    await ctx.close();
    await stopNats();
    fs.rmSync(store, { recursive: true, force: true });
  });

  it('coups go on while NATS is down; once it is back every event arrives, once, in order', async () => {
    const pit = await givenPit(ctx, { code: 'EV-3' });
    const t = ctx.as(pit.terminal);
    const hands = dealtHands(8, 3, 12);
    for (const cards of hands.slice(0, 4)) expect((await t.post(`/v1/shoes/${pit.shoe.id}/coups`).send({ cards })).status).toBe(201);
    let nc = await connect({ servers: `nats://127.0.0.1:${port}` });
    await eventsOf(nc, stream, pit.table.id, (await auditOf(ctx, pit.table.id)).length);
    await nc.close();

    await stopNats(); // killed, as a crash would
    for (const cards of hands.slice(4, 10)) expect((await t.post(`/v1/shoes/${pit.shoe.id}/coups`).send({ cards })).status).toBe(201);
    await startNats();
    for (const cards of hands.slice(10)) expect((await t.post(`/v1/shoes/${pit.shoe.id}/coups`).send({ cards })).status).toBe(201);

    const audit = await auditOf(ctx, pit.table.id);
    expect(audit).toHaveLength(13); // shoe.open and twelve coups
    nc = await connect({ servers: `nats://127.0.0.1:${port}` });
    const events = await eventsOf(nc, stream, pit.table.id, audit.length);
    expectExactlyTheAudit(events, audit, pit.table.id);
    await nc.close();
    // The service answered throughout; nothing was lost on either side.
    expect((await ctx.as(await givenKey(ctx, 'AUDITOR')).get('/v1/audit/verify')).body).toMatchObject({ ok: true });
  });
});

describe('events when the service is killed mid-stream', () => {
  it('every committed coup arrives once, in order, after a SIGKILL and a restart; refused coups never', async () => {
    ensureBuilt();
    const db = await cloneTestDatabase();
    const stream = `SABOT_K${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    const ADMIN = 'events-kill-admin-key-0123456789abcdef0123';
    const env = { DATABASE_URL: db.url, ADMIN_API_KEY: ADMIN, NATS_URL: MACHINE_NATS, EVENTS_STREAM: stream, EVENTS_POLL_MS: '10' };
    const nc = await connect({ servers: MACHINE_NATS });
    try {
      const first = startService(env);
      await waitForHealth(first);
      const admin = client(first.url, ADMIN);
      const table = (await admin.post('/v1/tables', { code: 'EV-K', variant: 'COMMISSION', currency: 'EUR', minBet: 100, maxBet: 100_000 })).body;
      const key = (await admin.post('/v1/api-keys', { name: 't', role: 'TERMINAL', tableId: table.id })).body.key as string;
      const shoe = (await client(first.url, key).post(`/v1/tables/${table.id}/shoes`, {})).body.id as string;
      const hands = dealtHands(8, 4242, 30);
      // Coups sent back to back; the service is killed while they flow (after the tenth is answered).
      let answered = 0;
      let refused = 0;
      for (const [i, cards] of hands.slice(0, 20).entries()) {
        const r = await client(first.url, key)
          .post(`/v1/shoes/${shoe}/coups`, { cards })
          .catch(() => ({ status: 0, body: {} }));
        if (r.status === 201) answered++;
        if (i === 9) first.child.kill('SIGKILL');
        if (r.status === 0) break;
      }
      await exited(first.child);
      const second = startService(env);
      await waitForHealth(second);
      // A refused coup (a banker draw after a natural) commits nothing and publishes nothing.
      const misdeal = await client(second.url, key).post(`/v1/shoes/${shoe}/coups`, { cards: { player: ['9S', 'KD'], banker: ['7H', 'KC', '2D'] } });
      if (misdeal.status === 422) refused++;
      // The rest of the shoe's script, from where the database says it stands.
      const dealt = (await client(second.url, key).get(`/v1/shoes/${shoe}/coups`)).body as unknown as { number: number }[];
      for (const cards of hands.slice(dealt.length)) expect((await client(second.url, key).post(`/v1/shoes/${shoe}/coups`, { cards })).status).toBe(201);
      const owner = new (await import('pg')).Client({ connectionString: db.url });
      await owner.connect();
      const audit = (
        await owner.query<{ seq: string; action: string }>('SELECT seq::text, action FROM audit_log a WHERE a.stream = $1 ORDER BY a.seq', [table.id])
      ).rows;
      await owner.end();
      expect(answered).toBeGreaterThanOrEqual(10);
      expect(refused).toBe(1);
      expect(audit.filter((a) => a.action === 'coup.settle')).toHaveLength(30);
      const events = await eventsOf(nc, stream, table.id, audit.length);
      expectExactlyTheAudit(events, audit, table.id);
      second.child.kill('SIGTERM');
      await exited(second.child);
    } finally {
      await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
      await nc.close();
      await db.drop();
    }
  });
});
