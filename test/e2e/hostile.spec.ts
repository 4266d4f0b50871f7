import request from 'supertest';
import type { App } from 'supertest/types';
import { databaseSnapshot, startTestApp, TestContext } from '../support/app';
import { givenKey, givenPatrons, givenPit, givenVoid, givenStaff, givenAdministrators } from '../support/builders';

/**
 * Malformed and hostile requests across every write endpoint, generated table-driven: each field
 * gets the mutations that fit its kind. Every case asserts the status, the error code, and that
 * no row anywhere changed.
 */
let ctx: TestContext;
let pit: Awaited<ReturnType<typeof givenPit>>;
let other: Awaited<ReturnType<typeof givenPit>>;
let supervisor2: string;
/** An administrator of the register (the bootstrap key mints no person's key after setup). */
let administrator: string;
let bettingCoup: string;
let settledCoup: string;
let voidRequest: string;
let session: string;
let chemmy: Awaited<ReturnType<typeof givenPit>>;
let bank: string;
let bankCoup: string;
beforeAll(async () => {
  ctx = await startTestApp();
  await givenPatrons(ctx, 'P-1');
  pit = await givenPit(ctx, { code: 'HOST-1', decks: 1, minBet: 100, maxBet: 100_000 });
  other = await givenPit(ctx, { code: 'HOST-2' });
  supervisor2 = await givenKey(ctx, 'SUPERVISOR');
  await givenStaff(ctx, 'E-hostile', 'AUDITOR');
  administrator = (await givenAdministrators(ctx)).first;
  settledCoup = (
    await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: { player: ['9S', 'KD'], banker: ['8H', 'KC'] }, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] })
  ).body.id;
  bettingCoup = (await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, {})).body.id;
  voidRequest = (await ctx.as(pit.supervisor).post(`/v1/coups/${settledCoup}/void`, { reason: 'pending for the tests' })).body.voidRequestId;
  session = (await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/sessions`, { opener: [{ denomination: 100, count: 10 }] })).body.id;
  chemmy = await givenPit(ctx, { code: 'HOST-3', variant: 'CHEMIN_DE_FER' });
  bank = (await ctx.as(chemmy.terminal).post(`/v1/shoes/${chemmy.shoe.id}/banks`, { bankerSeat: 1, amount: 10_000, rotation: [1, 2, 3] })).body.id;
  bankCoup = (
    await ctx
      .as(chemmy.terminal)
      .post(`/v1/banks/${bank}/coups`, { cards: { player: ['KS', '5D'], banker: ['7H', 'KC'] }, stakes: [{ seat: 2, amount: 1_000 }] })
  ).body.id;
});
afterAll(() => ctx.close());

type Kind = 'text' | 'code' | 'money' | 'money0' | 'int' | 'enum' | 'uuid' | 'cards' | 'bool' | 'date' | 'pay';
interface Endpoint {
  name: string;
  key: () => string;
  path: () => string;
  body: () => Record<string, unknown>;
  /** field path → kind; a.b.0.c for nested */
  fields: Record<string, Kind>;
  required: string[];
}

const SQL = "'; DROP TABLE wagers; --";
const SCRIPT = '<script>alert(1)</script>';
const MUTATIONS: Record<Kind, [string, unknown][]> = {
  text: [
    ['a number', 42],
    ['an object', { $ne: null }],
    ['5,000 characters', 'x'.repeat(5000)],
    ['an array', ['a']],
  ],
  code: [
    ['SQL text', SQL],
    ['script text', SCRIPT],
    ['a number', 7],
    ['300 characters', 'A'.repeat(300)],
  ],
  money: [
    ['negative', -100],
    ['fractional', 10.5],
    ['huge', 1e20],
    ['text', '1000'],
    ['true', true],
    ['zero', 0],
  ],
  money0: [
    ['negative', -100],
    ['fractional', 10.5],
    ['huge', 1e20],
    ['text', '1000'],
  ],
  int: [
    ['negative', -1],
    ['fractional', 1.5],
    ['text', '3'],
    ['huge', 1e12],
  ],
  enum: [
    ['unknown', 'ROULETTE'],
    ['SQL text', SQL],
    ['a number', 1],
    ['lower case', 'player'],
  ],
  uuid: [
    ['not a UUID', 'not-a-uuid'],
    ['SQL text', `x' OR 1=1 --`],
    ['a number', 12],
  ],
  cards: [
    ['a ten written 10H', ['10H', 'KD']],
    ['one card', ['9S']],
    ['four cards', ['2S', '3S', '4S', '5S']],
    ['text', '9S KD'],
    ['SQL text', [SQL, 'KD']],
    ['lower case', ['9s', 'kd']],
  ],
  bool: [
    ['text', 'yes'],
    ['a number', 1],
  ],
  date: [
    ['not a date', 'tomorrow'],
    ['SQL text', SQL],
  ],
  pay: [
    ['words', 'eight to one'],
    ['SQL text', SQL],
    ['a number', 8],
  ],
};

