import fs from 'node:fs';
import path from 'node:path';
import { listening, startTestApp, TestContext } from '../../support/app';
import { dealtHands, givenKey, givenPatrons, givenPit, givenTable, givenVoid } from '../../support/builders';
import { SseClient } from '../../support/sse';

/**
 * The table-side display (issue 39): a DISPLAY key bound to one table reads that table's board
 * (GET /v1/tables/{id}/display) and its change stream (GET /v1/tables/{id}/display/events), and
 * nothing else. What the board and the stream carry is what the players may see: the raw answers
 * are searched for the wagers' amounts, seats and patron cards dealt into the shoe.
 */
jest.setTimeout(120_000);
const MACHINE_NATS = 'nats://127.0.0.1:4222';

/** Distinctive amounts and cards no board may ever show. */
const SECRET_AMOUNTS = [987_654, 876_543];
const PATRON = 'P-DISPLAY-4711';

let ctx: TestContext;
let url: string;
const open: SseClient[] = [];
const sse = async (p: string, key: string, lastEventId?: string) => {
  const c = await SseClient.open(`${url}${p}`, key, lastEventId);
  open.push(c);
  return c;
};
const stream = `SABOT_D${Math.random().toString(36).slice(2, 8).toUpperCase()}`;

beforeAll(async () => {
  ctx = await startTestApp({ NATS_URL: MACHINE_NATS, EVENTS_STREAM: stream });
  url = await listening(ctx.app);
});
afterAll(async () => {
  for (const c of open) await c.close();
  await ctx.close();
});

/** Every leak the board and the stream must not have: the amounts, the patron's card, seats and wagers named. */
function expectNothingPrivate(raw: string): void {
  for (const a of SECRET_AMOUNTS) {
    expect(raw).not.toContain(String(a));
    expect(raw).not.toContain(a.toLocaleString('en-US'));
  }
  expect(raw).not.toContain(PATRON); // every patron seated here has a card starting so
  // No field of the kind (the variant COMMISSION is a game's name, not a figure; a bet's
  // commissionBps is the rate printed on the layout, and may only be a rate).
  expect(/"(seats?|wagers?|patron\w*|amount|stakes?|commission(?!Bps")\w*|handle|win|drop|dealer\w*)":/i.exec(raw)?.[0] ?? null).toBeNull();
  for (const m of raw.matchAll(/"commissionBps":(-?\d+)/g)) expect(Number(m[1])).toBeLessThanOrEqual(10_000);
}

/** A pit with a patron seated at 3 and coups dealt with the distinctive wagers, the second voided. */
async function playedPit(code: string) {
  const patron = `${PATRON}-${code}`;
  await givenPatrons(ctx, patron);
  const pit = await givenPit(ctx, { code, minBet: 2_500, maxBet: 1_000_000, tiePays: '9 to 1', sideBets: ['PLAYER_PAIR', 'BANKER_PAIR'] });
  const display = await givenKey(ctx, 'DISPLAY', pit.table.id);
  const t = ctx.as(pit.terminal);
  expect((await t.post(`/v1/tables/${pit.table.id}/seatings`, { patronId: patron, seat: 3 })).status).toBe(201);
  const ids: string[] = [];
  for (const cards of dealtHands(8, 39, 6)) {
    const res = await t.post(`/v1/shoes/${pit.shoe.id}/coups`, {
      cards,
      wagers: [
        { seat: 3, betType: 'BANKER', amount: SECRET_AMOUNTS[0] },
        { seat: 5, betType: 'PLAYER', amount: SECRET_AMOUNTS[1] },
      ],
    });
    expect(res.status).toBe(201);
    ids.push(res.body.id as string);
  }
  const second = await givenKey(ctx, 'SUPERVISOR');
  await givenVoid(ctx, 'coups', ids[1], 'dealt from the wrong shoe', pit.supervisor, second);
  return { ...pit, display, coupIds: ids };
}

