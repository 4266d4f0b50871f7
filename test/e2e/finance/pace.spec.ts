import { Client } from 'pg';
import {
  gamingDayOf,
  IDLE_ALLOWANCE,
  intersect,
  idleSpans,
  lengthOf,
  medianDecisionsPerHour,
  seededRandom,
  Span,
  staffedSpans,
  unionOf,
} from '../../../src/domain';
import { paceFigures } from '../../../src/finance/reports/pace';
import { startTestApp, TestContext } from '../../support/app';
import { dealtHands, givenKey, givenShoe, givenTable, givenVoid } from '../../support/builders';
import { asOwner as asOwnerOf } from '../../support/owner';

/**
 * The pace report (GET /v1/reports/pace; docs/domain.md §13) against the real PostgreSQL: the
 * worked example of §13 with every figure pinned, recorded through the API and then moved to the
 * times of the example (the service stamps the present; as the database's owner, with every trigger
 * off, on this spec's own database); hour-of-day buckets across a gaming-day boundary in Macau;
 * empty ranges; hostile requests; and the report's SQL against the domain's definitions over random
 * records.
 */
let ctx: TestContext;
let owner: Client;
let finance: string;
let s1: string;
let s2: string;

beforeAll(async () => {
  ctx = await startTestApp();
  owner = new Client({ connectionString: ctx.databaseUrl });
  await owner.connect();
  await owner.query(`SELECT sabot_ledger_months('2026-03-01'::date, '2026-03-01'::date)`);
  finance = await givenKey(ctx, 'FINANCE');
  [s1, s2] = [await givenKey(ctx, 'SUPERVISOR'), await givenKey(ctx, 'SUPERVISOR')];
}, 60_000);
afterAll(async () => {
  await owner?.end();
  await ctx?.close();
});

const asOwner = (fn: () => Promise<unknown>) => asOwnerOf(owner, fn);

const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function givenProperty(name: string, timeZone: string): Promise<string> {
  return (await ctx.admin.post('/v1/properties', { name, timeZone, gamingDayStartHour: 6 }).expect(201)).body.id as string;
}

const report = async (query: string, key = finance) => (await ctx.as(key).get(`/v1/reports/pace?${query}`).expect(200)).body;

/** A whole coup at a table, its cards from a shuffled shoe. */
const deal = async (terminal: string, shoeId: string, hand: { player: string[]; banker: string[] }) =>
  (await ctx.as(terminal).post(`/v1/shoes/${shoeId}/coups`, { cards: hand }).expect(201)).body as { id: string };

/**
 * Moves what the service recorded to the times of an example: dealer shifts, coups (their gaming
 * day with them: the coups are kept by gaming day) and the table's close.
 */
async function moveTo(t: {
  shifts: [id: string, at: number][];
  coups: [id: string, at: number, gamingDay: string | null][];
  tableClosed?: [tableId: string, at: number];
}): Promise<void> {
  await asOwner(async () => {
    for (const [id, at] of t.shifts) await owner.query('UPDATE dealer_shifts SET started_at = $2 WHERE id = $1', [id, iso(at)]);
    for (const [id, at, day] of t.coups) {
      await owner.query(
        `UPDATE coups SET opened_at = $2, settled_at = CASE WHEN status = 'SETTLED' THEN $2::timestamptz END, gaming_day = $3::date WHERE id = $1`,
        [id, iso(at), day],
      );
    }
    if (t.tableClosed) {
      const [tableId, at] = t.tableClosed;
      const { rowCount } = await owner.query(`UPDATE audit_log SET at = $2 WHERE stream = $1 AND action = 'table.close'`, [tableId, iso(at)]);
      expect(rowCount).toBe(1);
    }
  });
}

