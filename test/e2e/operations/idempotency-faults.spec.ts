import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import type { Response } from 'supertest';
import { Agent, appOn, TestContext } from '../../support/app';
import { givenPit } from '../../support/builders';
import { cloneTestDatabase, serviceUrl } from '../../support/database';
import { Cut, DbProxy } from '../../support/db-proxy';

/**
 * Keyed retries under database faults. The service reaches PostgreSQL through a proxy the test
 * controls (test/support/db-proxy.ts), which cuts the connection carrying a given statement at a
 * given point: before it reaches PostgreSQL, once PostgreSQL has it (it runs on with nobody to
 * answer), once it has run to its end (committed) with none of its reply delivered, or with all
 * but the last bytes of its reply delivered. The cut is made on the bytes, never on a clock.
 *
 * After each cut the same request is retried at once, with the same key. It must get either the
 * stored answer (exactly) or a clean first run; the database must hold the change once; no answer
 * is ever a 500, nor an IDEMPOTENCY_IN_PROGRESS (the first request is dead); a 503 is the one error
 * model's SERVICE_UNAVAILABLE with Retry-After.
 */
jest.setTimeout(120_000);

/** The key's lookup, the first statement of every keyed request (a prepared statement, by its name). */
const LOOKUP = 'sabot-find-answer';

let db: { url: string; drop(): Promise<void> };
let proxy: DbProxy;
let app: INestApplication;
let ctx: Pick<TestContext, 'as' | 'admin'>;
let owner: Client;

beforeAll(async () => {
  db = await cloneTestDatabase();
  proxy = await DbProxy.start(db.url);
  ({ app, ...ctx } = await appOn({ DATABASE_URL: serviceUrl(proxy.url(db.url)) }));
  owner = new Client({ connectionString: db.url });
  await owner.connect();
});

afterAll(async () => {
  await app?.close();
  await owner?.end();
  await proxy?.close();
  await db?.drop();
});

const count = async (sql: string, ...values: unknown[]) => Number((await owner.query<{ n: string }>(sql, values)).rows[0].n);

/** A keyed write on a fresh target: who sends what, what it answers, and how many rows it has added. */
interface Target {
  agent: Agent;
  path: string;
  body: object;
  status: number;
  rows(): Promise<number>;
}

interface KeyedWrite {
  name: string;
  given(): Promise<Target>;
  /** Where the change is written, and where it commits (markers, in order on one connection). */
  write: string[];
  commit: string[];
}

const WHOLE_COUP = {
  cards: { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] },
  wagers: [
    { seat: 1, betType: 'BANKER', amount: 1000 },
    { seat: 2, betType: 'PLAYER', amount: 700 },
  ],
};

const WRITES: KeyedWrite[] = [
  {
    // The hot path: one autocommit statement that writes the coup and its key's record.
    name: 'a whole coup (the hot path)',
    given: async () => {
      const { terminal, shoe } = await givenPit(ctx as TestContext);
      return {
        agent: ctx.as(terminal),
        path: `/v1/shoes/${shoe.id}/coups`,
        body: WHOLE_COUP,
        status: 201,
        rows: async () => count('SELECT count(*) AS n FROM coups WHERE shoe_id = $1', shoe.id),
      };
    },
    write: ['sabot-settle-coup'],
    commit: ['sabot-settle-coup'],
  },
  {
    // An interactive transaction: the collection, then the key's record, then COMMIT.
    name: 'a commission collection',
    given: async () => {
      const { terminal, supervisor, shoe } = await givenPit(ctx as TestContext);
      // Banker wins: seat 1 owes 50 in commission, collected 10 at a time (a second write would be taken).
      const coup = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, WHOLE_COUP);
      expect(coup.status).toBe(201);
      return {
        agent: ctx.as(supervisor),
        path: `/v1/shoes/${shoe.id}/commissions/collections`,
        body: { seat: 1, amount: 10 },
        status: 201,
        rows: async () => count("SELECT count(*) AS n FROM commission_entries WHERE shoe_id = $1 AND kind = 'COLLECTION'", shoe.id),
      };
    },
    write: ['INSERT INTO idempotency_records'],
    commit: ['INSERT INTO idempotency_records', 'COMMIT'],
  },
  {
    name: 'a buy-in',
    given: async () => {
      const { table, terminal } = await givenPit(ctx as TestContext);
      return {
        agent: ctx.as(terminal),
        path: `/v1/tables/${table.id}/buy-ins`,
        body: { kind: 'CHIPS', amount: 50_000 },
        status: 201,
        rows: async () => count('SELECT count(*) AS n FROM buy_ins WHERE table_id = $1', table.id),
      };
    },
    write: ['INSERT INTO idempotency_records'],
    commit: ['INSERT INTO idempotency_records', 'COMMIT'],
  },
];

/** What the database holds once the cut has been made: nothing, the change, or either (it may still be running). */
type Outcome = 'nothing' | 'committed' | 'either';

interface CutPoint {
  name: string;
  at: (w: KeyedWrite) => string[];
  cut: Cut;
  outcome: Outcome;
}

