import { AckPolicy, connect, DeliverPolicy, JsMsg } from 'nats';
import { Client, PoolClient } from 'pg';
import { Card, dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../../../src/domain';
import { Surveyor } from '../../../src/integrity/surveillance/surveyor';
import { EventRelay } from '../../../src/operations/events/event-relay';
import { Metrics } from '../../../src/platform/common/metrics';
import { answerMac, parseAuditKeys } from '../../../src/platform/config/keyring';
import { AUDIT_KEYS, startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPit, givenShoe } from '../../support/builders';

/**
 * Issue 49's findings 5 and 6, each as the examiner found it: a record rewritten, or deleted, by the
 * database's superuser with every trigger off, and what it did to what people see. Each is named by
 * the verification (GET /v1/audit/verify) now, or can no longer change what anyone sees.
 */
let ctx: TestContext;
let auditor: string;
beforeAll(async () => {
  ctx = await startTestApp();
  auditor = await givenKey(ctx, 'AUDITOR');
});
afterAll(() => ctx?.close());

const TIE = { player: ['KS', '6D'], banker: ['3H', '2C', 'AS'] }; // 6–6
const BANKER_7 = { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] };

/** `fn` on a connection of the database's owner with every trigger off (session_replication_role = replica). */
async function asSuperuser<T>(fn: (su: PoolClient) => Promise<T>): Promise<T> {
  const su = await ctx.prisma.pool.connect();
  try {
    await su.query('SET session_replication_role = replica');
    return await fn(su);
  } finally {
    await su.query('RESET session_replication_role').catch(() => undefined);
    su.release();
  }
}

const problems = async (): Promise<{ id: string | null; reason: string }[]> => (await ctx.as(auditor).get('/v1/audit/verify').expect(200)).body.problems;

describe('finding 5: what must be sealed follows from the audit entries', () => {
  it('a withdrawn tie bet set back to OPEN with its seal deleted, then paid by the next coup, is named by the verification', async () => {
    const { terminal, shoe } = await givenPit(ctx, { code: 'F5-SEAL', tieBetsStay: true });
    const tie = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: TIE, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] });
    const carried = tie.body.carriedForward[0].id as string;
    expect((await ctx.as(terminal).post(`/v1/wagers/${carried}/withdraw`, {})).status).toBe(200);
    expect((await problems()).filter((p) => p.id === `wagers/${carried}`)).toEqual([]);
    await asSuperuser(async (su) => {
      await su.query(`UPDATE wagers SET status = 'OPEN' WHERE id = $1::uuid AND gaming_day IS NULL`, [carried]);
      expect((await su.query(`DELETE FROM row_seals WHERE relation = 'wagers' AND row_key = $1`, [carried])).rowCount).toBe(1);
    });
    const named = async () => (await problems()).filter((p) => p.id === `wagers/${carried}`);
    expect(await named()).toHaveLength(1);
    // The next coup pays it (the shoe was not touched): still named, as a bet sealed withdrawn whose seal is gone.
    const paid = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7 });
    expect(paid.status).toBe(201);
    expect(paid.body.wagers.map((w: { id: string }) => w.id)).toContain(carried);
    const [finding] = await named();
    expect(finding.reason).toMatch(/wager\.withdraw.*its seal is gone/);
  });
});

describe('finding 6: the slips are numbered from the slips', () => {
  it('a slip counter lowered by the superuser neither refuses the next slip nor repeats a number: the next number follows the sealed slips', async () => {
    const { supervisor, table } = await givenPit(ctx, { code: 'F6-SLIPS' });
    const s = ctx.as(supervisor);
    const session = (await s.post(`/v1/tables/${table.id}/sessions`, { opener: [{ denomination: 2500, count: 40 }] }).expect(201)).body;
    const slip = async () => s.post(`/v1/table-sessions/${session.id}/slips`, { kind: 'FILL', chips: [{ denomination: 2500, count: 4 }] });
    const first = (await slip()).body;
    const second = (await slip()).body;
    expect(second.number).toBe(first.number + 1);
    // What the examiner did: the counter of the last number issued set back (where there still is one).
    await asSuperuser(async (su) => {
      if ((await su.query(`SELECT to_regclass('slip_counters') IS NOT NULL AS present`)).rows[0].present)
        await su.query(`UPDATE slip_counters SET last_number = 0 WHERE property_id = $1::uuid`, [table.propertyId]);
    });
    const third = await slip();
    expect(third.status).toBe(201);
    expect(third.body.number).toBe(second.number + 1);
    // Two slips at once still take two numbers, one after the other.
    const both = await Promise.all([slip(), slip()]);
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    expect(both.map((r) => r.body.number).sort((a, b) => a - b)).toEqual([third.body.number + 1, third.body.number + 2]);
  });
});