const wager = { seat: 1, betType: 'PLAYER', amount: 500, patronId: 'P-1' };
const ENDPOINTS: Endpoint[] = [
  {
    name: 'record a coup',
    key: () => pit.terminal,
    path: () => `/v1/shoes/${other.shoe.id}/coups`,
    body: () => ({ cards: { player: ['9D', 'KD'], banker: ['8D', 'KC'] }, wagers: [{ ...wager }] }),
    fields: {
      'cards.player': 'cards',
      'cards.banker': 'cards',
      'wagers.0.seat': 'int',
      'wagers.0.betType': 'enum',
      'wagers.0.amount': 'money',
      'wagers.0.patronId': 'code',
    },
    required: ['wagers.0.seat', 'wagers.0.betType', 'wagers.0.amount', 'cards.player'],
  },
  {
    name: 'add wagers',
    key: () => pit.terminal,
    path: () => `/v1/coups/${bettingCoup}/wagers`,
    body: () => ({ wagers: [{ ...wager }] }),
    fields: { 'wagers.0.seat': 'int', 'wagers.0.betType': 'enum', 'wagers.0.amount': 'money', 'wagers.0.patronId': 'code' },
    required: ['wagers', 'wagers.0.amount'],
  },
  {
    name: 'record cards',
    key: () => pit.terminal,
    path: () => `/v1/coups/${bettingCoup}/cards`,
    body: () => ({ player: ['9D', 'KD'], banker: ['8D', 'KC'] }),
    fields: { player: 'cards', banker: 'cards' },
    required: ['player', 'banker'],
  },
  {
    name: 'create a table',
    key: () => 'admin',
    path: () => '/v1/tables',
    body: () => ({
      code: 'NEW-1',
      variant: 'EZ',
      currency: 'EUR',
      minBet: 100,
      maxBet: 1000,
      pit: 'A',
      decks: 8,
      commissionBps: 0,
      tiePays: '8 to 1',
      tieBetsStay: false,
      sideBets: ['DRAGON_7'],
    }),
    fields: {
      code: 'code',
      pit: 'text',
      variant: 'enum',
      currency: 'code',
      minBet: 'money',
      maxBet: 'money',
      decks: 'int',
      commissionBps: 'int',
      tiePays: 'pay',
      tieBetsStay: 'bool',
      propertyId: 'uuid',
    },
    required: ['code', 'variant', 'currency', 'minBet', 'maxBet'],
  },
  {
    name: 'create an API key',
    key: () => administrator,
    path: () => '/v1/api-keys',
    body: () => ({ name: 'k', role: 'AUDITOR', staffId: 'E-hostile' }),
    fields: { name: 'text', role: 'enum', tableId: 'uuid', expiresAt: 'date' },
    required: ['name', 'role'],
  },
  {
    name: 'create a property',
    key: () => 'admin',
    path: () => '/v1/properties',
    body: () => ({ name: 'Casino X', timeZone: 'Asia/Macau', gamingDayStartHour: 6 }),
    fields: { name: 'text', timeZone: 'text', gamingDayStartHour: 'int' },
    required: ['name', 'timeZone', 'gamingDayStartHour'],
  },
  {
    name: 'open a shoe',
    key: () => other.terminal,
    path: () => `/v1/tables/${other.table.id}/shoes`,
    body: () => ({ decks: 6, cutCardPosition: 14, shuffleRef: 'S-1' }),
    fields: { decks: 'int', cutCardPosition: 'int', shuffleRef: 'text', burnCards: 'cards' },
    required: [],
  },
  {
    name: 'collect commission',
    key: () => pit.supervisor,
    path: () => `/v1/shoes/${pit.shoe.id}/commissions/collections`,
    body: () => ({ seat: 1, amount: 10 }),
    fields: { seat: 'int', amount: 'money', patronId: 'code' },
    required: ['seat'],
  },
  {
    name: 'ask for a void',
    key: () => pit.supervisor,
    path: () => `/v1/coups/${bettingCoup}/void`,
    body: () => ({ reason: 'misdeal' }),
    fields: { reason: 'text' },
    required: ['reason'],
  },
  {
    name: 'approve a void',
    key: () => supervisor2,
    path: () => `/v1/void-requests/${voidRequest}/approve`,
    body: () => ({ note: 'ok' }),
    fields: { note: 'text' },
    required: [],
  },
  {
    name: 'open a table session',
    key: () => other.supervisor,
    path: () => `/v1/tables/${other.table.id}/sessions`,
    body: () => ({ shift: 'day', opener: [{ denomination: 100, count: 5 }] }),
    fields: { shift: 'text', gamingDay: 'date', 'opener.0.denomination': 'money', 'opener.0.count': 'int' },
    required: ['opener'],
  },
  {
    name: 'record a fill',
    key: () => pit.supervisor,
    path: () => `/v1/table-sessions/${session}/slips`,
    body: () => ({ kind: 'FILL', chips: [{ denomination: 100, count: 5 }] }),
    fields: { kind: 'enum', 'chips.0.denomination': 'money', 'chips.0.count': 'int' },
    required: ['kind', 'chips'],
  },
  {
    name: 'close a table session',
    key: () => pit.supervisor,
    path: () => `/v1/table-sessions/${session}/close`,
    body: () => ({ closer: [{ denomination: 100, count: 5 }], drop: 0 }),
    fields: { 'closer.0.denomination': 'money', 'closer.0.count': 'int', drop: 'money0' },
    required: ['closer', 'drop'],
  },
  {
    name: 'open a bank',
    key: () => chemmy.terminal,
    path: () => `/v1/shoes/${chemmy.shoe.id}/banks`,
    body: () => ({ bankerSeat: 2, amount: 1000, rotation: [1, 2, 3], declined: [1], how: 'AUCTION' }),
    fields: { bankerSeat: 'int', amount: 'money', 'rotation.0': 'int', 'declined.0': 'int', how: 'enum' },
    required: ['bankerSeat', 'amount'],
  },
  {
    name: 'record a bank coup',
    key: () => chemmy.terminal,
    path: () => `/v1/banks/${bank}/coups`,
    body: () => ({ cards: { player: ['9D', 'KD'], banker: ['8D', 'KC'] }, stakes: [{ seat: 2, amount: 500 }], bankerAdds: 100 }),
    fields: {
      'cards.player': 'cards',
      'cards.banker': 'cards',
      'cards.right': 'cards',
      'stakes.0.seat': 'int',
      'stakes.0.amount': 'money',
      'stakes.0.call': 'enum',
      'stakes.0.side': 'enum',
      'stakes.0.bystander': 'bool',
      bankerAdds: 'money',
      declareStakesAccepted: 'bool',
    },
    required: ['cards', 'cards.banker', 'stakes.0.seat'],
  },
  {
    name: 'ask for a bank coup void',
    key: () => chemmy.supervisor,
    path: () => `/v1/bank-coups/${bankCoup}/void`,
    body: () => ({ reason: 'wrong seat' }),
    fields: { reason: 'text' },
    required: ['reason'],
  },
  {
    name: 'retire a bank',
    key: () => chemmy.terminal,
    path: () => `/v1/banks/${bank}/retire`,
    body: () => ({ amount: 1000 }),
    fields: { amount: 'money' },
    required: [],
  },
  {
    name: 'price the odds',
    key: () => pit.terminal,
    path: () => '/v1/odds',
    body: () => ({ variant: 'EZ', shoe: { decks: 8 } }),
    fields: { variant: 'enum', 'shoe.decks': 'int', 'shoe.dealt': 'cards', 'rules.commissionBps': 'int' },
    required: ['shoe'],
  },
];

