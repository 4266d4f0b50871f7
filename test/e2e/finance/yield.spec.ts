import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenTable } from '../../support/builders';
import { asOwner as asOwnerOf } from '../../support/owner';

/**
 * The yield advisor (GET /v1/reports/yield-advice, /v1/reports/yield-evaluation; docs/domain.md §15)
 * against the real PostgreSQL: the worked example of §15 written as a history (table sessions, changes
 * of limits, coups and their limit rollups, as the database's owner with every trigger off: the
 * records are append-only to the service and stamp the present), whose right advice is known by hand;
 * its held-back test; a table that empties when its minimum is raised; hostile requests.
 */
let ctx: TestContext;
let owner: Client;
let finance: string;

beforeAll(async () => {
  ctx = await startTestApp();
  owner = new Client({ connectionString: ctx.databaseUrl });
  await owner.connect();
  await owner.query(`SELECT sabot_ledger_months('2026-09-01'::date, '2026-11-01'::date)`);
  finance = await givenKey(ctx, 'FINANCE');
}, 60_000);
afterAll(async () => {
  await owner?.end();
  await ctx?.close();
});

const asOwner = (fn: () => Promise<unknown>) => asOwnerOf(owner, fn);

const E12 = 10n ** 12n;

async function givenProperty(name: string): Promise<string> {
  return (await ctx.admin.post('/v1/properties', { name, timeZone: 'UTC', gamingDayStartHour: 6 }).expect(201)).body.id as string;
}

/** A change of a table's minimum from a moment (table_limits), as the pit writes one. */
async function givenLimits(table: { id: string; propertyId: string }, seq: number, minBet: number, at: string): Promise<string> {
  const id = randomUUID();
  await asOwner(() =>
    owner.query(
      `INSERT INTO table_limits (id, table_id, property_id, seq, min_bet, max_bet, bet_limits, reason, changed_by_key_id, effective_at)
       VALUES ($1, $2, $3, $4, $5, 10000000, '{}', 'yield spec', 'test', $6)`,
      [id, table.id, table.propertyId, seq, minBet, at],
    ),
  );
  return id;
}

/**
 * An hour of play from `at` (UTC, a property in UTC with gaming days from 06:00): the table's session
 * open for the hour, 10 coups under the change of limits `limits` (null: the opening limits) with
 * `players` seated on each, and their rollup: handle players × 10 × avgBet, theo `theo` minor units.
 */
async function givenHour(
  table: { id: string; propertyId: string },
  at: string,
  o: { limits: string | null; seq: number; players: number; avgBet: number; theo: bigint },
): Promise<void> {
  const start = Date.parse(at);
  const day = new Date(start - 6 * 3_600_000).toISOString().slice(0, 10);
  const shoe = randomUUID();
  await asOwner(async () => {
    await owner.query(
      `INSERT INTO table_sessions (id, table_id, gaming_day, status, opener, opener_total, opened_by_key_id, closed_by_key_id, opened_at, closed_at)
       VALUES ($1, $2, $3, 'CLOSED', '[]', 0, 'test', 'test', $4, $5)`,
      [randomUUID(), table.id, day, at, new Date(start + 3_600_000).toISOString()],
    );
    for (let i = 0; i < 10 && o.players > 0; i++) {
      const t = new Date(start + (i * 6 + 3) * 60_000).toISOString();
      await owner.query(
        `INSERT INTO coups (id, shoe_id, table_id, property_id, number, status, player_cards, banker_cards, opened_at, settled_at, gaming_day, limits_id)
         VALUES ($1, $2, $3, $4, $5, 'SETTLED', '{}', '{}', $6, $6, $7, $8)`,
        [randomUUID(), shoe, table.id, table.propertyId, i + 1, t, day, o.limits],
      );
    }
    if (o.players > 0) {
      await owner.query(
        `INSERT INTO limit_rollups (table_id, property_id, gaming_day, limits_seq, coups, players, wagers, handle, customer_net, commission, theo_e12)
         VALUES ($1, $2, $3, $4, 10, $5, $5, $6, 0, 0, $7)`,
        [table.id, table.propertyId, day, o.seq, o.players * 10, o.players * 10 * o.avgBet, (o.theo * E12).toString()],
      );
    }
  });
}

