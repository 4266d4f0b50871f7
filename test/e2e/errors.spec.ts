import request from 'supertest';
import type { App } from 'supertest/types';
import { databaseSnapshot, startTestApp, TestContext } from '../support/app';
import { givenKey, givenPit, givenShoe, givenTable, givenVoid } from '../support/builders';

let ctx: TestContext;
let pit: Awaited<ReturnType<typeof givenPit>>;
let other: Awaited<ReturnType<typeof givenPit>>;
let closedShoe: { id: string };
let closedTable: { id: string };
let voidedCoup: string;
let finance: string;
let plainTable: { id: string };

const BANKER_7 = { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] };

beforeAll(async () => {
  ctx = await startTestApp();
  pit = await givenPit(ctx, { code: 'ERR-1', minBet: 500, maxBet: 100_000, decks: 1, betLimits: [{ betType: 'TIE', min: 100, max: 5000 }] });
  other = await givenPit(ctx, { code: 'ERR-2' });
  finance = await givenKey(ctx, 'FINANCE');
  // A closed shoe, a closed table, a voided coup.
  const t = await givenTable(ctx, { code: 'ERR-CLOSED' });
  const k = await givenKey(ctx, 'SUPERVISOR');
  closedShoe = await givenShoe(ctx, k, t.id);
  await ctx.as(k).post(`/v1/shoes/${closedShoe.id}/close`);
  await ctx.as(k).post(`/v1/tables/${t.id}/close`);
  closedTable = t;
  const coup = await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_7 });
  voidedCoup = coup.body.id;
  await givenVoid(ctx, 'coups', voidedCoup, 'test void', pit.supervisor, await givenKey(ctx, 'SUPERVISOR'));
  plainTable = await givenTable(ctx, { code: 'ERR-PLAIN' });
});
afterAll(() => ctx.close());

const wager = (over: Record<string, unknown> = {}) => ({ seat: 1, betType: 'BANKER', amount: 1000, ...over });
const coupBody = (over: Record<string, unknown> = {}) => ({ cards: { player: ['9S', 'KD'], banker: ['8H', 'KC'] }, wagers: [wager()], ...over });

type Case = [name: string, status: number, code: string, send: () => request.Test];

