import { connect, NatsConnection } from 'nats';
import type { SabotEvent } from '../../../src/operations/events/event';
import { anotherInstance, listening, startTestApp, TestContext } from '../../support/app';
import { dealtHands, givenKey, givenPit, givenVoid } from '../../support/builders';
import { ServerSentEvent, SseClient } from '../../support/sse';

/**
 * GET /v1/tables/{id}/events: a table's events as Server-Sent Events, for live screens. With NATS
 * (the machine's), served by any instance from the stream that another instance's relay publishes;
 * without NATS, from the audit log. Every event once, in order; Last-Event-ID resumes where a
 * dropped connection left off.
 */
jest.setTimeout(120_000);
const MACHINE_NATS = 'nats://127.0.0.1:4222';

const events = (frames: ServerSentEvent[]): SabotEvent[] =>
  frames.map((f) => {
    expect(f.event).toBe('message');
    const e = JSON.parse(f.data) as SabotEvent;
    expect(f.id).toBe(e.id);
    return e;
  });

async function coups(ctx: TestContext, key: string, shoeId: string, hands: { player: string[]; banker: string[] }[]): Promise<string[]> {
  const ids: string[] = [];
  for (const cards of hands) {
    const res = await ctx
      .as(key)
      .post(`/v1/shoes/${shoeId}/coups`)
      .send({ cards, wagers: [{ seat: 2, betType: 'PLAYER', amount: 500 }] });
    expect(res.status).toBe(201);
    ids.push(res.body.id as string);
  }
  return ids;
}