const advice = async (query: string) => (await ctx.as(finance).get(`/v1/reports/yield-advice?${query}`).expect(200)).body;

describe('the worked example of docs/domain.md §15', () => {
  // Casino Yield (UTC, gaming days from 06:00), three commission tables, C never opened. Monday 20:00:
  // on 5 October A seats 6 and B 4 at 100.00; A is raised to 500.00 and on 12 October keeps 3 while B
  // seats 7; A is back at 100.00 from 19 October: 26 October A 6 and B 4, then only A with 6.
  let property: string;
  beforeAll(async () => {
    property = await givenProperty('Casino Yield');
    const [a, b] = [
      await givenTable(ctx, { code: 'YLD-A', propertyId: property, minBet: 10000 }),
      await givenTable(ctx, { code: 'YLD-B', propertyId: property, minBet: 10000 }),
      await givenTable(ctx, { code: 'YLD-C', propertyId: property, minBet: 10000 }),
    ];
    const raised = await givenLimits(a, 1, 50000, '2026-10-12T19:00:00Z');
    const back = await givenLimits(a, 2, 10000, '2026-10-19T07:00:00Z');
    const at100 = { limits: null, seq: 0, avgBet: 20000 };
    await givenHour(a, '2026-10-05T20:00:00Z', { ...at100, players: 6, theo: 12000n });
    await givenHour(b, '2026-10-05T20:00:00Z', { ...at100, players: 4, theo: 8000n });
    await givenHour(a, '2026-10-12T20:00:00Z', { limits: raised, seq: 1, players: 3, avgBet: 60000, theo: 30000n });
    await givenHour(b, '2026-10-12T20:00:00Z', { ...at100, players: 7, theo: 14000n });
    await givenHour(a, '2026-10-19T20:00:00Z', { limits: back, seq: 2, avgBet: 20000, players: 6, theo: 12000n });
    await givenHour(b, '2026-10-19T20:00:00Z', { ...at100, players: 4, theo: 8000n });
    await givenHour(a, '2026-10-26T20:00:00Z', { limits: back, seq: 2, avgBet: 20000, players: 6, theo: 12000n });
  }, 60_000);

  it('advises one table at 500.00 and one at 100.00 on Monday 20:00, 600.00 an hour against 320.00 done', async () => {
    const r = await advice(`propertyId=${property}&from=2026-10-05&to=2026-10-18`);
    expect(r).toMatchObject({ propertyId: property, currency: 'EUR', tables: 3, seatsPerTable: 9, weeks: 2 });
    expect(r.levels).toEqual([
      {
        minBet: 10000,
        tableHours: '3.00',
        seatHours: '17.00',
        occupancy: '5.67',
        playerDecisions: 170,
        averageBet: 20000,
        theoPerSeatHour: 2000,
        retention: '1.0000',
        retentionFrom: 'LOWEST',
      },
      {
        minBet: 50000,
        tableHours: '1.00',
        seatHours: '3.00',
        occupancy: '3.00',
        playerDecisions: 30,
        averageBet: 60000,
        theoPerSeatHour: 10000,
        retention: '0.5000',
        retentionFrom: 'SAME_TABLE_HOUR',
      },
    ]);
    expect(r.hours).toHaveLength(168);
    expect(r.hours[20]).toEqual({
      hourOfWeek: 20,
      day: 'MON',
      hour: 20,
      weeks: 2,
      demand: '10.00',
      advice: [
        { minBet: 10000, tables: 1 },
        { minBet: 50000, tables: 1 },
      ],
      expected: { theo: 60000, low: 60000, high: 60000 },
      done: [
        { minBet: 10000, tables: '1.50' },
        { minBet: 50000, tables: '0.50' },
      ],
      actual: { theo: 32000, low: 8000, high: 56000 },
      modelOfDone: 40000,
      gain: { theo: 28000, low: 4000, high: 52000 },
    });
    expect(r.hours[21]).toMatchObject({ day: 'MON', hour: 21, demand: '0.00', advice: [], done: [], expected: { theo: 0 }, actual: { theo: 0 } });
    expect(r.totals).toEqual({
      expected: { theo: 60000, low: 60000, high: 60000 },
      actual: { theo: 32000, low: 8000, high: 56000 },
      modelOfDone: 40000,
      gain: { theo: 28000, low: 4000, high: 52000 },
    });
  });

  it('would have won 640.00 more in the two held-back weeks, band 320.00 to 960.00', async () => {
    const r = (await ctx.as(finance).get(`/v1/reports/yield-evaluation?propertyId=${property}&from=2026-10-05&to=2026-11-01&holdBackWeeks=2`).expect(200)).body;
    expect(r).toMatchObject({
      propertyId: property,
      trainFrom: '2026-10-05',
      trainTo: '2026-10-18',
      heldFrom: '2026-10-19',
      heldTo: '2026-11-01',
      heldWeeks: 2,
      advised: { theo: 96000, low: 48000, high: 144000 },
      actual: 32000,
      modelOfDone: 32000,
      gain: { theo: 64000, low: 32000, high: 96000 },
      weeks: [
        { week: 0, advised: 60000, actual: 20000, modelOfDone: 20000 },
        { week: 1, advised: 36000, actual: 12000, modelOfDone: 12000 },
      ],
    });
    expect(r.advice.hours[20].advice).toEqual([
      { minBet: 10000, tables: 1 },
      { minBet: 50000, tables: 1 },
    ]);
  });
});