describe('DISPLAY keys', () => {
  it('are bound to one table like a terminal key: tableId required, staffId refused', async () => {
    const table = await givenTable(ctx);
    const noTable = await ctx.admin.post('/v1/api-keys', { name: 'screen', role: 'DISPLAY' });
    expect([noTable.status, noTable.body.code, noTable.body.message]).toEqual([
      400,
      'VALIDATION_FAILED',
      'A DISPLAY key must name the table it serves (tableId)',
    ]);
    const person = await ctx.admin.post('/v1/api-keys', { name: 'screen', role: 'DISPLAY', tableId: table.id, staffId: 'E-1' });
    expect([person.status, person.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const made = await ctx.admin.post('/v1/api-keys', { name: 'screen', role: 'DISPLAY', tableId: table.id });
    expect(made.status).toBe(201);
    expect(made.body.apiKey).toMatchObject({ role: 'DISPLAY', tableId: table.id, staffId: null });
  });

  it('are refused (403 FORBIDDEN) on every operation of openapi.json but the display board, its stream and who the key is', async () => {
    const table = await givenTable(ctx);
    const display = await givenKey(ctx, 'DISPLAY', table.id);
    const doc = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { operationId: string; security?: unknown[] }>>;
    };
    // and who the key is (GET /v1/api-keys/me), from which its screen learns its table.
    const allowed = new Set(['getTableDisplay', 'streamTableDisplayChanges', 'currentApiKey']);
    const walked: string[] = [];
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!op.security?.length || allowed.has(op.operationId)) continue;
        // Every id in the path is the display's own table: the role alone must refuse it.
        const concrete = p.replace(/\{card\}/g, PATRON).replace(/\{\w+\}/g, table.id);
        const res = method === 'get' ? await ctx.as(display).get(concrete) : await ctx.as(display).post(concrete, {});
        expect([method, p, res.status, res.body.code]).toEqual([method, p, 403, 'FORBIDDEN']);
        walked.push(op.operationId);
      }
    }
    // The walk covered the routes a screen might try: the table's full events, its shoes, coups and wagers.
    expect(walked).toEqual(expect.arrayContaining(['streamTableEvents', 'streamTablesEvents', 'getTable', 'getShoeRoads', 'listApiKeys']));
    expect(walked.length).toBeGreaterThan(100);
  });
});