const cases: Case[] = [
  // Validation: unknown fields, wrong types, fractions, negatives, malformed cards, too many cards or wagers.
  ['unknown field on a coup', 400, 'VALIDATION_FAILED', () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { ...coupBody(), dealer: 'Ann' })],
  [
    'unknown field inside a wager',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: [wager({ odds: 2 })] })),
  ],
  [
    'amount as text',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: [wager({ amount: '1000' })] })),
  ],
  [
    'fractional amount',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: [wager({ amount: 10.5 })] })),
  ],
  [
    'negative amount',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: [wager({ amount: -100 })] })),
  ],
  ['zero amount', 400, 'VALIDATION_FAILED', () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: [wager({ amount: 0 })] }))],
  ['huge amount', 400, 'VALIDATION_FAILED', () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: [wager({ amount: 1e20 })] }))],
  [
    'unknown bet type',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: [wager({ betType: 'ROULETTE' })] })),
  ],
  ['seat 0', 400, 'VALIDATION_FAILED', () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: [wager({ seat: 0 })] }))],
  [
    'malformed card',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ cards: { player: ['10H', 'KD'], banker: ['8H', 'KC'] } })),
  ],
  [
    'lower-case card',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ cards: { player: ['9s', 'KD'], banker: ['8H', 'KC'] } })),
  ],
  [
    'four cards in a hand',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ cards: { player: ['2S', '2D', '3C', '4H'], banker: ['8H', 'KC'] } })),
  ],
  [
    'one card in a hand',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ cards: { player: ['9S'], banker: ['8H', 'KC'] } })),
  ],
  [
    'cards not a list',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ cards: { player: '9S KD', banker: ['8H', 'KC'] } })),
  ],
  [
    '65 wagers',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: Array.from({ length: 65 }, () => wager()) })),
  ],
  ['body is an array', 400, 'VALIDATION_FAILED', () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, [coupBody()])],
  [
    'malformed JSON',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`).set('Content-Type', 'application/json').send('{"cards": '),
  ],
  ['id that is not a UUID', 400, 'VALIDATION_FAILED', () => ctx.as(pit.terminal).post('/v1/shoes/not-a-uuid/coups', coupBody())],
  [
    'table with maxBet below minBet',
    400,
    'VALIDATION_FAILED',
    () => ctx.admin.post('/v1/tables', { code: 'BAD', variant: 'COMMISSION', currency: 'EUR', minBet: 1000, maxBet: 10 }),
  ],
  [
    'table with a bad currency',
    400,
    'VALIDATION_FAILED',
    () => ctx.admin.post('/v1/tables', { code: 'BAD', variant: 'COMMISSION', currency: 'euro', minBet: 10, maxBet: 1000 }),
  ],
  [
    'table with a side bet on chemin de fer',
    422,
    'INVALID_RULES',
    () => ctx.admin.post('/v1/tables', { code: 'BAD', variant: 'CHEMIN_DE_FER', currency: 'EUR', minBet: 10, maxBet: 1000, sideBets: ['PLAYER_PAIR'] }),
  ],
  ['api key for a terminal without a table', 400, 'VALIDATION_FAILED', () => ctx.admin.post('/v1/api-keys', { name: 'x', role: 'TERMINAL' })],
  ['void without a reason', 400, 'VALIDATION_FAILED', () => ctx.as(pit.supervisor).post(`/v1/coups/${voidedCoup}/void`, {})],
  // Access.
  [
    'no API key',
    401,
    'UNAUTHENTICATED',
    () =>
      request(ctx.app.getHttpServer() as App)
        .post(`/v1/shoes/${pit.shoe.id}/coups`)
        .send(coupBody()),
  ],
  ['unknown API key', 401, 'UNAUTHENTICATED', () => ctx.as('sab_nope').post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody())],
  ["another table's terminal", 403, 'FORBIDDEN', () => ctx.as(other.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody())],
  ['finance recording a coup', 403, 'FORBIDDEN', () => ctx.as(finance).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody())],
  [
    'terminal creating a table',
    403,
    'FORBIDDEN',
    () => ctx.as(pit.terminal).post('/v1/tables', { code: 'X', variant: 'EZ', currency: 'EUR', minBet: 1, maxBet: 2 }),
  ],
  ['terminal creating an API key', 403, 'FORBIDDEN', () => ctx.as(pit.terminal).post('/v1/api-keys', { name: 'x', role: 'ADMIN' })],
  // Missing things and states.
  ['unknown shoe', 404, 'NOT_FOUND', () => ctx.as(pit.supervisor).post('/v1/shoes/00000000-0000-4000-8000-00000000dead/coups', coupBody())],
  ['unknown coup', 404, 'NOT_FOUND', () => ctx.as(pit.supervisor).post('/v1/coups/00000000-0000-4000-8000-00000000dead/void', { reason: 'nothing' })],
  ['unknown route', 404, 'NOT_FOUND', () => ctx.as(pit.supervisor).get('/v1/roulette')],
  [
    'coup on a closed shoe',
    409,
    'SHOE_CLOSED',
    () => ctx.admin.post(`/v1/shoes/${closedShoe.id}/coups`, coupBody()).set('Authorization', `Bearer ${pit.supervisor}`),
  ],
  ['shoe on a closed table', 409, 'TABLE_CLOSED', () => ctx.as(pit.supervisor).post(`/v1/tables/${closedTable.id}/shoes`, {})],
  ['second open shoe', 409, 'SHOE_ALREADY_OPEN', () => ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/shoes`, {})],
  ['closing a table with an open shoe', 409, 'TABLE_HAS_OPEN_SHOE', () => ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/close`)],
  ['voiding twice', 409, 'COUP_ALREADY_VOIDED', () => ctx.as(pit.supervisor).post(`/v1/coups/${voidedCoup}/void`, { reason: 'again please' })],
  [
    'duplicate table code',
    409,
    'CONFLICT',
    () => ctx.admin.post('/v1/tables', { code: 'ERR-1', variant: 'COMMISSION', currency: 'EUR', minBet: 1, maxBet: 2 }),
  ],
  // The game.
  [
    'Player must draw on 5',
    422,
    'MISDEAL',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ cards: { player: ['2S', '3D'], banker: ['7H', 'KC'] } })),
  ],
  [
    'third card after a natural',
    422,
    'MISDEAL',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ cards: { player: ['9S', 'KD', '2C'], banker: ['8H', 'KC'] } })),
  ],
  [
    'the same card twice in a one-deck shoe',
    422,
    'CARD_NOT_IN_SHOE',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ cards: { player: ['9S', 'KD'], banker: ['9S', 'KC'] } })),
  ],
  [
    'side bet the table does not offer',
    422,
    'BET_NOT_OFFERED',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: [wager({ betType: 'DRAGON_7' })] })),
  ],
  [
    'below the table minimum',
    422,
    'BET_LIMIT',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: [wager({ amount: 499 })] })),
  ],
  [
    'above the table maximum',
    422,
    'BET_LIMIT',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: [wager({ amount: 100_001 })] })),
  ],
  [
    'above the Tie limit',
    422,
    'BET_LIMIT',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: [wager({ betType: 'TIE', amount: 5001 })] })),
  ],
  [
    'a bad wager after good ones: nothing is written',
    422,
    'BET_LIMIT',
    () => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: [wager(), wager({ seat: 2 }), wager({ seat: 3, amount: 1 })] })),
  ],
  [
    'a burn card that burns more than recorded',
    422,
    'INVALID_SHOE',
    () => ctx.as(pit.supervisor).post(`/v1/tables/${plainTable.id}/shoes`, { burnCards: ['3H', '2S'] }),
  ],
];

describe('bad input is answered with a stable code and changes nothing', () => {
  it.each(cases)('%s → %i %s', async (_name, status, code, send) => {
    const before = await databaseSnapshot(ctx.prisma);
    const res = await send();
    expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    expect(res.body.statusCode).toBe(status);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.message.length).toBeGreaterThan(5);
    expect(res.body.message).not.toMatch(/prisma|sql|stack|at \w+ \(/i);
    expect(res.body.correlationId).toBe(res.headers['x-correlation-id']);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
  });

  it('a rejected coup uses no number', async () => {
    const res = await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: { player: ['2S', '3D'], banker: ['7H', 'KC'] } });
    expect(res.status).toBe(422);
    const ok = await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: { player: ['9D', 'JD'], banker: ['8D', 'JC'] } });
    expect(ok.status).toBe(201);
    expect(ok.body.number).toBe(2); // coup 1 was recorded and voided in beforeAll
  });

  it('validation errors name each field', async () => {
    const res = await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, coupBody({ wagers: [wager({ amount: 10.5, seat: 99 })] }));
    expect(res.body.details).toEqual(
      expect.arrayContaining([
        { field: 'wagers.0.amount', problems: ['wagers.0.amount must be a whole number of minor units (e.g. cents), not a fraction or text'] },
        { field: 'wagers.0.seat', problems: ['wagers.0.seat must be at most 20'] },
      ]),
    );
  });
});