describe('finding 6: a stored answer is replayed only as the service stored it', () => {
  /** The answer's column rewritten through its text, whatever its type (jsonb before the answers were keyed, text since). */
  async function rewriteAnswer(su: PoolClient, key: string, edit: (text: string) => string): Promise<void> {
    const [{ type }] = (
      await su.query(`SELECT data_type AS type FROM information_schema.columns WHERE table_name = 'idempotency_records' AND column_name = 'response_body'`)
    ).rows;
    const [{ body }] = (await su.query(`SELECT response_body::text AS body FROM idempotency_records WHERE key = $1`, [key])).rows;
    await su.query(`UPDATE idempotency_records SET response_body = $2::text::${type === 'jsonb' ? 'jsonb' : 'text'} WHERE key = $1`, [key, edit(body)]);
  }
  const forge = (text: string) => text.replace(/"winner":\s*"BANKER"/, '"winner":"PLAYER"').replace(/"payout":\s*\d+/g, '"payout":999999');

  it("a rewritten record is not replayed to the terminal's retry (another winner, another payout): refused with IDEMPOTENCY_ANSWER_UNPROVEN, and named by the verification", async () => {
    const { terminal, shoe } = await givenPit(ctx, { code: 'F6-ANSWER' });
    const send = () =>
      ctx
        .as(terminal)
        .post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 1, betType: 'BANKER', amount: 10_000 }] })
        .set('Idempotency-Key', 'F6-ANSWER-1');
    const first = await send();
    expect(first.status).toBe(201);
    expect(first.body.outcome.winner).toBe('BANKER');
    await asSuperuser((su) => rewriteAnswer(su, 'F6-ANSWER-1', forge));
    const retry = await send();
    expect(retry.body.outcome?.winner).not.toBe('PLAYER');
    expect([retry.status, retry.body.code]).toEqual([500, 'IDEMPOTENCY_ANSWER_UNPROVEN']);
    const [{ id }] = (await ctx.prisma.pool.query(`SELECT id::text FROM idempotency_records WHERE key = 'F6-ANSWER-1'`)).rows;
    expect((await problems()).filter((p) => p.id === `idempotency_records/${id}`)).toHaveLength(1);
    // Nothing was made twice.
    expect((await ctx.as(terminal).get(`/v1/shoes/${shoe.id}/coups`)).body).toHaveLength(1);
  });

  it('an answer forged with the audit key itself still disagrees with the ledger it reports: refused', async () => {
    const { terminal, shoe } = await givenPit(ctx, { code: 'F6-LEDGER' });
    const send = () =>
      ctx
        .as(terminal)
        .post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 1, betType: 'BANKER', amount: 10_000 }] })
        .set('Idempotency-Key', 'F6-LEDGER-1');
    expect((await send()).status).toBe(201);
    await asSuperuser(async (su) => {
      await rewriteAnswer(su, 'F6-LEDGER-1', forge);
      // Keyed again with the audit key (as only its holder could): the MAC holds, the ledger does not agree.
      const keyring = parseAuditKeys(AUDIT_KEYS);
      const [r] = (
        await su.query(`SELECT id::text, scope, key, request_hash, status_code, response_body::text AS body FROM idempotency_records WHERE key = 'F6-LEDGER-1'`)
      ).rows;
      if ((await su.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'idempotency_records' AND column_name = 'mac'`)).rowCount)
        await su.query(`UPDATE idempotency_records SET mac = $2 WHERE id = $1::uuid`, [
          r.id,
          answerMac(keyring.keys.get(keyring.currentId)!, {
            id: r.id,
            scope: r.scope,
            key: r.key,
            requestHash: r.request_hash,
            status: r.status_code,
            body: r.body,
          }),
        ]);
    });
    const retry = await send();
    expect([retry.status, retry.body.code]).toEqual([500, 'IDEMPOTENCY_ANSWER_UNPROVEN']);
    expect(retry.body.message).toMatch(/outcome|wager/);
  });

  it('a deleted record is named by the verification: the entry written with the answer names it', async () => {
    const { terminal, shoe } = await givenPit(ctx, { code: 'F6-GONE' });
    const sent = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7 }).set('Idempotency-Key', 'F6-GONE-1');
    expect(sent.status).toBe(201);
    const [{ id }] = (await ctx.prisma.pool.query(`SELECT id::text FROM idempotency_records WHERE key = 'F6-GONE-1'`)).rows;
    await asSuperuser((su) => su.query(`DELETE FROM idempotency_records WHERE id = $1::uuid`, [id]));
    const named = (await problems()).filter((p) => p.id === `idempotency_records/${id}`);
    expect(named.map((p) => p.reason)).toEqual([expect.stringMatching(/coup\.settle|is gone/)]);
  });
});

/** A gauge's value as a scrape reads it (the service's own registry). */
async function gauge(name: string, on: TestContext = ctx): Promise<number> {
  const text = await on.app.get(Metrics).registry.getSingleMetricAsString(name);
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line!.slice(line!.lastIndexOf(' ') + 1));
}

describe('finding 6: the surveyor reads on from where it got to', () => {
  let client: Client;
  let surveyor: Surveyor;
  const notes: string[] = [];
  beforeAll(async () => {
    client = new Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    surveyor = new Surveyor(client, parseAuditKeys(AUDIT_KEYS), (_level, message) => notes.push(message));
  });
  afterAll(() => client?.end());
  /** Passes until the surveyor has read everything recorded (it follows the log in order). */
  const surveyAll = async () => {
    for (let i = 0; i < 100 && (await surveyor.passOnce()) > 0; i++);
  };

  async function deal(terminal: string, shoeId: string, cards: Card[], count: number): Promise<Card[]> {
    let pos = 0;
    for (let i = 0; i < count; i++) {
      const d = dealPuntoBanco(cards, pos)!;
      const res = await ctx.as(terminal).post(`/v1/shoes/${shoeId}/coups`, { cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) } });
      expect(res.status).toBe(201);
      pos += d.used;
    }
    return cards.slice(0, pos);
  }

  it('a surveillance cursor moved past a shoe no longer hides a false shuffle: the backlog counts it, the surveyor surveys it, the verification names the move', async () => {
    const pit = await givenPit(ctx, { code: 'F6-SURVEY' });
    const first = await deal(pit.terminal, pit.shoe.id, shuffledShoe(8, seededRandom(41)), 40);
    expect((await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/close`, {})).status).toBe(200);
    await surveyAll();
    // The next shoe holds 16 cards of the last one's in their order (a false shuffle).
    const slug = first.slice(100, 116);
    const rest = shuffledShoe(8, seededRandom(42));
    for (const c of slug) rest.splice(rest.indexOf(c), 1);
    const second = await givenShoe(ctx, pit.terminal, pit.table.id);
    await deal(pit.terminal, second.id, [...rest.slice(0, 30), ...slug, ...rest.slice(30)], 12);
    expect(await gauge('sabot_surveillance_backlog_entries')).toBeGreaterThanOrEqual(13);
    // The superuser moves the table's cursor past the shoe.
    await asSuperuser((su) =>
      su.query(`UPDATE surveillance_cursors SET seq = (SELECT seq FROM audit_heads WHERE stream = $1) WHERE stream = $1`, [pit.table.id]),
    );
    expect(await gauge('sabot_surveillance_backlog_entries')).toBeGreaterThanOrEqual(13);
    expect((await problems()).filter((p) => p.id === `surveillance_cursors/${pit.table.id}`)).toHaveLength(1);
    await surveyAll();
    const { rows } = await ctx.prisma.pool.query(`SELECT kind FROM surveillance_alerts WHERE shoe_id = $1::uuid`, [second.id]);
    expect(rows.map((r) => r.kind)).toEqual(['REPEATED_RUN']);
    expect(await gauge('sabot_surveillance_backlog_entries')).toBe(0);
    // Surveyed now, and the move stays on the record.
    expect((await problems()).filter((p) => p.id === `surveillance_cursors/${pit.table.id}`).map((p) => p.reason)).toEqual([
      expect.stringMatching(/set it back/),
    ]);
  });
});