describe('GET /v1/tables/{id}/display', () => {
  let pit: Awaited<ReturnType<typeof playedPit>>;
  beforeAll(async () => {
    pit = await playedPit('DISP-1');
  });

  it('shows the limits in force, the shoe, the roads as GET /v1/shoes/{id}/roads and the last results, voided ones marked', async () => {
    const res = await ctx.as(pit.display).get(`/v1/tables/${pit.table.id}/display`);
    expect(res.status).toBe(200);
    const board = res.body;
    const roads = await ctx.as(pit.supervisor).get(`/v1/shoes/${pit.shoe.id}/roads`);
    expect(roads.status).toBe(200);
    expect(board.roads).toEqual(roads.body);
    expect(board.roads.coups).toBe(5); // six dealt, one voided

    const limits = await ctx.as(pit.supervisor).get(`/v1/tables/${pit.table.id}/limits`);
    expect(board.limits).toEqual({
      minBet: limits.body.inForce.minBet,
      maxBet: limits.body.inForce.maxBet,
      since: limits.body.inForce.effectiveAt,
      bets: limits.body.inForce.bets,
    });
    expect(board.limits.bets).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ betType: 'TIE', pays: '9 to 1', commissionBps: 0, except: [] }),
        // The Banker bet says its commission, and both main bets their push on a tie.
        expect.objectContaining({ betType: 'BANKER', pays: '1 to 1', commissionBps: 500, except: [{ when: 'TIE', pays: null }] }),
        expect.objectContaining({ betType: 'PLAYER', pays: '1 to 1', commissionBps: 0, except: [{ when: 'TIE', pays: null }] }),
      ]),
    );
    expect(board).toMatchObject({ tableId: pit.table.id, code: 'DISP-1', variant: 'COMMISSION', currency: 'EUR', decks: 8, status: 'OPEN' });

    const shoe = await ctx.as(pit.supervisor).get(`/v1/shoes/${pit.shoe.id}`);
    expect(board.shoe).toEqual({ id: pit.shoe.id, number: 1, status: 'OPEN', coupsDealt: 6, cardsLeft: shoe.body.cardsLeft });

    // Newest first, each coup as the shoe recorded it, the voided one marked and still shown.
    expect(board.results.map((r: { coup: number }) => r.coup)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(board.results.map((r: { voided: boolean }) => r.voided)).toEqual([false, false, false, false, true, false]);
    const hands = dealtHands(8, 39, 6);
    for (const r of board.results) {
      const coup = shoe.body.coups.find((c: { number: number }) => c.number === r.coup);
      expect(r).toMatchObject({ winner: coup.winner, playerTotal: coup.playerTotal, bankerTotal: coup.bankerTotal, sides: null });
      expect(r.cards).toEqual({ ...hands[r.coup - 1], right: null, left: null });
    }
  });

  it('never holds a wager amount, a seat or a patron card', async () => {
    const res = await ctx.as(pit.display).get(`/v1/tables/${pit.table.id}/display`);
    expect(res.status).toBe(200);
    expectNothingPrivate(res.text);
  });

  it('keeps the last 20 results', async () => {
    const more = await givenPit(ctx, { code: 'DISP-20' });
    for (const cards of dealtHands(8, 7, 23)) expect((await ctx.as(more.terminal).post(`/v1/shoes/${more.shoe.id}/coups`, { cards })).status).toBe(201);
    const board = (await ctx.as(more.supervisor).get(`/v1/tables/${more.table.id}/display`)).body;
    expect(board.results.map((r: { coup: number }) => r.coup)).toEqual(Array.from({ length: 20 }, (_, i) => 23 - i));
    expect(board.roads.coups).toBe(23);
  });

  it('is 404 for a table that does not exist, 403 for another table display key, and shows a closed table its last board', async () => {
    const missing = await ctx.as(pit.supervisor).get('/v1/tables/00000000-0000-4000-8000-00000000dead/display');
    expect([missing.status, missing.body.code]).toEqual([404, 'NOT_FOUND']);
    const other = await givenTable(ctx);
    const elsewhere = await ctx.as(await givenKey(ctx, 'DISPLAY', other.id)).get(`/v1/tables/${pit.table.id}/display`);
    expect([elsewhere.status, elsewhere.body.code]).toEqual([403, 'FORBIDDEN']);
    const ownOnMissing = await ctx.as(pit.display).get('/v1/tables/00000000-0000-4000-8000-00000000dead/display');
    expect([ownOnMissing.status, ownOnMissing.body.code]).toEqual([403, 'FORBIDDEN']);
    // Every role that reads tables reads the board too.
    for (const role of ['FINANCE', 'AUDITOR', 'HOST', 'SURVEILLANCE', 'COMPLIANCE', 'CASHIER'])
      expect((await ctx.as(await givenKey(ctx, role)).get(`/v1/tables/${pit.table.id}/display`)).status).toBe(200);
    expect((await ctx.as(pit.terminal).get(`/v1/tables/${pit.table.id}/display`)).status).toBe(200);

    const closed = await givenPit(ctx, { code: 'DISP-CLOSED' });
    const display = await givenKey(ctx, 'DISPLAY', closed.table.id);
    for (const cards of dealtHands(8, 3, 4)) await ctx.as(closed.terminal).post(`/v1/shoes/${closed.shoe.id}/coups`, { cards }).expect(201);
    const before = (await ctx.as(display).get(`/v1/tables/${closed.table.id}/display`)).body;
    await ctx.as(closed.terminal).post(`/v1/shoes/${closed.shoe.id}/close`, {}).expect(200);
    await ctx.as(closed.supervisor).post(`/v1/tables/${closed.table.id}/close`, {}).expect(200);
    const after = await ctx.as(display).get(`/v1/tables/${closed.table.id}/display`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ ...before, status: 'CLOSED', shoe: { ...before.shoe, status: 'CLOSED' } });
    expect(after.body.results).toHaveLength(4);
  });

  it('a table never dealt shows its limits and no shoe', async () => {
    const table = await givenTable(ctx, { code: 'DISP-NEW' });
    const board = (await ctx.as(await givenKey(ctx, 'DISPLAY', table.id)).get(`/v1/tables/${table.id}/display`)).body;
    expect(board).toMatchObject({ code: 'DISP-NEW', shoe: null, roads: null, results: [], limits: { minBet: 100, maxBet: 1_000_000 } });
  });

  it('a chemin de fer table: the punters against the banker on the roads; banque: each side against the banker, no road', async () => {
    const chemmy = await givenPit(ctx, { code: 'DISP-CHEMMY', variant: 'CHEMIN_DE_FER' });
    const t = ctx.as(chemmy.terminal);
    const bank = (await t.post(`/v1/shoes/${chemmy.shoe.id}/banks`, { bankerSeat: 1, amount: 10_000, rotation: [1, 2, 3, 4, 5, 6] })).body;
    await t.post(`/v1/banks/${bank.id}/coups`, { cards: { player: ['KS', '5D'], banker: ['7H', 'KC'] }, stakes: [{ seat: 2, amount: 3_000 }] }).expect(201);
    await t.post(`/v1/banks/${bank.id}/coups`, { cards: { player: ['9S', 'KD'], banker: ['8H', 'KC'] }, stakes: [{ seat: 4, call: 'BANCO' }] }).expect(201);
    const board = (await ctx.as(await givenKey(ctx, 'DISPLAY', chemmy.table.id)).get(`/v1/tables/${chemmy.table.id}/display`)).body;
    expect(board.limits.bets).toEqual([]);
    expect(board.roads.counts).toEqual({ banker: 1, player: 1, tie: 0, playerPairs: 0, bankerPairs: 0 });
    expect(board.roads.beadPlate.cells.map((c: { winner: string }) => c.winner)).toEqual(['BANKER', 'PLAYER']);
    expect(board.results).toMatchObject([
      { coup: 2, winner: 'PLAYER', playerTotal: 9, bankerTotal: 8, natural: true, voided: false, cards: { player: ['9S', 'KD'], banker: ['8H', 'KC'] } },
      { coup: 1, winner: 'BANKER', playerTotal: 5, bankerTotal: 7, natural: false, voided: false },
    ]);
    expect(JSON.stringify(board)).not.toMatch(/3000|"stake"|"seat"/);

    const banque = await givenPit(ctx, { code: 'DISP-BANQUE', variant: 'BANQUE' });
    const b = ctx.as(banque.terminal);
    const bbank = (await b.post(`/v1/shoes/${banque.shoe.id}/banks`, { bankerSeat: 1, amount: 10_000, rotation: [1, 2, 3, 4, 5, 6] })).body;
    const played = await b.post(`/v1/banks/${bbank.id}/coups`, {
      cards: { right: ['9S', 'KD'], left: ['2S', '3D'], banker: ['7H', 'KC'] },
      stakes: [{ seat: 2, side: 'RIGHT', amount: 1_000 }],
    });
    expect(played.status).toBe(201);
    const bboard = (await ctx.as(banque.supervisor).get(`/v1/tables/${banque.table.id}/display`)).body;
    expect(bboard.roads).toBeNull();
    expect(bboard.results).toMatchObject([
      {
        coup: 1,
        winner: null,
        playerTotal: null,
        bankerTotal: 7,
        natural: true,
        cards: { player: null, right: ['9S', 'KD'], left: ['2S', '3D'], banker: ['7H', 'KC'] },
        sides: [
          { side: 'RIGHT', winner: 'PUNTER', total: 9 },
          { side: 'LEFT', winner: 'BANKER', total: 5 },
        ],
      },
    ]);
  });
});