function set(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let cur: Record<string, unknown> = obj;
  for (const k of keys.slice(0, -1)) cur = (cur[k] ??= /^\d+$/.test(k) ? {} : {}) as Record<string, unknown>;
  const last = keys[keys.length - 1];
  if (value === undefined) delete cur[last];
  else cur[last] = value;
}

type Case = [string, number, string, () => request.Test];
const as = (key: string) => (key === 'admin' ? ctx.admin : ctx.as(key));
const cases: Case[] = [];
for (const e of ENDPOINTS) {
  for (const [field, kind] of Object.entries(e.fields)) {
    for (const [label, value] of MUTATIONS[kind]) {
      if (kind === 'cards' && field === 'shoe.dealt' && label === 'one card') continue; // one card seen is a valid depleted shoe
      if (kind === 'cards' && field === 'burnCards' && ['one card', 'four cards'].includes(label)) continue; // one to eleven burn cards are valid
      if (kind === 'cards' && field === 'shoe.dealt' && label === 'four cards') continue;
      cases.push([
        `${e.name}: ${field} ${label}`,
        400,
        'VALIDATION_FAILED',
        () => {
          const body = e.body();
          set(body, field, value);
          return as(e.key()).post(e.path(), body);
        },
      ]);
    }
  }
  for (const field of e.required) {
    cases.push([
      `${e.name}: ${field} missing`,
      400,
      'VALIDATION_FAILED',
      () => {
        const body = e.body();
        set(body, field, undefined);
        return as(e.key()).post(e.path(), body);
      },
    ]);
  }
  cases.push([`${e.name}: an unknown field`, 400, 'VALIDATION_FAILED', () => as(e.key()).post(e.path(), { ...e.body(), isAdmin: true })]);
  cases.push([
    `${e.name}: the body as text/plain`,
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    () => as(e.key()).post(e.path()).set('Content-Type', 'text/plain').send(JSON.stringify(e.body())),
  ]);
  cases.push([`${e.name}: a 200 kB body`, 413, 'PAYLOAD_TOO_LARGE', () => as(e.key()).post(e.path(), { ...e.body(), padding: 'x'.repeat(200_000) })]);
}
cases.push(
  ['a form-encoded body', 415, 'UNSUPPORTED_MEDIA_TYPE', () => ctx.as(pit.terminal).post(`/v1/shoes/${other.shoe.id}/coups`).type('form').send('cards=9S')],
  [
    'a JSON string as body',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/coups/${bettingCoup}/cards`).set('Content-Type', 'application/json').send('"9S KD"'),
  ],
  [
    'truncated JSON',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/coups/${bettingCoup}/cards`).set('Content-Type', 'application/json').send('{"player":["9S"'),
  ],
  [
    'a duplicate card in a one-deck shoe',
    422,
    'CARD_NOT_IN_SHOE',
    () => ctx.as(pit.terminal).post(`/v1/coups/${bettingCoup}/cards`, { player: ['9S', 'KD'], banker: ['9S', 'KC'] }),
  ],
  [
    'the same card twice in one coup',
    422,
    'CARD_NOT_IN_SHOE',
    () => ctx.as(pit.terminal).post(`/v1/coups/${bettingCoup}/cards`, { player: ['4D', '4D'], banker: ['QD', 'JD'] }),
  ],
  ['a misdeal', 422, 'MISDEAL', () => ctx.as(pit.terminal).post(`/v1/coups/${bettingCoup}/cards`, { player: ['2D', '3D'], banker: ['QD', 'JD'] })],
  [
    'a bet not offered',
    422,
    'BET_NOT_OFFERED',
    () => ctx.as(pit.terminal).post(`/v1/coups/${bettingCoup}/wagers`, { wagers: [{ seat: 1, betType: 'DRAGON_7', amount: 500 }] }),
  ],
  [
    'a wager after the result',
    409,
    'COUP_NOT_TAKING_BETS',
    () => ctx.as(pit.terminal).post(`/v1/coups/${settledCoup}/wagers`, { wagers: [{ seat: 1, betType: 'PLAYER', amount: 500 }] }),
  ],
  [
    'cards for a settled coup',
    409,
    'COUP_NOT_TAKING_BETS',
    () => ctx.as(pit.terminal).post(`/v1/coups/${settledCoup}/cards`, { player: ['9D', 'KD'], banker: ['8D', 'KC'] }),
  ],
  [
    "another table's coup",
    403,
    'FORBIDDEN',
    () => ctx.as(other.terminal).post(`/v1/coups/${bettingCoup}/wagers`, { wagers: [{ seat: 1, betType: 'PLAYER', amount: 500 }] }),
  ],
  ["another table's shoe", 403, 'FORBIDDEN', () => ctx.as(other.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, {})],
  [
    'over the table maximum',
    422,
    'BET_LIMIT',
    () => ctx.as(pit.terminal).post(`/v1/coups/${bettingCoup}/wagers`, { wagers: [{ seat: 1, betType: 'PLAYER', amount: 100_001 }] }),
  ],
  [
    'SQL in the path',
    400,
    'VALIDATION_FAILED',
    () => ctx.as(pit.terminal).post(`/v1/coups/${encodeURIComponent("1' OR '1'='1")}/cards`, { player: ['9D', 'KD'], banker: ['8D', 'KC'] }),
  ],
  [
    'a forged bearer',
    401,
    'UNAUTHENTICATED',
    () =>
      request(ctx.app.getHttpServer() as App)
        .post('/v1/properties')
        .set('Authorization', `Bearer ${SQL}`)
        .send({ name: 'x', timeZone: 'UTC', gamingDayStartHour: 1 }),
  ],
  ['approving your own void', 403, 'SAME_PERSON', () => ctx.as(pit.supervisor).post(`/v1/void-requests/${voidRequest}/approve`, {})],
  ['a second void request', 409, 'VOID_ALREADY_REQUESTED', () => ctx.as(supervisor2).post(`/v1/coups/${settledCoup}/void`, { reason: 'again' })],
);