describe('finding 6: the event relay publishes on from where it got to', () => {
  const MACHINE_NATS = 'nats://127.0.0.1:4222';
  const stream = `SABOT_P${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
  let live: TestContext;
  beforeAll(async () => {
    live = await startTestApp({ NATS_URL: MACHINE_NATS, EVENTS_STREAM: stream, EVENTS_POLL_MS: '10' });
  });
  afterAll(() => live?.close());

  /** The seqs of a table's events JetStream holds, read from the start by a fresh consumer. */
  async function published(tableId: string): Promise<number[]> {
    const nc = await connect({ servers: MACHINE_NATS });
    try {
      const jsm = await nc.jetstreamManager();
      const name = `reader_${Math.random().toString(36).slice(2, 10)}`;
      await jsm.consumers.add(stream, {
        durable_name: name,
        ack_policy: AckPolicy.None,
        deliver_policy: DeliverPolicy.All,
        filter_subject: `${stream.toLowerCase()}.table.${tableId}.>`,
      });
      const consumer = await nc.jetstream().consumers.get(stream, name);
      const out: number[] = [];
      for (;;) {
        const batch = await consumer.fetch({ max_messages: 500, expires: 1_000 });
        let got = 0;
        for await (const m of batch as AsyncIterable<JsMsg>) {
          out.push(m.json<{ seq: number }>().seq);
          got++;
        }
        if (got === 0) break;
      }
      await jsm.consumers.delete(stream, name);
      return out;
    } finally {
      await nc.close();
    }
  }
  /** Asks again until `ok` holds (no fixed sleep), for at most 30 s. */
  async function until<T>(read: () => Promise<T>, ok: (x: T) => boolean): Promise<T> {
    let x = await read();
    for (let i = 0; i < 300 && !ok(x); i++) {
      await new Promise((r) => setTimeout(r, 100));
      x = await read();
    }
    return x;
  }

  it('an event relay cursor moved ahead of what was published no longer keeps entries from JetStream: the backlog counts them, the relay publishes them, the verification names the move', async () => {
    const relay: { recordProgress?: () => Promise<void>; checkCursors?: () => Promise<void> } = live.app.get(EventRelay);
    const { terminal, shoe, table } = await givenPit(live, { code: 'F6-RELAY' });
    const coup = () => live.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7 }).expect(201);
    await coup();
    expect(
      await until(
        () => gauge('sabot_outbox_backlog_entries', live),
        (n) => n === 0,
      ),
    ).toBe(0);
    await relay.recordProgress?.();
    const head = async () => Number((await live.prisma.pool.query(`SELECT seq FROM audit_heads WHERE stream = $1`, [table.id])).rows[0].seq);
    const before = await head();
    // The superuser moves the table's cursor three entries ahead: the next three would never be published.
    await asSuperuser(async () => {
      const su = await live.prisma.pool.connect();
      try {
        await su.query('SET session_replication_role = replica');
        await su.query(`UPDATE event_relay_cursors SET seq = seq + 3 WHERE stream = $1`, [table.id]);
      } finally {
        await su.query('RESET session_replication_role');
        su.release();
      }
    });
    for (let i = 0; i < 3; i++) await coup();
    expect(await head()).toBe(before + 3);
    expect(await gauge('sabot_outbox_backlog_entries', live)).toBeGreaterThanOrEqual(3);
    const auditor = await givenKey(live, 'AUDITOR');
    const named = async () =>
      ((await live.as(auditor).get('/v1/audit/verify').expect(200)).body.problems as { id: string; reason: string }[]).filter(
        (p) => p.id === `event_relay_cursors/${table.id}`,
      );
    expect(await named()).toHaveLength(1);
    // The relay checks its cursors (every minute; here at once): it sets this one back and publishes what it skipped.
    await relay.checkCursors?.();
    const seqs = await until(
      () => published(table.id),
      (s) => s.length >= before + 3,
    );
    expect([...new Set(seqs)].sort((a, b) => a - b)).toEqual(Array.from({ length: before + 3 }, (_, i) => i + 1));
    expect(
      await until(
        () => gauge('sabot_outbox_backlog_entries', live),
        (n) => n === 0,
      ),
    ).toBe(0);
    expect((await named()).map((p) => p.reason)).toEqual([expect.stringMatching(/set it back/)]);
  });
});