describe('a table that empties when its minimum is raised', () => {
  // Saturday 22:00 (hour of the week 142), one table: 100.00 seats 7 (theo 140.00) on 3 October;
  // raised to 500.00 it stands open and empty on 10 October. The data says: keep it at 100.00.
  let property: string;
  beforeAll(async () => {
    property = await givenProperty('Casino Empty');
    const t = await givenTable(ctx, { code: 'EMPTY-1', propertyId: property, minBet: 10000 });
    await givenHour(t, '2026-10-03T22:00:00Z', { limits: null, seq: 0, players: 7, avgBet: 20000, theo: 14000n });
    const raised = await givenLimits(t, 1, 50000, '2026-10-05T12:00:00Z');
    await givenHour(t, '2026-10-10T22:00:00Z', { limits: raised, seq: 1, players: 0, avgBet: 0, theo: 0n });
  }, 60_000);

  it('advises the table at 100.00, and the minimum of 500.00 kept nobody', async () => {
    // 28 September to 11 October: two weeks from Monday.
    const r = await advice(`propertyId=${property}&from=2026-09-28&to=2026-10-11`);
    expect(r.levels.map((l: { minBet: number; retention: string; occupancy: string }) => [l.minBet, l.retention, l.occupancy])).toEqual([
      [10000, '1.0000', '7.00'],
      [50000, '0.0000', '0.00'],
    ]);
    expect(r.hours[142]).toMatchObject({
      day: 'SAT',
      hour: 22,
      demand: '3.50',
      advice: [{ minBet: 10000, tables: 1 }],
      // The advice at 3.5 players on average: 7 × 20.00 and 0 → 70.00; what was done made 140.00, then 0.
      expected: { theo: 7000 },
      actual: { theo: 7000, low: -7000, high: 21000 },
      modelOfDone: 7000,
    });
  });
});