const CUTS: CutPoint[] = [
  { name: 'the key looked up: the lookup never reaches PostgreSQL', at: () => [LOOKUP], cut: 'request', outcome: 'nothing' },
  { name: 'the key looked up: its answer lost', at: () => [LOOKUP], cut: 'reply', outcome: 'nothing' },
  { name: 'between lookup and write: the write never reaches PostgreSQL', at: (w) => w.write, cut: 'request', outcome: 'nothing' },
  { name: 'the write made, its COMMIT never reaching PostgreSQL', at: (w) => w.commit, cut: 'request', outcome: 'nothing' },
  { name: 'the write sent whole, its connection gone while it runs on', at: (w) => w.commit, cut: 'sent', outcome: 'either' },
  { name: 'after the commit, before its answer reaches the service', at: (w) => w.commit, cut: 'reply', outcome: 'committed' },
  { name: 'during the answer: all but its last bytes delivered', at: (w) => w.commit, cut: 'mid-reply', outcome: 'committed' },
];

/** What every answer must be: never a 500, never IDEMPOTENCY_IN_PROGRESS, a 503 only as the error model has it. */
function expectNoFaultLeak(r: Response): void {
  expect(r.status).not.toBe(500);
  expect(r.body.code).not.toBe('IDEMPOTENCY_IN_PROGRESS');
  if (r.status === 503) expect([r.body.code, r.headers['retry-after']]).toEqual(['SERVICE_UNAVAILABLE', '2']);
}

const record = async (key: string) =>
  (
    await owner.query<{ status_code: number; body: unknown; answered: boolean }>(
      'SELECT status_code, response_body::jsonb AS body, completed_at IS NOT NULL AS answered FROM idempotency_records WHERE key = $1',
      [key],
    )
  ).rows;

let seq = 0;

describe.each(WRITES)('$name with an Idempotency-Key, the database cut', (write) => {
  it.each(CUTS)('$name: the retry, at once, gets the stored answer or a clean first run; one write', async (point) => {
    const t = await write.given();
    const key = `fault-${++seq}`;
    const send = () => t.agent.post(t.path, t.body).set('Idempotency-Key', key);
    const cutsBefore = proxy.cuts;
    // Idle connections in the pool are those the cut may fall on; none carries anything else meanwhile.
    void proxy.arm(point.at(write), point.cut);

    const first = await send();
    expect(proxy.cuts).toBe(cutsBefore + 1);
    expectNoFaultLeak(first);
    if (point.outcome === 'nothing') {
      // Nothing was written, and the first request said so.
      expect(first.status).toBe(503);
      expect(await t.rows()).toBe(0);
      expect(await record(key)).toEqual([]);
    } else if (point.outcome === 'committed') {
      // The change committed with its answer before the cut: the request itself found it and
      // answered with it, rather than a 503 that would hide it.
      expect([first.status, first.headers['idempotent-replayed']]).toEqual([t.status, 'true']);
    } else {
      expect([503, t.status]).toContain(first.status);
    }

    const retry = await send();
    expectNoFaultLeak(retry);
    expect(retry.status).toBe(t.status);
    const stored = await record(key);
    expect(stored).toHaveLength(1);
    expect([stored[0].answered, stored[0].status_code]).toEqual([true, t.status]);
    // The retry's answer is the stored one, exactly: the first's (replayed) or its own first run's.
    expect(retry.body).toEqual(stored[0].body);
    if (point.outcome === 'nothing') expect(retry.headers['idempotent-replayed']).toBeUndefined();
    if (point.outcome === 'committed') expect(retry.headers['idempotent-replayed']).toBe('true');
    if (first.status !== 503) expect(first.body).toEqual(retry.body);
    expect(await t.rows()).toBe(1);

    // And again: the same answer, nothing more written.
    const again = await send();
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([t.status, 'true', retry.body]);
    expect(await t.rows()).toBe(1);
  });
});

describe('a whole coup whose connection was cut while its statement still waits in PostgreSQL', () => {
  it('the retry, sent at once while the first still runs, answers once both are done: with the stored answer, and the coup is written once', async () => {
    const t = await WRITES[0].given();
    const shoeId = /shoes\/([^/]+)\//.exec(t.path)![1];
    const key = `fault-${++seq}`;
    const send = () => t.agent.post(t.path, t.body).set('Idempotency-Key', key);
    const waiting = async (n: number) => {
      // The state the test waits for, read from PostgreSQL: n statements queued behind the lock held below.
      for (;;) {
        const queued = await count(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
        );
        if (queued >= n) return;
        await new Promise((r) => setImmediate(r));
      }
    };
    // Another session holds the shoe: the coup's statement, once in PostgreSQL, waits for it.
    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM shoes WHERE id = $1 FOR UPDATE', [shoeId]);
      void proxy.arm(['sabot-settle-coup'], 'sent');

      // The first request: its statement reaches PostgreSQL and waits on the shoe; its connection is
      // cut, so the request fails (nothing committed yet) while its statement lives on.
      const first = await send();
      expectNoFaultLeak(first);
      expect(first.status).toBe(503);
      await waiting(1);

      // The retry at once: its own statement queues behind the first's.
      const retrying = send().then((r) => r);
      await waiting(2);
      expect(await t.rows()).toBe(0);
      await holder.query('ROLLBACK');

      const retry = await retrying;
      expectNoFaultLeak(retry);
      expect(retry.status).toBe(201);
      const stored = await record(key);
      expect(stored).toHaveLength(1);
      expect(retry.body).toEqual(stored[0].body);
      expect(await t.rows()).toBe(1);
      expect(await count('SELECT count(*) AS n FROM wagers WHERE shoe_id = $1', shoeId)).toBe(2);
      console.log(
        `IDEMPOTENCY-FAULTS retry behind a live first statement: ${retry.headers['idempotent-replayed'] ? 'the stored answer' : 'a clean first run'}`,
      );
    } finally {
      await holder.end();
    }
  });
});