describe('the worked example of docs/domain.md §13', () => {
  // Casino Pace, Macau (UTC+8), gaming day from 06:00. On 10 March 2026, table PACE-1: dealer D-A
  // takes it at 14:00 local (06:00 UTC); shoe 1's coups at 14:05, 14:07, …, 14:41, the tenth voided
  // since, its twentieth opened for betting at 14:43 and cancelled; shoe 2's first four at 14:53,
  // 14:55, 14:57, 14:59. D-B takes the table at 15:00 and deals at 15:02, 15:04, …, 15:40. The table
  // closes at 16:00.
  const T0 = Date.parse('2026-03-10T06:00:00Z');
  let property: string;
  let table: { id: string };

  beforeAll(async () => {
    property = await givenProperty('Casino Pace', 'Asia/Macau');
    table = await givenTable(ctx, { code: 'PACE-1', pit: 'Salon', propertyId: property });
    const terminal = await givenKey(ctx, 'TERMINAL', table.id);
    const hands = dealtHands(8, 20260310, 45);
    const shoe1 = await givenShoe(ctx, terminal, table.id);
    const a = (await ctx.as(terminal).post(`/v1/tables/${table.id}/dealers`, { dealerId: 'D-A' }).expect(201)).body.id as string;
    const first: string[] = [];
    for (let i = 0; i < 19; i++) first.push((await deal(terminal, shoe1.id, hands[i])).id);
    const cancelled = (await ctx.as(terminal).post(`/v1/shoes/${shoe1.id}/coups`, {}).expect(201)).body.id as string;
    await givenVoid(ctx, 'coups', cancelled, 'a card turned over before the bets closed: misdeal', s1, s2);
    await givenVoid(ctx, 'coups', first[9], 'paid the wrong side', s1, s2);
    await ctx.as(terminal).post(`/v1/shoes/${shoe1.id}/close`, {}).expect(200);
    const shoe2 = await givenShoe(ctx, terminal, table.id);
    const second: string[] = [];
    for (let i = 0; i < 4; i++) second.push((await deal(terminal, shoe2.id, hands[19 + i])).id);
    const b = (await ctx.as(terminal).post(`/v1/tables/${table.id}/dealers`, { dealerId: 'D-B' }).expect(201)).body.id as string;
    const third: string[] = [];
    for (let i = 0; i < 20; i++) third.push((await deal(terminal, shoe2.id, hands[23 + i])).id);
    await ctx.as(terminal).post(`/v1/shoes/${shoe2.id}/close`, {}).expect(200);
    await ctx.as(s1).post(`/v1/tables/${table.id}/close`, {}).expect(200);
    await moveTo({
      shifts: [
        [a, T0],
        [b, T0 + 60 * MIN],
      ],
      coups: [
        ...first.map((id, i): [string, number, string] => [id, T0 + (5 + 2 * i) * MIN, '2026-03-10']),
        [cancelled, T0 + 43 * MIN, null],
        ...second.map((id, i): [string, number, string] => [id, T0 + (53 + 2 * i) * MIN, '2026-03-10']),
        ...third.map((id, i): [string, number, string] => [id, T0 + (62 + 2 * i) * MIN, '2026-03-10']),
      ],
      tableClosed: [table.id, T0 + 120 * MIN],
    });
  }, 120_000);

  const A = {
    staffedHours: '1.00',
    decisions: 22,
    decisionsPerHour: '22.0',
    coups: 24,
    voids: 1,
    voidsPer1000Coups: '41.7',
    misdeals: 1,
    misdealsPer1000Coups: '41.7',
    idleMinutes: '9.0',
    idleMinutesPerHour: '9.0',
  };
  const B = {
    staffedHours: '1.00',
    decisions: 20,
    decisionsPerHour: '20.0',
    coups: 20,
    voids: 0,
    voidsPer1000Coups: '0.0',
    misdeals: 0,
    misdealsPer1000Coups: '0.0',
    idleMinutes: '17.0',
    idleMinutesPerHour: '17.0',
  };
  const TABLE = {
    staffedHours: '2.00',
    decisions: 42,
    decisionsPerHour: '21.0',
    coups: 44,
    voids: 1,
    voidsPer1000Coups: '22.7',
    misdeals: 1,
    misdealsPer1000Coups: '22.7',
    idleMinutes: '26.0',
    idleMinutesPerHour: '13.0',
  };

  it('by dealer: D-A 22 decisions in an hour, a void and a misdeal in 24 coups (41.7 per 1,000 each), idle 2 + 7 minutes; D-B 20, idle 17', async () => {
    const r = await report(`from=2026-03-10&to=2026-03-10&propertyId=${property}`);
    expect(r.dealers).toEqual([
      { dealerId: 'D-A', ...A },
      { dealerId: 'D-B', ...B },
    ]);
    expect(r.idleAllowanceSeconds).toBe(180);
  });

  it('by table: 42 decisions in 2 hours (21.0), 26 idle minutes (13.0 an hour), 29.2 % of the default 72 for commission baccarat', async () => {
    const r = await report(`from=2026-03-10&to=2026-03-10&propertyId=${property}`);
    expect(r.tables).toEqual([
      {
        tableId: table.id,
        tableCode: 'PACE-1',
        pit: 'Salon',
        variant: 'COMMISSION',
        propertyId: property,
        ...TABLE,
        decisionsOutsideShifts: 0,
        expected: { decisionsPerHour: 72, source: 'DEFAULT', percentOfExpected: '29.2' },
      },
    ]);
    expect(r.totals).toEqual({ ...TABLE, decisionsOutsideShifts: 0 });
  });

  it('by hour of the day, local time: 14:00 is D-A’s hour, 15:00 D-B’s', async () => {
    const r = await report(`from=2026-03-10&to=2026-03-10&propertyId=${property}`);
    expect(r.hours).toEqual([
      { hour: 14, ...A },
      { hour: 15, ...B },
    ]);
  });

  it('by variant: against the expected pace, and the property’s own median (one table-day: 21.0)', async () => {
    const r = await report(`from=2026-03-10&to=2026-03-10&propertyId=${property}`);
    expect(r.variants).toEqual([
      {
        propertyId: property,
        variant: 'COMMISSION',
        ...TABLE,
        expected: { decisionsPerHour: 72, source: 'DEFAULT', percentOfExpected: '29.2' },
        observedMedianDecisionsPerHour: '21.0',
        tableDays: 1,
      },
    ]);
  });

  it('the property sets the pace it expects: 60 an hour makes the table 35.0 % of it; the later entry replaces the earlier', async () => {
    const path = `/v1/properties/${property}/pace-targets`;
    const first = await ctx.as(s1).post(path, { variant: 'COMMISSION', decisionsPerHour: 65 }).expect(201);
    expect(first.body).toMatchObject({ propertyId: property, variant: 'COMMISSION', decisionsPerHour: 65, inForce: true });
    await ctx.as(s2).post(path, { variant: 'COMMISSION', decisionsPerHour: 60 }).expect(201);
    const targets = (await ctx.as(finance).get(path).expect(200)).body;
    expect(
      targets.inForce.map((t: { variant: string; decisionsPerHour: number; source: string; defaultDecisionsPerHour: number }) => [
        t.variant,
        t.decisionsPerHour,
        t.source,
        t.defaultDecisionsPerHour,
      ]),
    ).toEqual([
      ['COMMISSION', 60, 'PROPERTY', 72],
      ['SUPER_6', 80, 'DEFAULT', 80],
      ['EZ', 80, 'DEFAULT', 80],
      ['CHEMIN_DE_FER', 40, 'DEFAULT', 40],
      ['BANQUE', 30, 'DEFAULT', 30],
    ]);
    expect(targets.entries.map((e: { decisionsPerHour: number; inForce: boolean }) => [e.decisionsPerHour, e.inForce])).toEqual([
      [65, false],
      [60, true],
    ]);
    const r = await report(`from=2026-03-10&to=2026-03-10&propertyId=${property}`);
    expect(r.tables[0].expected).toEqual({ decisionsPerHour: 60, source: 'PROPERTY', percentOfExpected: '35.0' });
    expect(r.variants[0].expected).toEqual({ decisionsPerHour: 60, source: 'PROPERTY', percentOfExpected: '35.0' });
    // Each entry is in the audit chain.
    const auditor = await givenKey(ctx, 'AUDITOR');
    const entries = (await ctx.as(auditor).get(`/v1/audit?stream=admin&action=paceTarget.set`).expect(200)).body as { entry: { data: unknown } }[];
    expect(entries.map((e) => e.entry.data)).toEqual([
      { variant: 'COMMISSION', decisionsPerHour: 65 },
      { variant: 'COMMISSION', decisionsPerHour: 60 },
    ]);
  });

  it('the filters: the pit and the variant as named on the table, the table itself', async () => {
    expect((await report(`from=2026-03-10&to=2026-03-10&pit=Salon`)).tables.map((t: { tableCode: string }) => t.tableCode)).toEqual(['PACE-1']);
    expect((await report(`from=2026-03-10&to=2026-03-10&tableId=${table.id}`)).totals).toEqual({ ...TABLE, decisionsOutsideShifts: 0 });
    const none = await report(`from=2026-03-10&to=2026-03-10&propertyId=${property}&variant=EZ`);
    expect([none.tables, none.dealers, none.totals.decisions]).toEqual([[], [], 0]);
    expect((await report(`from=2026-03-10&to=2026-03-10&pit=Nowhere`)).tables).toEqual([]);
  });
});

