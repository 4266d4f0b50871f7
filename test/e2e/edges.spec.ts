import request from 'supertest';
import type { App } from 'supertest/types';
import { parse } from 'csv-parse/sync';
import { ADMIN_KEY, databaseSnapshot, startTestApp, TestContext } from '../support/app';
import { givenKey, givenPit, givenTable } from '../support/builders';

/**
 * Inputs found by clients nobody here wrote. Each case failed before its fix; every refused request
 * leaves every row of every table as it was.
 */
let ctx: TestContext;
let pit: Awaited<ReturnType<typeof givenPit>>;
beforeAll(async () => {
  ctx = await startTestApp();
  pit = await givenPit(ctx, { code: 'EDGE-1', minBet: 100, maxBet: 100_000 });
});
afterAll(() => ctx.close());

async function refusedLeavingEverything(send: () => Promise<request.Response>, status: number, code: string): Promise<request.Response> {
  const before = await databaseSnapshot(ctx.prisma);
  const res = await send();
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
  return res;
}

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const server = () => ctx.app.getHttpServer() as App;
const raw = (path: string, body: string, key: string) =>
  request(server()).post(path).set('Authorization', `Bearer ${key}`).set('Content-Type', 'application/json').send(body);

describe('a deeply nested body', () => {
  it.each([
    ['/v1/odds', () => ctx.admin],
    ['/v1/shoes/{shoe}/coups', () => ctx.as(pit.terminal)],
    ['/v1/tables', () => ctx.admin],
  ])('is refused early with 400 VALIDATION_FAILED on %s, for 5,000 levels and for a wrapped one', async (path) => {
    const key = path.includes('coups') ? pit.terminal : ADMIN_KEY;
    const at = path.replace('{shoe}', pit.shoe.id);
    const res = await refusedLeavingEverything(() => raw(at, deep(5000), key), 400, 'VALIDATION_FAILED');
    expect(res.body.message).toContain('nested more than 16 levels');
    await refusedLeavingEverything(() => raw(at, `{"cards":{"player":${deep(3000)}}}`, key), 400, 'VALIDATION_FAILED');
  });
});

describe('prototype keys', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('a body with a %s key is refused like any unknown field, at the top or nested', async (k) => {
    const t = pit.terminal;
    const top = await refusedLeavingEverything(
      () => raw(`/v1/shoes/${pit.shoe.id}/coups`, `{"${k}":{"admin":true},"cards":{"player":["9S","KD"],"banker":["8H","KC"]}}`, t),
      400,
      'VALIDATION_FAILED',
    );
    expect(top.body.message).toBe(`${k} is not a field of this request`);
    const nested = await refusedLeavingEverything(
      () =>
        raw(
          `/v1/shoes/${pit.shoe.id}/coups`,
          `{"cards":{"player":["9S","KD"],"banker":["8H","KC"]},"wagers":[{"seat":1,"betType":"BANKER","amount":1000,"${k}":{"x":1}}]}`,
          t,
        ),
      400,
      'VALIDATION_FAILED',
    );
    expect(nested.body.message).toBe(`wagers[0].${k} is not a field of this request`);
  });
});

describe('text that is not Unicode', () => {
  it('a lone surrogate in a value or a field name is refused with 400, never a 500 from hashing the body', async () => {
    const withKey = (body: string) =>
      request(server())
        .post(`/v1/shoes/${pit.shoe.id}/coups`)
        .set('Authorization', `Bearer ${pit.terminal}`)
        .set('Idempotency-Key', 'surrogate')
        .set('Content-Type', 'application/json')
        .send(body);
    const value = await refusedLeavingEverything(
      () => withKey('{"wagers":[{"seat":1,"betType":"BANKER","amount":1000,"patronId":"P-\\ud800"}]}'),
      400,
      'VALIDATION_FAILED',
    );
    expect(value.body.message).toContain('wagers[0].patronId holds text that is not well-formed Unicode');
    await refusedLeavingEverything(() => withKey('{"\\udc00":1}'), 400, 'VALIDATION_FAILED');
  });
});

describe('dates: one rule on every route', () => {
  it.each([
    ['/v1/audit?from=2026-13-01'],
    ['/v1/audit?to=2026-02-30'],
    ['/v1/audit?from=2026-02-28T24:00:00Z'],
    ['/v1/reports/win-loss?from=2026-02-30&to=2026-03-01'],
    ['/v1/reports/table-accounting?from=2026-01-01&to=2026-13-01'],
  ])('%s is 400 VALIDATION_FAILED', async (path) => {
    const res = await refusedLeavingEverything(() => ctx.admin.get(path), 400, 'VALIDATION_FAILED');
    expect(res.body.message).toMatch(/must be (a calendar date|an ISO 8601 date or date-time naming a real day)/);
  });

  it('real days and times are answered', async () => {
    await ctx.admin.get('/v1/audit?from=2026-02-28&to=2026-03-01T06:00:00%2B01:00').expect(200);
    await ctx.admin.get('/v1/reports/win-loss?from=2024-02-29&to=2024-02-29').expect(200);
  });
});