describe.each([
  ['with NATS, served by a second instance', true],
  ['without NATS, read from the audit log', false],
])('table events %s', (_name, nats) => {
  const stream = `SABOT_T${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
  const env = nats ? { NATS_URL: MACHINE_NATS, EVENTS_STREAM: stream } : {};
  let ctx: TestContext;
  let screens: { url: string; close(): Promise<void> };
  let nc: NatsConnection | null = null;
  const open: SseClient[] = [];
  const sse = async (tableId: string, key: string, lastEventId?: string) => {
    const c = await SseClient.open(`${screens.url}/v1/tables/${tableId}/events`, key, lastEventId);
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    // One instance takes the coups, another serves the screens: what the second sends comes from
    // the stream (both relay, as every instance does; JetStream keeps each event once).
    ctx = await startTestApp(env);
    screens = await anotherInstance(ctx, env);
    if (nats) nc = await connect({ servers: MACHINE_NATS });
  });
  afterAll(async () => {
    // Streams still open: stopping the instance ends them (else it would wait for them forever).
    await screens.close();
    for (const c of open) await c.close();
    await ctx.close();
    if (nc) {
      await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
      await nc.close();
    }
  });

  it('opens with where it starts, then sends each change once, in order, as it happens', async () => {
    const pit = await givenPit(ctx, { code: `SSE-A${nats ? 1 : 0}` });
    const screen = await sse(pit.table.id, pit.supervisor);
    expect(screen.status).toBe(200);
    expect(screen.contentType).toBe('text/event-stream; charset=utf-8');
    const [ready] = await screen.take(1);
    // The table's own stream so far holds its shoe's opening (the table's creation is the admin stream's).
    expect(ready).toMatchObject({ event: 'ready' });
    expect(JSON.parse(ready.data)).toEqual({ stream: pit.table.id, after: 1, head: 1 });

    const ids = await coups(ctx, pit.terminal, pit.shoe.id, dealtHands(8, 3, 3));
    const got = events(await screen.take(3));
    expect(got.map((e) => [e.seq, e.type, e.entity.id])).toEqual([
      [2, 'coup.settle', ids[0]],
      [3, 'coup.settle', ids[1]],
      [4, 'coup.settle', ids[2]],
    ]);
    expect(got[0]).toMatchObject({ id: `${pit.table.id}:2`, version: 1, stream: pit.table.id, data: { number: 1 } });

    // A refused coup sends nothing; a void sends its request and the void itself.
    expect(
      (
        await ctx
          .as(pit.terminal)
          .post(`/v1/shoes/${pit.shoe.id}/coups`)
          .send({ cards: { player: ['9S', 'KD'], banker: ['7H', 'KC', '2D'] } })
      ).status,
    ).toBe(422);
    const second = await givenKey(ctx, 'SUPERVISOR');
    await givenVoid(ctx, 'coups', ids[2], 'Card exposed', pit.supervisor, second);
    const after = events(await screen.take(3));
    expect(after.map((e) => [e.seq, e.type])).toEqual([
      [5, 'void.request'],
      [6, 'coup.void'],
      [7, 'void.approve'],
    ]);
    expect(screen.pending()).toEqual([]);
  });

  it('resumes after Last-Event-ID with what the screen missed, then goes on live', async () => {
    const pit = await givenPit(ctx, { code: `SSE-B${nats ? 1 : 0}` });
    const hands = dealtHands(8, 11, 6);
    const first = await sse(pit.table.id, pit.terminal);
    await first.take(1);
    await coups(ctx, pit.terminal, pit.shoe.id, hands.slice(0, 2));
    const seen = events(await first.take(2));
    await first.close();
    // The screen is away (a dropped Wi-Fi) while two coups are dealt.
    await coups(ctx, pit.terminal, pit.shoe.id, hands.slice(2, 4));
    const back = await sse(pit.table.id, pit.terminal, seen[1].id);
    const [ready] = await back.take(1);
    expect(JSON.parse(ready.data)).toEqual({ stream: pit.table.id, after: 3, head: 5 });
    expect(events(await back.take(2)).map((e) => e.seq)).toEqual([4, 5]);
    await coups(ctx, pit.terminal, pit.shoe.id, hands.slice(4, 6));
    expect(events(await back.take(2)).map((e) => e.seq)).toEqual([6, 7]);
    // From the start: the seq alone is a Last-Event-ID too.
    const all = await sse(pit.table.id, pit.terminal, '0');
    await all.take(1);
    expect(events(await all.take(7)).map((e) => e.type)).toEqual(['shoe.open', ...Array<string>(6).fill('coup.settle')]);
  });

  it('a stream whose key is revoked ends: an end event, no event after it, and the key cannot open it again', async () => {
    const pit = await givenPit(ctx, { code: `SSE-K${nats ? 1 : 0}` });
    // A screen on its own key (a terminal's key for the table), and another screen on a key that stays.
    const minted = await ctx.admin.post('/v1/api-keys', { name: 'Screen of SSE-K', role: 'TERMINAL', tableId: pit.table.id });
    expect(minted.status).toBe(201);
    const screen = await sse(pit.table.id, minted.body.key as string);
    const stays = await sse(pit.table.id, pit.supervisor);
    for (const s of [screen, stays]) expect((await s.take(1))[0].event).toBe('ready');
    const hands = dealtHands(8, 17, 3);
    const [first] = await coups(ctx, pit.terminal, pit.shoe.id, hands.slice(0, 1));
    for (const s of [screen, stays]) expect(events(await s.take(1)).map((e) => e.entity.id)).toEqual([first]);

    expect((await ctx.admin.post(`/v1/api-keys/${minted.body.id}/revoke`, {})).status).toBe(200);
    // The end comes at the next check of the open streams' keys: waited for, not slept for.
    await screen.ended();
    const [end, ...after] = screen.pending();
    expect(end).toMatchObject({ event: 'end' });
    expect(JSON.parse(end.data)).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(after).toEqual([]);

    // The table goes on: the other screen sees the next coups, the revoked one nothing more.
    const later = await coups(ctx, pit.terminal, pit.shoe.id, hands.slice(1, 3));
    expect(events(await stays.take(2)).map((e) => e.entity.id)).toEqual(later);
    expect(screen.pending()).toEqual([end]);
    const again = await SseClient.open(`${screens.url}/v1/tables/${pit.table.id}/events`, minted.body.key as string);
    expect([again.status, (JSON.parse(again.body) as { code: string }).code]).toEqual([401, 'UNAUTHENTICATED']);
  });

  it('a key revoked before an event is written never sees that event: the stream ends first, whenever its keys were last checked', async () => {
    const pit = await givenPit(ctx, { code: `SSE-R${nats ? 1 : 0}` });
    const minted = await ctx.admin.post('/v1/api-keys', { name: 'Screen of SSE-R', role: 'TERMINAL', tableId: pit.table.id });
    expect(minted.status).toBe(201);
    const screen = await sse(pit.table.id, minted.body.key as string);
    const stays = await sse(pit.table.id, pit.supervisor);
    for (const s of [screen, stays]) expect((await s.take(1))[0].event).toBe('ready');
    const hands = dealtHands(8, 23, 2);
    const [first] = await coups(ctx, pit.terminal, pit.shoe.id, hands.slice(0, 1));
    for (const s of [screen, stays]) expect(events(await s.take(1)).map((e) => e.entity.id)).toEqual([first]);

    // Revoked, then at once a coup: no waiting for the periodic check of the open streams' keys.
    await ctx.admin.post(`/v1/api-keys/${minted.body.id}/revoke`, {}).expect(200);
    const [second] = await coups(ctx, pit.terminal, pit.shoe.id, hands.slice(1, 2));
    expect(events(await stays.take(1)).map((e) => e.entity.id)).toEqual([second]);
    await screen.ended();
    const [end, ...after] = screen.pending();
    expect(end).toMatchObject({ event: 'end' });
    expect(JSON.parse(end.data)).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(after).toEqual([]);
  });

  it('many screens of one table see the same events in the same order while coups are dealt fast', async () => {
    const pit = await givenPit(ctx, { code: `SSE-C${nats ? 1 : 0}` });
    const many = await Promise.all([1, 2, 3, 4].map(() => sse(pit.table.id, pit.supervisor)));
    for (const s of many) await s.take(1);
    await coups(ctx, pit.terminal, pit.shoe.id, dealtHands(6, 5, 20));
    const seen = await Promise.all(many.map(async (s) => events(await s.take(20)).map((e) => e.seq)));
    const expected = Array.from({ length: 20 }, (_, i) => i + 2);
    for (const s of seen) expect(s).toEqual(expected);
  });
});

describe('table events: refused requests, and several tables on one connection', () => {
  let ctx: TestContext;
  let url: string;
  beforeAll(async () => {
    ctx = await startTestApp();
    url = await listening(ctx.app);
  });
  afterAll(() => ctx.close());

  const openRefused = async (path: string, key: string, lastEventId?: string) => {
    const c = await SseClient.open(`${url}${path}`, key, lastEventId);
    expect(c.contentType).toMatch(/^application\/json/);
    return { status: c.status, body: JSON.parse(c.body) as { code: string; message: string } };
  };

  it('answers a clear error in JSON, never a stream, for what it cannot serve', async () => {
    const pit = await givenPit(ctx, { code: 'SSE-R' });
    const other = await givenPit(ctx, { code: 'SSE-R2' });
    expect(await openRefused(`/v1/tables/00000000-0000-4000-8000-000000000000/events`, pit.supervisor)).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect(await openRefused(`/v1/tables/not-a-uuid/events`, pit.supervisor)).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(await openRefused(`/v1/tables/${other.table.id}/events`, pit.terminal)).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    expect(await openRefused(`/v1/tables/${pit.table.id}/events`, 'no-such-key')).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
    for (const bad of [`${other.table.id}:3`, 'x', '-1', '1.5', '99999999999999999', `${pit.table.id}:`]) {
      const refused = await openRefused(`/v1/tables/${pit.table.id}/events`, pit.supervisor, bad);
      expect(refused).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
      expect(refused.body.message).toContain('Last-Event-ID');
    }
  });

  it("sends each table's events in that table's order, from now on", async () => {
    const a = await givenPit(ctx, { code: 'SSE-M1', pit: 'P9' });
    const b = await givenPit(ctx, { code: 'SSE-M2', pit: 'P9' });
    const supervisor = await givenKey(ctx, 'FINANCE');
    const c = await SseClient.open(`${url}/v1/events?tables=${a.table.id},${b.table.id}`, supervisor);
    expect(c.status).toBe(200);
    const [ready] = await c.take(1);
    expect(JSON.parse(ready.data)).toEqual({
      tables: [
        { stream: a.table.id, after: 1, head: 1 },
        { stream: b.table.id, after: 1, head: 1 },
      ],
    });
    const hands = dealtHands(8, 21, 6);
    for (let i = 0; i < 3; i++) {
      await coups(ctx, a.terminal, a.shoe.id, [hands[2 * i]]);
      await coups(ctx, b.terminal, b.shoe.id, [hands[2 * i + 1]]);
    }
    const got = events(await c.take(6));
    for (const t of [a, b]) expect(got.filter((e) => e.stream === t.table.id).map((e) => e.seq)).toEqual([2, 3, 4]);
    await c.close();
  });

  it('a connection for several tables ends too when its key is revoked', async () => {
    const a = await givenPit(ctx, { code: 'SSE-MK' });
    const minted = (await ctx.admin.post('/v1/api-keys', { name: 'Overview of SSE-MK', role: 'TERMINAL', tableId: a.table.id }).expect(201)).body;
    const c = await SseClient.open(`${url}/v1/events?tables=${a.table.id}`, minted.key as string);
    expect((await c.take(1))[0].event).toBe('ready');
    await ctx.admin.post(`/v1/api-keys/${minted.id}/revoke`, {}).expect(200);
    await c.ended();
    expect(c.pending().map((e) => e.event)).toEqual(['end']);
  });

  it('refuses a list that is not table ids, a table that does not exist, or a table a terminal may not see', async () => {
    const a = await givenPit(ctx, { code: 'SSE-M3' });
    const b = await givenPit(ctx, { code: 'SSE-M4' });
    const refused = async (query: string, key = a.supervisor) => {
      const c = await SseClient.open(`${url}/v1/events${query}`, key);
      return { status: c.status, code: (JSON.parse(c.body) as { code: string }).code };
    };
    expect(await refused('')).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    expect(await refused('?tables=')).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    expect(await refused(`?tables=${a.table.id};DROP`)).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    expect(await refused(`?tables=${Array(101).fill(a.table.id).join(',')}`)).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    expect(await refused(`?tables=${a.table.id},00000000-0000-4000-8000-000000000000`)).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(await refused(`?tables=${a.table.id},${b.table.id}`, a.terminal)).toEqual({ status: 403, code: 'FORBIDDEN' });
  });
});