describe('hours of the day across a gaming-day boundary, in Macau (UTC+8, the day from 06:00)', () => {
  // Table DAWN-1, early on 11 March local: D-C takes it at 05:30, coups at 05:40 and 05:50 (gaming
  // day 10 March), 06:10 and 06:20 (11 March), the table closes at 06:30. In UTC all of it is on
  // 10 March, 21:30 to 22:30: a report bucketing by UTC hour would say 21 and 22.
  let property: string;
  let tableId: string;
  const local = (hhmm: string) => Date.parse(`2026-03-11T${hhmm}:00+08:00`);

  beforeAll(async () => {
    property = await givenProperty('Casino Dawn', 'Asia/Macau');
    tableId = (await givenTable(ctx, { code: 'DAWN-1', propertyId: property })).id;
    const terminal = await givenKey(ctx, 'TERMINAL', tableId);
    const shoe = await givenShoe(ctx, terminal, tableId);
    const shift = (await ctx.as(terminal).post(`/v1/tables/${tableId}/dealers`, { dealerId: 'D-C' }).expect(201)).body.id as string;
    const hands = dealtHands(8, 20260311, 4);
    const coups = [];
    for (const hand of hands) coups.push((await deal(terminal, shoe.id, hand)).id);
    await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/close`, {}).expect(200);
    await ctx.as(s1).post(`/v1/tables/${tableId}/close`, {}).expect(200);
    await moveTo({
      shifts: [[shift, local('05:30')]],
      coups: [
        [coups[0], local('05:40'), '2026-03-10'],
        [coups[1], local('05:50'), '2026-03-10'],
        [coups[2], local('06:10'), '2026-03-11'],
        [coups[3], local('06:20'), '2026-03-11'],
      ],
      tableClosed: [tableId, local('06:30')],
    });
  }, 60_000);

  // Idle: 05:33–05:40, 05:43–05:50, 05:53–06:10 (7 minutes before 06:00, 10 after), 06:13–06:20, 06:23–06:30.
  const FIVE = {
    hour: 5,
    staffedHours: '0.50',
    decisions: 2,
    decisionsPerHour: '4.0',
    coups: 2,
    voids: 0,
    voidsPer1000Coups: '0.0',
    misdeals: 0,
    misdealsPer1000Coups: '0.0',
    idleMinutes: '21.0',
    idleMinutesPerHour: '42.0',
  };
  const SIX = { ...FIVE, hour: 6, idleMinutes: '24.0', idleMinutesPerHour: '48.0' };

  it('the gaming day of 10 March holds 05:30–06:00 of the 11th, as hour 5; the 11th holds hour 6', async () => {
    expect((await report(`from=2026-03-10&to=2026-03-10&propertyId=${property}`)).hours).toEqual([FIVE]);
    expect((await report(`from=2026-03-11&to=2026-03-11&propertyId=${property}`)).hours).toEqual([SIX]);
  });

  it('the two days together: the same two hours, the idle gap across 06:00 split the same way', async () => {
    const r = await report(`from=2026-03-10&to=2026-03-11&propertyId=${property}`);
    expect(r.hours).toEqual([FIVE, SIX]);
    expect(r.totals).toMatchObject({ staffedHours: '1.00', decisions: 4, decisionsPerHour: '4.0', idleMinutes: '45.0' });
    // Two table-days of 4.0 an hour each.
    expect(r.variants[0]).toMatchObject({ observedMedianDecisionsPerHour: '4.0', tableDays: 2 });
  });
});

describe('empty ranges', () => {
  it('a range with no play: totals of nothing, no rates, no rows', async () => {
    const empty = {
      staffedHours: '0.00',
      decisions: 0,
      decisionsPerHour: null,
      coups: 0,
      voids: 0,
      voidsPer1000Coups: null,
      misdeals: 0,
      misdealsPer1000Coups: null,
      idleMinutes: '0.0',
      idleMinutesPerHour: null,
      decisionsOutsideShifts: 0,
    };
    for (const range of ['from=2026-03-01&to=2026-03-05', 'from=2031-01-01&to=2031-12-31', 'from=2000-01-01&to=2000-01-01']) {
      expect(await report(range)).toEqual({
        from: range.slice(5, 15),
        to: range.slice(19),
        idleAllowanceSeconds: 180,
        totals: empty,
        dealers: [],
        tables: [],
        hours: [],
        variants: [],
      });
    }
  });
});

describe('player-banked coups count too', () => {
  it('a chemin de fer bank coup is a decision, and a void of one a void', async () => {
    const table = await givenTable(ctx, { code: 'PACE-CHEMMY', variant: 'CHEMIN_DE_FER', decks: 6 });
    const terminal = await givenKey(ctx, 'TERMINAL', table.id);
    const shoe = await givenShoe(ctx, terminal, table.id);
    await ctx.as(terminal).post(`/v1/tables/${table.id}/dealers`, { dealerId: 'D-CHEMMY' }).expect(201);
    const bank = (
      await ctx
        .as(terminal)
        .post(`/v1/shoes/${shoe.id}/banks`, { bankerSeat: 1, amount: 10_000, rotation: [1, 2, 3] })
        .expect(201)
    ).body;
    const coup = async (cards: { player: string[]; banker: string[] }) =>
      (
        await ctx
          .as(terminal)
          .post(`/v1/banks/${bank.id}/coups`, { cards, stakes: [{ seat: 2, amount: 1_000 }] })
          .expect(201)
      ).body;
    const first = await coup({ player: ['KS', '5D'], banker: ['7H', 'KC'] });
    const second = await coup({ player: ['2S', '4D'], banker: ['9H', 'QC'] });
    const asked = (await ctx.as(s1).post(`/v1/bank-coups/${second.id}/void`, { reason: 'wrong bank' }).expect(202)).body.voidRequestId;
    await ctx.as(s2).post(`/v1/void-requests/${asked}/approve`, {}).expect(200);
    // Counts only: the shift is still open, so the staffed time is the read's own.
    const r = await report(`from=${first.gamingDay}&to=${second.gamingDay}&tableId=${table.id}`);
    expect(r.dealers.map((d: { dealerId: string; decisions: number; voids: number; coups: number }) => [d.dealerId, d.decisions, d.voids, d.coups])).toEqual([
      ['D-CHEMMY', 1, 1, 2],
    ]);
    expect(r.tables[0]).toMatchObject({ variant: 'CHEMIN_DE_FER', decisions: 1, voids: 1, expected: { decisionsPerHour: 40, source: 'DEFAULT' } });
  });
});

describe('hostile requests: a 4xx with its code, never a 500', () => {
  it.each([
    ['from=2026-02-30&to=2026-03-01', 400, 'VALIDATION_FAILED'],
    ['from=2026-13-01&to=2026-13-02', 400, 'VALIDATION_FAILED'],
    ['from=0000-01-01&to=2026-01-01', 400, 'VALIDATION_FAILED'],
    ['from=2026-03-10', 400, 'VALIDATION_FAILED'],
    ['from=2026-03-11&to=2026-03-10', 400, 'VALIDATION_FAILED'],
    ['from=2020-01-01&to=2030-01-01', 400, 'VALIDATION_FAILED'],
    ["from=2026-03-10'%3B%20DROP%20TABLE%20coups--&to=2026-03-10", 400, 'VALIDATION_FAILED'],
    ['from=2026-03-10&to=2026-03-10&tableId=not-a-uuid', 400, 'VALIDATION_FAILED'],
    ['from=2026-03-10&to=2026-03-10&variant=ROULETTE', 400, 'VALIDATION_FAILED'],
    [`from=2026-03-10&to=2026-03-10&pit=${'x'.repeat(41)}`, 400, 'VALIDATION_FAILED'],
    ['from=2026-03-10&to=2026-03-10&groupBy=table', 400, 'VALIDATION_FAILED'],
    ['from=2026-03-10&to=2026-03-10&tableId=00000000-0000-4000-8000-00000000beef', 404, 'NOT_FOUND'],
    ['from=2026-03-10&to=2026-03-10&propertyId=00000000-0000-4000-8000-00000000beef', 404, 'NOT_FOUND'],
  ])('%s: %i %s', async (query, status, code) => {
    const res = await ctx.as(finance).get(`/v1/reports/pace?${query}`);
    expect([res.status, res.body.code]).toEqual([status, code]);
  });

  it('keys that may not read reports: a terminal (its own table or another’s), a host, a cashier; no key at all', async () => {
    const own = await givenTable(ctx, { code: 'PACE-OWN' });
    const terminal = await givenKey(ctx, 'TERMINAL', own.id);
    for (const [key, query] of [
      [terminal, `tableId=${own.id}`],
      [terminal, 'tableId=00000000-0000-4000-8000-00000000beef'],
      [await givenKey(ctx, 'HOST'), ''],
      [await givenKey(ctx, 'CASHIER'), ''],
    ]) {
      const res = await ctx.as(key).get(`/v1/reports/pace?from=2026-03-10&to=2026-03-10&${query}`);
      expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
    }
    const none = await ctx.as('no-such-key').get('/v1/reports/pace?from=2026-03-10&to=2026-03-10');
    expect([none.status, none.body.code]).toEqual([401, 'UNAUTHENTICATED']);
  });

  it('the expected pace: whole decisions per hour from 1 to 400, a variant the service knows, a property that exists, a pit manager’s key', async () => {
    const property = await givenProperty('Casino Targets', 'Europe/Monaco');
    const path = `/v1/properties/${property}/pace-targets`;
    for (const body of [
      { variant: 'COMMISSION', decisionsPerHour: 0 },
      { variant: 'COMMISSION', decisionsPerHour: 401 },
      { variant: 'COMMISSION', decisionsPerHour: 70.5 },
      { variant: 'COMMISSION', decisionsPerHour: '70' },
      { variant: 'ROULETTE', decisionsPerHour: 70 },
      { decisionsPerHour: 70 },
      { variant: 'COMMISSION', decisionsPerHour: 70, extra: 1 },
    ]) {
      const res = await ctx.as(s1).post(path, body);
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    const unknown = await ctx.as(s1).post('/v1/properties/00000000-0000-4000-8000-00000000beef/pace-targets', { variant: 'EZ', decisionsPerHour: 70 });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    const unknownRead = await ctx.as(finance).get('/v1/properties/00000000-0000-4000-8000-00000000beef/pace-targets');
    expect([unknownRead.status, unknownRead.body.code]).toEqual([404, 'NOT_FOUND']);
    for (const key of [finance, await givenKey(ctx, 'HOST')]) {
      const res = await ctx.as(key).post(path, { variant: 'EZ', decisionsPerHour: 70 });
      expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
    }
    // Nothing was entered.
    expect((await ctx.as(finance).get(path).expect(200)).body.entries).toEqual([]);
  });
});

describe('the report’s SQL against the domain’s definitions, over random records', () => {
  // Kolkata: UTC+5:30 all year (no daylight saving since 1945), so its local hours start at :30 UTC.
  const TZ = 'Asia/Kolkata';
  const OFFSET = 330 * MIN;
  const HOUR = 60 * MIN;
  const FROM = '2026-03-20';
  const TO = '2026-03-21';
  /** 06:00 local on a day, in ms. */
  const dayStart = (day: string) => Date.parse(`${day}T06:00:00Z`) - OFFSET;
  const W0 = dayStart(FROM);
  const W1 = dayStart('2026-03-22');
  const µ = (ms: number) => BigInt(ms) * 1000n;

  interface Shift {
    id: string;
    table: string;
    dealer: string;
    at: number;
  }
  interface Coup {
    table: string;
    called: number;
    done: number;
    kind: 'D' | 'V' | 'M' | null;
  }
  const tables: { id: string; variant: string }[] = [];
  const shifts: Shift[] = [];
  const closures = new Map<string, Span[]>();
  const coups: Coup[] = [];
  let property: string;

  beforeAll(async () => {
    property = await givenProperty('Casino Random', TZ);
    const random = seededRandom(13);
    const between = (a: number, b: number) => Math.floor(a + random() * (b - a));
    for (const [code, variant] of [
      ['R-1', 'COMMISSION'],
      ['R-2', 'COMMISSION'],
      ['R-3', 'EZ'],
    ]) {
      const t = await givenTable(ctx, { code, variant, propertyId: property });
      tables.push({ id: t.id, variant });
    }
    const shoes = new Map<string, string>();
    for (const t of tables) shoes.set(t.id, (await givenShoe(ctx, await givenKey(ctx, 'TERMINAL', t.id), t.id)).id);
    const dealers = ['D-1', 'D-2', 'D-3', 'D-4', 'D-5'];
    const from = W0 - 2 * HOUR;
    const to = W1 + 2 * HOUR;
    await asOwner(async () => {
      for (const t of tables) {
        // Shifts: a dozen, dealers drawn from a pool (a dealer taking another table ends their shift here).
        const starts = Array.from({ length: 12 }, () => between(from, to)).sort((a, b) => a - b);
        // One exactly where the widened window starts, one where the window itself ends.
        starts.push(W0 - Number(IDLE_ALLOWANCE / 1000n), W1);
        for (const at of starts) {
          const dealer = dealers[between(0, dealers.length)];
          const { rows } = await owner.query<{ id: string }>(
            `INSERT INTO dealer_shifts (table_id, dealer_id, started_at, recorded_by_key_id) VALUES ($1, $2, $3, 'test') RETURNING id::text`,
            [t.id, dealer, iso(at)],
          );
          shifts.push({ id: rows[0].id, table: t.id, dealer, at });
        }
        // Closures: close and reopen entries of the table's audit stream, the last perhaps never reopened.
        const marks = Array.from({ length: between(0, 5) }, () => between(from, to)).sort((a, b) => a - b);
        const spans: Span[] = [];
        for (let i = 0; i < marks.length; i += 2) {
          const reopen = marks[i + 1] ?? null;
          spans.push({ start: µ(marks[i]), end: reopen === null ? µ(8.64e15) : µ(reopen) });
          for (const [action, at, seq] of [['table.close', marks[i], 1000 + i], ...(reopen === null ? [] : [['table.reopen', reopen, 1001 + i]])] as [
            string,
            number,
            number,
          ][]) {
            await owner.query(
              `INSERT INTO audit_log (stream, seq, hash, payload, at, key_id, role, action, entity_type, entity_id, correlation_id)
               VALUES ($1, $2, 'x', '{}', $3, 'test', 'SUPERVISOR', $4, 'table', $1, 'test')`,
              [t.id, seq, iso(at), action],
            );
          }
        }
        closures.set(t.id, spans);
        // Coups: settled and standing, voided, cancelled while taking bets, one still taking bets;
        // some recorded whole, some opened for betting and dealt later. Two on a window's edge.
        // Mostly in bursts of play, a coup every one to five minutes (about the allowance), with stray ones between.
        const times = [W0, W1 - 1, dayStart(TO) + 30 * MIN, ...Array.from({ length: 20 }, () => between(from, to))];
        for (let burst = 0; burst < 6; burst++) {
          let at = between(from, to);
          for (let i = 0; i < 15; i++) times.push((at += between(MIN, 5 * MIN)));
        }
        for (const [n, called] of times.entries()) {
          const r = random();
          const kind: Coup['kind'] = r < 0.8 ? 'D' : r < 0.88 ? 'V' : r < 0.96 ? 'M' : null;
          const settled = kind === 'D' || kind === 'V';
          const done = settled && random() < 0.3 ? called + between(1, 4 * MIN) : called;
          const { rows } = await owner.query<{ id: string }>(
            `INSERT INTO coups (id, shoe_id, table_id, property_id, number, status, player_cards, banker_cards, opened_at, settled_at, gaming_day)
             VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, '{}', '{}', $6, $7, $8::date) RETURNING id::text`,
            [
              shoes.get(t.id),
              t.id,
              property,
              n + 1,
              settled ? 'SETTLED' : 'BETTING',
              iso(called),
              settled ? iso(done) : null,
              settled ? gamingDayOf(new Date(done), TZ, 6) : null,
            ],
          );
          if (kind === 'V' || kind === 'M') {
            await owner.query(
              `INSERT INTO coup_voids (id, coup_id, property_id, reason, voided_by_key_id, voided_by_role) VALUES (gen_random_uuid(), $1, $2, 'test', 'test', 'SUPERVISOR')`,
              [rows[0].id, property],
            );
          }
          coups.push({ table: t.id, called, done, kind });
        }
      }
    });
  }, 120_000);

  /** A shift's end as dealers.sql says: the table's next shift, or the dealer taking another table. */
  function endOf(s: Shift): number | null {
    const next = shifts.filter((n) => n.table === s.table && (n.at > s.at || (n.at === s.at && n.id > s.id))).map((n) => n.at);
    const moved = shifts.filter((o) => o.dealer === s.dealer && o.table !== s.table && o.at >= s.at).map((o) => o.at);
    const ends = [...next, ...moved];
    return ends.length ? Math.min(...ends) : null;
  }

  /** The report as the domain defines it, from the records themselves. */
  function model(from: string, to: string) {
    const w0 = µ(dayStart(from));
    const w1 = µ(dayStart(new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)));
    const window: Span[] = [{ start: w0, end: w1 }];
    const widened = { start: w0 - IDLE_ALLOWANCE, end: w1 };
    const H = µ(HOUR);
    const off = µ(OFFSET);
    const hourOf = (t: bigint) => ((t + off) / H) * H - off;
    /** A span cut at local hour boundaries. */
    const byHour = (s: Span): Span[] => {
      const out: Span[] = [];
      for (let h = hourOf(s.start); h < s.end; h += H) {
        const part = intersect([s], [{ start: h, end: h + H }]);
        out.push(...part);
      }
      return out;
    };
    type Acc = { staffed: bigint; idle: bigint; decisions: bigint; voids: bigint; misdeals: bigint };
    const acc = new Map<string, Acc>();
    const add = (key: string, a: Partial<Acc>) => {
      const x = acc.get(key) ?? { staffed: 0n, idle: 0n, decisions: 0n, voids: 0n, misdeals: 0n };
      for (const [k, v] of Object.entries(a) as [keyof Acc, bigint][]) x[k] += v;
      acc.set(key, x);
    };
    const outside = new Map<string, bigint>();
    for (const t of tables) {
      const pieces = shifts
        .filter((s) => s.table === t.id)
        .map((s) => {
          const end = endOf(s);
          return { dealer: s.dealer, spans: staffedSpans({ start: µ(s.at), end: end === null ? null : µ(end) }, closures.get(t.id)!, widened, w1) };
        });
      const staffed = unionOf(pieces.flatMap((p) => p.spans));
      const idle = intersect(
        idleSpans(
          staffed,
          coups.filter((c) => c.table === t.id).map((c) => ({ called: µ(c.called), done: µ(c.done) })),
        ),
        window,
      );
      const counted = coups.filter((c) => c.table === t.id && c.kind !== null && µ(c.called) >= w0 && µ(c.called) < w1);
      for (const p of pieces) {
        for (const hs of intersect(p.spans, window).flatMap(byHour)) {
          const h = hourOf(hs.start);
          const local = new Date(Number((h + off) / 1000n));
          const hour = local.getUTCHours();
          const day = new Date(Number((h + off) / 1000n) - 6 * HOUR).toISOString().slice(0, 10);
          const mine = counted.filter((c) => µ(c.called) >= hs.start && µ(c.called) < hs.end);
          const a = {
            staffed: hs.end - hs.start,
            idle: lengthOf(intersect([hs], idle)),
            decisions: BigInt(mine.filter((c) => c.kind === 'D').length),
            voids: BigInt(mine.filter((c) => c.kind === 'V').length),
            misdeals: BigInt(mine.filter((c) => c.kind === 'M').length),
          };
          for (const key of [`dealer|${p.dealer}`, `table|${t.id}`, `hour|${hour}`, `variant|${t.variant}`, `day|${t.variant}|${t.id}|${day}`, 'total'])
            add(key, a);
        }
      }
      const within = intersect(
        pieces.flatMap((p) => p.spans),
        window,
      );
      const out = BigInt(counted.filter((c) => c.kind === 'D' && !within.some((s) => µ(c.called) >= s.start && µ(c.called) < s.end)).length);
      if (out > 0n) outside.set(t.id, out);
    }
    const figures = (key: string) => paceFigures(acc.get(key) ?? { staffed: 0n, idle: 0n, decisions: 0n, voids: 0n, misdeals: 0n });
    const keys = (prefix: string) =>
      [...acc.keys()]
        .filter((k) => k.startsWith(`${prefix}|`))
        .map((k) => k.slice(prefix.length + 1))
        .sort();
    const days = (variant: string) =>
      [...acc.entries()].filter(([k]) => k.startsWith(`day|${variant}|`)).map(([, a]) => ({ decisions: a.decisions, staffed: a.staffed }));
    return {
      totals: { ...figures('total'), decisionsOutsideShifts: Number([...outside.values()].reduce((a, b) => a + b, 0n)) },
      dealers: keys('dealer').map((d) => ({ dealerId: d, ...figures(`dealer|${d}`) })),
      tables: tables
        .filter((t) => acc.has(`table|${t.id}`) || outside.has(t.id))
        .map((t) => ({ tableId: t.id, ...figures(`table|${t.id}`), decisionsOutsideShifts: Number(outside.get(t.id) ?? 0n) })),
      hours: keys('hour')
        .map(Number)
        .sort((a, b) => a - b)
        .map((h) => ({ hour: h, ...figures(`hour|${h}`) })),
      variants: keys('variant').map((v) => ({
        variant: v,
        ...figures(`variant|${v}`),
        observedMedianDecisionsPerHour: medianDecisionsPerHour(days(v)),
        tableDays: days(v).filter((d) => d.staffed > 0n).length,
      })),
    };
  }

  it.each([
    [FROM, TO],
    [TO, TO],
    [FROM, FROM],
  ])('%s to %s: every figure of every row as the domain computes it', async (from, to) => {
    const r = await report(`from=${from}&to=${to}&propertyId=${property}`);
    const m = model(from, to);
    // The model is not trivial: it has staffed time, idle time, every kind of coup and decisions outside shifts.
    expect(m.totals.decisions).toBeGreaterThan(50);
    expect([m.totals.voids > 0, m.totals.misdeals > 0, m.totals.idleMinutes !== '0.0', m.dealers.length > 2]).toEqual([true, true, true, true]);
    expect(r.totals).toEqual(m.totals);
    expect(r.dealers).toEqual(m.dealers);
    expect(
      r.tables.map(({ tableId, tableCode: _c, pit: _p, variant: _v, propertyId: _pr, expected: _e, ...f }: Record<string, unknown>) => ({ tableId, ...f })),
    ).toEqual([...m.tables].sort((a, b) => tables.findIndex((t) => t.id === a.tableId) - tables.findIndex((t) => t.id === b.tableId)));
    expect(r.hours).toEqual(m.hours);
    expect(r.variants.map(({ propertyId: _p, expected: _e, ...f }: Record<string, unknown>) => f)).toEqual(m.variants);
  });
});