describe('hostile and malformed requests change nothing', () => {
  it('covers at least 150 cases', () => expect(cases.length).toBeGreaterThanOrEqual(150));

  it.each(cases)('%s → %i %s', async (_name, status, code, send) => {
    const before = await databaseSnapshot(ctx.prisma);
    const res = await send();
    expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    expect(res.body.correlationId).toBe(res.headers['x-correlation-id']);
    expect(JSON.stringify(res.body)).not.toMatch(/prisma|postgres|sql state|\bat \w+ \(|node_modules/i);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
  });
});

describe('SQL and script text in free-text fields is stored as data, verbatim', () => {
  it('a void reason and a shuffle reference hold hostile text harmlessly', async () => {
    const fresh = await givenPit(ctx, {}, { shuffleRef: SQL });
    expect(fresh.shoe.shuffleRef).toBe(SQL);
    const coup = await ctx.as(fresh.terminal).post(`/v1/shoes/${fresh.shoe.id}/coups`, { cards: { player: ['9D', 'KD'], banker: ['8D', 'KC'] } });
    const v = await givenVoid(ctx, 'coups', coup.body.id, SCRIPT, fresh.supervisor, supervisor2);
    expect(v.reason).toBe(SCRIPT);
    expect(await ctx.prisma.wager.count()).toBeGreaterThan(0); // the wagers table is still there
  });
});

describe('response hardening', () => {
  it('security headers on every answer, no X-Powered-By', async () => {
    const res = await request(ctx.app.getHttpServer() as App).get('/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['strict-transport-security']).toBeDefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('rate limits per API key: one busy key is held back, others are not', async () => {
    const limited = await startTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
    try {
      const a = await givenKey(limited, 'AUDITOR');
      const b = await givenKey(limited, 'AUDITOR');
      const statuses = [];
      for (let i = 0; i < 7; i++) statuses.push((await limited.as(a).get('/v1/properties')).status);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      const blocked = await limited.as(a).get('/v1/properties');
      expect([blocked.status, blocked.body.code]).toEqual([429, 'RATE_LIMITED']);
      expect((await limited.as(b).get('/v1/properties')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
