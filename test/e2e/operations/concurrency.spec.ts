import { dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../../../src/domain';
import { cloneTestDatabase } from '../../support/database';
import { personKeyOn } from '../../support/builders';
import { client, ensureBuilt, exited, Service, startService, waitForHealth } from '../../support/process';

/**
 * Many clients at once, through two service processes on one database: coup numbers are never
 * given twice, nothing is settled twice or lost, a void or a collection happens once.
 */
jest.setTimeout(120_000);
const ADMIN = 'concurrency-admin-key-0123456789abcdef0123';
let db: { url: string; drop(): Promise<void> };
let a: Service;
let b: Service;
const admin = () => client(a.url, ADMIN);

beforeAll(async () => {
  ensureBuilt();
  db = await cloneTestDatabase();
  const env = { DATABASE_URL: db.url, ADMIN_API_KEY: ADMIN, DB_POOL_SIZE: '8' };
  a = startService(env);
  b = startService(env);
  await Promise.all([waitForHealth(a), waitForHealth(b)]);
});
afterAll(async () => {
  for (const s of [a, b]) {
    s.child.kill('SIGTERM');
    await exited(s.child);
  }
  await db.drop();
});

/** A supervisor as a casino issues one: on the staff register, their key claimed. */
async function supervisor(name: string): Promise<string> {
  const tag = `${name}-${Math.random().toString(36).slice(2, 8)}`;
  return personKeyOn(a.url, (k) => client(a.url, k), ADMIN, { name: tag, staffId: `E-${tag}`, role: 'SUPERVISOR' });
}

async function pit(tableRules: Record<string, unknown> = {}) {
  const table = (
    await admin().post('/v1/tables', {
      code: `C-${Math.random().toString(36).slice(2, 8)}`,
      variant: 'COMMISSION',
      currency: 'EUR',
      minBet: 100,
      maxBet: 1_000_000,
      ...tableRules,
    })
  ).body;
  const terminal = (await admin().post('/v1/api-keys', { name: 't', role: 'TERMINAL', tableId: table.id })).body.key as string;
  const sup1 = await supervisor('s1');
  const sup2 = await supervisor('s2');
  const shoe = (await client(a.url, terminal).post(`/v1/tables/${table.id}/shoes`, {})).body;
  return { table, terminal, sup1, sup2, shoe };
}

const both = (key: string) => [client(a.url, key), client(b.url, key)];

describe('two service processes on one database', () => {
  it('40 coups sent at once to one shoe get the numbers 1…40, each once, every wager settled once', async () => {
    const { terminal, shoe } = await pit();
    const cards = shuffledShoe(8, seededRandom(99));
    const coups = [];
    for (let pos = 0; coups.length < 40;) {
      const d = dealPuntoBanco(cards, pos)!;
      pos += d.used;
      coups.push({
        cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) },
        wagers: [
          { seat: 1, betType: 'BANKER', amount: 1000 },
          { seat: 2, betType: 'PLAYER', amount: 500 },
        ],
      });
    }
    const [ca, cb] = both(terminal);
    const results = await Promise.all(coups.map((c, i) => (i % 2 ? ca : cb).post(`/v1/shoes/${shoe.id}/coups`, c)));
    expect(results.map((r) => r.status)).toEqual(new Array(40).fill(201));
    expect(results.map((r) => r.body.number).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const read = (await ca.get(`/v1/shoes/${shoe.id}/coups`)).body as { wagers: { status: string }[] }[];
    expect(read).toHaveLength(40);
    expect(read.flatMap((c) => c.wagers).filter((w) => w.status === 'SETTLED')).toHaveLength(80);
    expect((await ca.get(`/v1/shoes/${shoe.id}`)).body.cardsDealt).toBe(
      results.reduce((n, r) => n + r.body.cards.player.length + r.body.cards.banker.length, 0),
    );
  });

  it('withdrawing a carried tie bet while the next coup is recorded: one or the other, never both', async () => {
    for (let round = 0; round < 5; round++) {
      const { terminal, shoe } = await pit({ tieBetsStay: true });
      const [ca, cb] = both(terminal);
      const tie = await ca.post(`/v1/shoes/${shoe.id}/coups`, {
        cards: { player: ['KS', '6D'], banker: ['3H', '2C', 'AS'] },
        wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }],
      });
      const carried = tie.body.carriedForward[0].id;
      const [withdraw, next] = await Promise.all([
        ca.post(`/v1/wagers/${carried}/withdraw`),
        cb.post(`/v1/shoes/${shoe.id}/coups`, { cards: { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] } }),
      ]);
      expect(next.status).toBe(201);
      const settledInNext = next.body.wagers.some((w: { id: string }) => w.id === carried);
      if (withdraw.status === 200) expect(settledInNext).toBe(false);
      else expect([withdraw.status, withdraw.body.code, settledInNext]).toEqual([409, 'WAGER_NOT_WITHDRAWABLE', true]);
    }
  });

  it('two supervisors approving one void at once: it happens once', async () => {
    const { terminal, sup1, sup2, shoe } = await pit();
    const sup3 = await supervisor('s3');
    const coup = await client(a.url, terminal).post(`/v1/shoes/${shoe.id}/coups`, {
      cards: { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] },
      wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }],
    });
    const asked = await client(a.url, sup1).post(`/v1/coups/${coup.body.id}/void`, { reason: 'race' });
    const [x, y] = await Promise.all([
      client(a.url, sup2).post(`/v1/void-requests/${asked.body.voidRequestId}/approve`),
      client(b.url, sup3).post(`/v1/void-requests/${asked.body.voidRequestId}/approve`),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    const box = (await client(a.url, sup1).get(`/v1/shoes/${shoe.id}/commissions`)).body;
    expect(box.seats[0]).toMatchObject({ accrued: 50, voided: 50, outstanding: 0 });
  });

  it("two collections of a seat's whole commission at once: one takes it, the other finds nothing owed", async () => {
    const { terminal, sup1, sup2, shoe } = await pit();
    await client(a.url, terminal).post(`/v1/shoes/${shoe.id}/coups`, {
      cards: { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] },
      wagers: [{ seat: 4, betType: 'BANKER', amount: 10000 }],
    });
    const [x, y] = await Promise.all([
      client(a.url, sup1).post(`/v1/shoes/${shoe.id}/commissions/collections`, { seat: 4 }),
      client(b.url, sup2).post(`/v1/shoes/${shoe.id}/commissions/collections`, { seat: 4 }),
    ]);
    expect([x.status, y.status].sort()).toEqual([201, 422]);
    expect((await client(a.url, sup1).get(`/v1/shoes/${shoe.id}/commissions`)).body.seats[0]).toMatchObject({ accrued: 500, collected: 500, outstanding: 0 });
  });

  it('one Idempotency-Key sent to both processes at once executes once', async () => {
    const { terminal, shoe } = await pit();
    const [ca, cb] = both(terminal);
    const body = { cards: { player: ['9S', 'KD'], banker: ['8H', 'KC'] }, wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }] };
    const rs = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? ca : cb).post(`/v1/shoes/${shoe.id}/coups`, body, { 'Idempotency-Key': 'one-coup' })),
    );
    expect(rs.every((r) => r.status === 201 || (r.status === 409 && r.body.code === 'IDEMPOTENCY_IN_PROGRESS'))).toBe(true);
    expect(new Set(rs.filter((r) => r.status === 201).map((r) => r.body.id)).size).toBe(1);
    expect((await ca.get(`/v1/shoes/${shoe.id}`)).body.coupCount).toBe(1);
  });

  it('afterwards the rollups equal the raw records and the audit chains hold', async () => {
    const auditor = await personKeyOn(a.url, (k) => client(a.url, k), ADMIN, { name: 'aud', staffId: 'E-aud', role: 'AUDITOR' });
    const day = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const rec = await client(a.url, auditor).get(`/v1/reports/reconciliation?from=${from}&to=${day}`);
    expect([rec.status, rec.body.ok, rec.body.differences]).toEqual([200, true, []]);
    expect((await client(b.url, auditor).get('/v1/audit/verify')).body).toMatchObject({ ok: true });
  });
});