describe("hours of the week in the property's own time zone", () => {
  it('puts an hour of play in Kolkata (UTC+5:30) at its local hour, whole', async () => {
    const property = (await ctx.admin.post('/v1/properties', { name: 'Casino Kolkata', timeZone: 'Asia/Kolkata', gamingDayStartHour: 6 }).expect(201)).body
      .id as string;
    const t = await givenTable(ctx, { code: 'KOL-1', propertyId: property, minBet: 10000 });
    // Monday 5 October 20:00–21:00 local is 14:30–15:30 UTC.
    await givenHour(t, '2026-10-05T14:30:00Z', { limits: null, seq: 0, players: 6, avgBet: 20000, theo: 12000n });
    const r = await advice(`propertyId=${property}&from=2026-10-05&to=2026-10-11`);
    expect(r.hours[20]).toMatchObject({ day: 'MON', hour: 20, demand: '6.00', actual: { theo: 12000 }, done: [{ minBet: 10000, tables: '1.00' }] });
    expect(r.hours.filter((h: { demand: string }) => h.demand !== '0.00')).toHaveLength(1);
  });
});

describe('hostile requests', () => {
  it.each([
    ['no property', 'from=2026-10-01&to=2026-10-31'],
    ['a property that is not a uuid', 'propertyId=1&from=2026-10-01&to=2026-10-31'],
    ['a day that does not exist', `propertyId=${randomUUID()}&from=2026-02-30&to=2026-03-31`],
    ['from after to', `propertyId=${randomUUID()}&from=2026-10-31&to=2026-10-01`],
    ['more than a year', `propertyId=${randomUUID()}&from=2025-01-01&to=2026-10-31`],
    ['ten thousand years', `propertyId=${randomUUID()}&from=0001-01-01&to=9999-12-31`],
    ['an unknown parameter', `propertyId=${randomUUID()}&from=2026-10-01&to=2026-10-31&tables=3`],
  ])('%s: 400 VALIDATION_FAILED', async (_what, query) => {
    for (const path of ['yield-advice', 'yield-evaluation']) {
      const r = await ctx.as(finance).get(`/v1/reports/${path}?${query}`);
      expect({ path, status: r.status, code: r.body.code }).toEqual({ path, status: 400, code: 'VALIDATION_FAILED' });
    }
  });

  it('refuses held-back weeks out of range, or leaving no week to learn from', async () => {
    const p = randomUUID();
    for (const q of [
      'from=2026-09-01&to=2026-10-31&holdBackWeeks=0',
      'from=2026-09-01&to=2026-10-31&holdBackWeeks=14',
      'from=2026-09-01&to=2026-10-31&holdBackWeeks=2.5',
      'from=2026-09-01&to=2026-10-31&holdBackWeeks=x',
      'from=2026-10-01&to=2026-10-31&holdBackWeeks=4', // 31 days: 3 left before the 28 held back
    ]) {
      const r = await ctx.as(finance).get(`/v1/reports/yield-evaluation?propertyId=${p}&${q}`);
      expect({ q, status: r.status, code: r.body.code }).toEqual({ q, status: 400, code: 'VALIDATION_FAILED' });
    }
  });

  it('answers 404 for a property that does not exist, and 403 to a role that reads no figures', async () => {
    const unknown = randomUUID();
    for (const path of ['yield-advice', 'yield-evaluation']) {
      const r = await ctx.as(finance).get(`/v1/reports/${path}?propertyId=${unknown}&from=2026-09-01&to=2026-10-31`);
      expect({ path, status: r.status, code: r.body.code }).toEqual({ path, status: 404, code: 'NOT_FOUND' });
    }
    const host = await givenKey(ctx, 'HOST');
    expect((await ctx.as(host).get(`/v1/reports/yield-advice?propertyId=${unknown}&from=2026-09-01&to=2026-10-31`)).status).toBe(403);
  });

  it('answers a property without tables or play with every hour empty', async () => {
    const property = await givenProperty('Casino Bare');
    const r = await advice(`propertyId=${property}&from=2026-10-05&to=2026-10-11`);
    expect(r).toMatchObject({ tables: 0, currency: null, weeks: 1, levels: [] });
    expect(r.hours).toHaveLength(168);
    expect(r.hours.every((h: { advice: unknown[]; expected: { theo: number; low: null } }) => h.advice.length === 0 && h.expected.theo === 0)).toBe(true);
    expect(r.totals.expected).toEqual({ theo: 0, low: null, high: null });
  });
});