describe('GET /v1/tables/{id}/display/events', () => {
  it('says the board changed, with the seq as id and no event data; a coup recorded makes it emit', async () => {
    const pit = await playedPit('DISP-SSE');
    const screen = await sse(`/v1/tables/${pit.table.id}/display/events`, pit.display);
    expect([screen.status, screen.contentType]).toEqual([200, 'text/event-stream; charset=utf-8']);
    const [ready] = await screen.take(1);
    expect(ready.event).toBe('ready');
    const head = (JSON.parse(ready.data) as { head: number }).head;

    const [cards] = dealtHands(8, 40, 1);
    await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, { cards, wagers: [{ seat: 3, betType: 'TIE', amount: SECRET_AMOUNTS[0] }] })
      .expect(201);
    const [changed] = await screen.take(1);
    expect(changed.event).toBe('changed');
    expect(Number(changed.id)).toBeGreaterThan(head);
    expect(JSON.parse(changed.data)).toEqual({ seq: Number(changed.id) });

    // The full events route carries the wager (the screen must not read it), and refuses the display's key.
    const full = await sse(`/v1/tables/${pit.table.id}/events`, pit.supervisor, String(head));
    const [, ...fullEvents] = await full.take(2);
    expect(fullEvents.map((e) => e.data).join('\n')).toContain(String(SECRET_AMOUNTS[0]));
    const refused = await sse(`/v1/tables/${pit.table.id}/events`, pit.display);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).code).toBe('FORBIDDEN');

    // Reconnecting with Last-Event-ID from before the coups: one `changed` at once, to the head.
    const again = await sse(`/v1/tables/${pit.table.id}/display/events`, pit.display, '1');
    const [, caughtUp] = await again.take(2);
    expect(caughtUp).toMatchObject({ event: 'changed', id: changed.id });

    // The board after the change holds the new coup, and still nothing private.
    const board = await ctx.as(pit.display).get(`/v1/tables/${pit.table.id}/display`);
    expect(board.body.results[0].coup).toBe(7);
    expectNothingPrivate(board.text);
    await screen.close();
    await again.close();
    // Everything the display's streams sent, raw: nothing private either.
    const raw = [ready, changed, caughtUp].map((e) => `${e.event}|${e.id}|${e.data}`).join('\n');
    expectNothingPrivate(raw);
  });

  it('a Last-Event-ID past the table (a database restored to an earlier point) starts from now, and a coup still comes', async () => {
    const pit = await playedPit('DISP-SSE-AHEAD');
    const screen = await sse(`/v1/tables/${pit.table.id}/display/events`, pit.display, '500000');
    const [ready] = await screen.take(1);
    const start = JSON.parse(ready.data) as { after: number; head: number };
    expect(start.after).toBe(start.head);
    const [cards] = dealtHands(8, 41, 1);
    await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards, wagers: [] }).expect(201);
    const [changed] = await screen.take(1);
    expect(changed.event).toBe('changed');
    expect(Number(changed.id)).toBeGreaterThan(start.head);
    await screen.close();
  });

  it('is 404 for a table that does not exist, 403 for another table display key; ends when the key is revoked', async () => {
    const pit = await givenPit(ctx, { code: 'DISP-SSE-2' });
    const missing = await sse('/v1/tables/00000000-0000-4000-8000-00000000dead/display/events', pit.supervisor);
    expect(missing.status).toBe(404);
    const other = await givenTable(ctx);
    const elsewhere = await sse(`/v1/tables/${pit.table.id}/display/events`, await givenKey(ctx, 'DISPLAY', other.id));
    expect(elsewhere.status).toBe(403);

    const minted = await ctx.admin.post('/v1/api-keys', { name: 'screen to revoke', role: 'DISPLAY', tableId: pit.table.id });
    const screen = await sse(`/v1/tables/${pit.table.id}/display/events`, minted.body.key);
    await screen.take(1);
    await ctx.admin.post(`/v1/api-keys/${minted.body.id}/revoke`, {}).expect(200);
    const [end] = await screen.take(1);
    expect(end.event).toBe('end');
    expect(JSON.parse(end.data).code).toBe('UNAUTHENTICATED');
    await screen.ended();
  });
});