describe('CSV answers a spreadsheet opens', () => {
  it('neutralise values a spreadsheet would run as formulas (OWASP): =, +, -, @, tab and carriage return; numbers stay numbers', async () => {
    const hostile = ['=HYPERLINK("http://x","Click")', '+1+1', '-2+3', '@SUM(A1:A9)', '\tTAB', '\rCR'];
    const finance = await givenKey(ctx, 'FINANCE');
    for (const [i, pitName] of hostile.entries()) {
      const t = await givenTable(ctx, { code: `CSV-${i}`, pit: pitName, minBet: 100, maxBet: 100_000 });
      const terminal = await givenKey(ctx, 'TERMINAL', t.id);
      const shoe = (await ctx.as(terminal).post(`/v1/tables/${t.id}/shoes`, {}).expect(201)).body;
      // Player 9 beats banker 8: the house loses 1,000 on the table (a negative number in the CSV).
      await ctx
        .as(terminal)
        .post(`/v1/shoes/${shoe.id}/coups`, { cards: { player: ['9S', 'KD'], banker: ['8H', 'KC'] }, wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }] })
        .expect(201);
    }
    const day = (await ctx.admin.get(`/v1/shoes/${pit.shoe.id}`)).body.openedAt.slice(0, 10);
    const from = new Date(Date.parse(day) - 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
    const res = await ctx.as(finance).get(`/v1/reports/win-loss?from=${from}&to=${to}&groupBy=pit`).set('Accept', 'text/csv').expect(200);
    const rows: Record<string, string>[] = parse(res.text, { columns: true });
    const pits = rows.map((r) => r.pit).filter((p) => p !== '');
    for (const h of hostile) expect(pits).toContain(`'${h}`);
    for (const p of pits) expect(p).not.toMatch(/^[=+\-@\t\r]/);
    const hostileRow = rows.find((r) => r.pit === `'${hostile[0]}`)!;
    expect(hostileRow.win).toBe('-1000');
  });
});

describe('an Idempotency-Key whose first request failed with the database unreachable', () => {
  it('is played as soon as the database answers, not held for 30 s as IDEMPOTENCY_IN_PROGRESS', async () => {
    const table = await givenTable(ctx, { code: 'IDEM-503', minBet: 100, maxBet: 100_000 });
    const terminal = await givenKey(ctx, 'TERMINAL', table.id);
    const first = (await ctx.as(terminal).post(`/v1/tables/${table.id}/shoes`, {}).expect(201)).body;
    // The database refuses to release claims, as it does while it is down: the first request fails
    // (the table already has an open shoe) and its claim stays behind.
    await ctx.prisma.$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION refuse_release() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'database unavailable'; END $$`,
    );
    await ctx.prisma.$executeRawUnsafe(`CREATE TRIGGER refuse_release BEFORE DELETE ON idempotency_records FOR EACH ROW EXECUTE FUNCTION refuse_release()`);
    const send = () => ctx.as(terminal).post(`/v1/tables/${table.id}/shoes`, {}).set('Idempotency-Key', 'IDEM-503-shoe-2');
    try {
      expect((await send()).body.code).toBe('SHOE_ALREADY_OPEN');
      // Nothing of the key is held: its record is written only with a change that commits.
      expect(await ctx.prisma.idempotencyRecord.count({ where: { key: 'IDEM-503-shoe-2' } })).toBe(0);
    } finally {
      await ctx.prisma.$executeRawUnsafe('DROP TRIGGER refuse_release ON idempotency_records');
    }
    // The database is back. The shoe is closed; the retry with the same key opens the next one at once.
    await ctx.as(terminal).post(`/v1/shoes/${first.id}/close`).expect(200);
    const retried = await send();
    expect({ status: retried.status, number: retried.body.number }).toEqual({ status: 201, number: 2 });
    // And a second retry gets the stored answer.
    const replay = await send();
    expect({ status: replay.status, id: replay.body.id, replayed: replay.headers['idempotent-replayed'] }).toEqual({
      status: 201,
      id: retried.body.id,
      replayed: 'true',
    });
  });
});

describe("a terminal's key reads what it writes", () => {
  it('lists only its own table and property; another property is forbidden', async () => {
    const property = (await ctx.admin.post('/v1/properties', { name: 'Elsewhere', timeZone: 'Asia/Macau', gamingDayStartHour: 6 }).expect(201)).body;
    await givenTable(ctx, { code: 'ELSEWHERE-1', propertyId: property.id });
    const t = ctx.as(pit.terminal);
    expect((await t.get('/v1/tables').expect(200)).body.map((x: { id: string }) => x.id)).toEqual([pit.table.id]);
    expect((await t.get(`/v1/tables?propertyId=${property.id}`).expect(200)).body).toEqual([]);
    expect((await t.get('/v1/properties').expect(200)).body.map((x: { id: string }) => x.id)).toEqual([pit.table.propertyId]);
    await t.get(`/v1/properties/${pit.table.propertyId}`).expect(200);
    expect((await t.get(`/v1/properties/${property.id}`).expect(403)).body.code).toBe('FORBIDDEN');
    // Other roles still see everything.
    expect((await ctx.as(pit.supervisor).get('/v1/properties').expect(200)).body.length).toBeGreaterThanOrEqual(2);
  });
});

describe('ten void requests for one coup at once', () => {
  it('one is taken; the nine others are all VOID_ALREADY_REQUESTED', async () => {
    const coup = (
      await ctx
        .as(pit.terminal)
        .post(`/v1/shoes/${pit.shoe.id}/coups`, {
          cards: { player: ['9S', 'KD'], banker: ['8H', 'KC'] },
          wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }],
        })
        .expect(201)
    ).body;
    const supervisors = await Promise.all([...Array(10)].map(() => givenKey(ctx, 'SUPERVISOR')));
    const answers = await Promise.all(supervisors.map((k) => ctx.as(k).post(`/v1/coups/${coup.id}/void`, { reason: 'keyed twice' })));
    const codes = answers.map((a) => (a.status === 202 ? 'ACCEPTED' : a.body.code)).sort();
    expect(codes).toEqual(['ACCEPTED', ...Array(9).fill('VOID_ALREADY_REQUESTED')]);
    expect(await ctx.prisma.voidRequest.count({ where: { targetId: coup.id } })).toBe(1);
  });
});
