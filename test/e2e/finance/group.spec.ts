import { INestApplication } from '@nestjs/common';
import { gamingDayOf, parseRate, translate } from '../../../src/domain';
import { groupLinks, publishToGroup, subscribeToProperty } from '../../../src/platform/database/group';
import { DEFAULT_PROPERTY_ID } from '../../../src/foundation/pit/table-rules';
import { pgRunner } from '../../../src/platform/database/sql';
import { appOn, TestContext } from '../../support/app';
import { dealtHands, givenKey, givenPit, givenVoid } from '../../support/builders';
import { Cluster, primaryCluster, sabotDatabase, superuser } from '../../support/clusters';

/**
 * A casino group (issue 20): two properties, each with its own cluster and database, and a group
 * cluster subscribed to both by PostgreSQL's logical replication, all made on this machine. Coups on
 * both properties appear in the group's statement, translated into one currency at daily rates; the
 * group's database down and back loses nothing; a property's pit never waits on the group.
 */
const today = () => gamingDayOf(new Date(), 'UTC', 6);
const dayBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

interface Property {
  cluster: Cluster;
  ownerUrl: string;
  serviceUrl: string;
  ctx: TestContext;
  app: INestApplication;
  propertyId: string;
  finance: string;
  pit: Awaited<ReturnType<typeof givenPit>>;
  hands: { player: string[]; banker: string[] }[];
}
let macau: Property;
let strip: Property;
let group: { cluster: Cluster; serviceUrl: string; ctx: TestContext; app: INestApplication; finance: string };
const others: (() => Promise<void>)[] = [];

async function property(name: string, currency: string, seed: number): Promise<Property> {
  const cluster = await primaryCluster();
  const { ownerUrl, serviceUrl } = await sabotDatabase(cluster);
  const { app, ...ctx } = await appOn({ DATABASE_URL: serviceUrl });
  const made = await ctx.admin.post('/v1/properties', { name, timeZone: 'UTC', gamingDayStartHour: 6 });
  expect(made.status).toBe(201);
  const pit = await givenPit(ctx as unknown as TestContext, { code: 'BAC-01', propertyId: made.body.id, currency });
  const finance = await givenKey(ctx as unknown as TestContext, 'FINANCE');
  return { cluster, ownerUrl, serviceUrl, ctx: ctx as unknown as TestContext, app, propertyId: made.body.id, finance, pit, hands: dealtHands(8, seed, 60) };
}

const coup = (p: Property, amount: number) =>
  p.ctx.as(p.pit.terminal).post(`/v1/shoes/${p.pit.shoe.id}/coups`, {
    cards: p.hands.shift(),
    wagers: [
      { seat: 1, betType: 'BANKER', amount },
      { seat: 2, betType: 'PLAYER', amount: amount + 50 },
      { seat: 3, betType: 'TIE', amount: 125 },
    ],
  });

const report = (ctx: TestContext, key: string, query: string) => ctx.as(key).get(`/v1/reports/win-loss?from=${dayBefore(today(), 7)}&to=${today()}&${query}`);

/** A property's own statement, as its own database answers it. */
const ownStatement = async (p: Property) => (await report(p.ctx, p.finance, 'groupBy=property')).body;

/** The group's row of a property, or undefined while it has not arrived. */
const groupRow = async (p: Property) => {
  const res = await report(group.ctx, group.finance, 'groupBy=property');
  expect(res.status).toBe(200);
  return (res.body.rows as { group: { propertyId: string } }[]).find((r) => r.group.propertyId === p.propertyId);
};

/**
 * Waits until the group's statement holds each property's own figures and every published table
 * has had its first copy (or the deadline passes:
 * then the last difference is the failure). A wait on a condition, never a fixed sleep.
 */
async function groupHasCaughtUp(deadlineMs = 90_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const [a, b] = [await ownStatement(macau), await ownStatement(strip)];
    const [ga, gb] = [await groupRow(macau), await groupRow(strip)];
    const res = await report(group.ctx, group.finance, 'groupBy=property');
    const voided = { coups: a.voided.coups + b.voided.coups, wagers: a.voided.wagers + b.voided.wagers, handle: a.voided.handle + b.voided.handle };
    // Every published table past its first copy too (the report reads only some of them).
    const copying = (await superuser(group.cluster.url('sabot'), (db) => groupLinks(pgRunner(db)))).map((l) => l.tablesCopying);
    const same = JSON.stringify([ga, gb, res.body.voided, copying]) === JSON.stringify([a.rows[0], b.rows[0], voided, [0, 0]]);
    if (same) return;
    if (Date.now() > until) expect([ga, gb, res.body.voided, copying]).toEqual([a.rows[0], b.rows[0], voided, [0, 0]]);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  [macau, strip] = await Promise.all([property('Macau Peninsula', 'HKD', 31), property('Las Vegas Strip', 'USD', 32)]);
  const cluster = await primaryCluster();
  const { serviceUrl } = await sabotDatabase(cluster);
  const { app, ...ctx } = await appOn({ DATABASE_URL: serviceUrl });
  group = { cluster, serviceUrl, app, ctx: ctx as unknown as TestContext, finance: await givenKey(ctx as unknown as TestContext, 'FINANCE') };
  for (const p of [macau, strip]) expect(await superuser(p.ownerUrl, (db) => publishToGroup(db, DEFAULT_PROPERTY_ID))).toBe('published');
  await superuser(group.cluster.url('sabot'), async (db) => {
    await subscribeToProperty(db, 'macau', `host=127.0.0.1 port=${macau.cluster.port} dbname=sabot user=postgres`);
    await subscribeToProperty(db, 'strip', `host=127.0.0.1 port=${strip.cluster.port} dbname=sabot user=postgres`);
  });
}, 240_000);

afterAll(async () => {
  for (const close of others) await close();
  for (const p of [macau, strip]) await p?.app.close();
  await group?.app.close();
  // The group's subscriptions hold slots on the properties: the group goes first.
  await group?.cluster.destroy();
  for (const p of [macau, strip]) await p?.cluster.destroy();
});

it("coups on both properties appear in the group's statement, each property's figures as its own database gives them", async () => {
  for (let i = 0; i < 6; i++) {
    expect((await coup(macau, 10_000 + i * 100)).status).toBe(201);
    expect((await coup(strip, 2_500 + i * 10)).status).toBe(201);
  }
  await groupHasCaughtUp();
  const res = await report(group.ctx, group.finance, 'groupBy=property');
  // Rows come in the order of the properties' ids (random uuids): compared by name.
  const named = (res.body.rows as { group: { propertyName: string; currency: string }; coups: number }[]).map((r) => [
    r.group.propertyName,
    r.group.currency,
    r.coups,
  ]);
  expect(named.sort()).toEqual([
    ['Las Vegas Strip', 'USD', 6],
    ['Macau Peninsula', 'HKD', 6],
  ]);
  // Two currencies: no grand total until the report is asked in one.
  expect(res.body.totals).toBeNull();
  expect(res.body.totalsByCurrency.map((t: { currency: string }) => t.currency)).toEqual(['HKD', 'USD']);
  // Finance sees the links through the group's service (its own role, not a superuser); a property has none.
  const seen = await group.ctx.as(group.finance).get('/v1/group/links');
  expect(seen.body.map((l: { name: string; connected: boolean; tablesCopying: number }) => [l.name, l.connected, l.tablesCopying])).toEqual([
    ['macau', true, 0],
    ['strip', true, 0],
  ]);
  expect(seen.body[0].lastMessageAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
  expect((await macau.ctx.as(macau.finance).get('/v1/group/links')).body).toEqual([]);
  // The group knows both links, connected, with every table copied.
  const links = await superuser(group.cluster.url('sabot'), (db) => groupLinks(pgRunner(db)));
  expect(links.map((l) => [l.name, l.enabled, l.connected, l.tablesCopying])).toEqual([
    ['sabot_group_macau', true, true, 0],
    ['sabot_group_strip', true, true, 0],
  ]);
});

it("gives the group's statement in one currency at each day's rate: exact, rounded once, as domain/money/fx.ts translates", async () => {
  await groupHasCaughtUp();
  const usd = () => report(group.ctx, group.finance, 'groupBy=property&currency=USD');
  // No HKD rate yet: refused, saying which rate is missing.
  const refused = await usd();
  expect([refused.status, refused.body.code]).toEqual([422, 'EXCHANGE_RATE_MISSING']);
  expect(refused.body.message).toContain(`No HKD to USD exchange rate on or before ${today()}`);

  // Rates entered by finance: an older day, the day before (corrected), and a later day that does not apply.
  for (const [day, rate] of [
    [dayBefore(today(), 3), '0.1279'],
    [dayBefore(today(), 1), '0.1284'],
    [dayBefore(today(), 1), '0.128437'],
    [dayBefore(today(), -1), '0.2'],
  ]) {
    const r = await group.ctx.as(group.finance).post('/v1/exchange-rates', { day, currency: 'HKD', into: 'USD', rate });
    expect([r.status, r.body.rate]).toEqual([201, rate]);
  }
  const listed = await group.ctx.as(group.finance).get(`/v1/exchange-rates?from=${dayBefore(today(), 3)}&to=${today()}&into=USD`);
  expect(listed.body.map((r: { day: string; rate: string; inForce: boolean }) => [r.day, r.rate, r.inForce])).toEqual([
    [dayBefore(today(), 3), '0.1279', true],
    [dayBefore(today(), 1), '0.1284', false],
    [dayBefore(today(), 1), '0.128437', true],
  ]);

  const res = await usd();
  expect(res.status).toBe(200);
  const [hk, us] = [(await ownStatement(macau)).totals, (await ownStatement(strip)).totals];
  const rate = parseRate('0.128437')!;
  const inUsd = (field: 'handle' | 'payouts' | 'win' | 'commissionCharged' | 'revenue') =>
    Number(
      translate(
        [
          { amount: BigInt(hk[field]), currency: 'HKD', rateE9: rate },
          { amount: BigInt(us[field]), currency: 'USD', rateE9: parseRate('1')! },
        ],
        'USD',
      ),
    );
  expect(res.body.totals).toMatchObject({
    currency: 'USD',
    coups: hk.coups + us.coups,
    wagers: hk.wagers + us.wagers,
    handle: inUsd('handle'),
    payouts: inUsd('payouts'),
    win: inUsd('win'),
    commissionCharged: inUsd('commissionCharged'),
    revenue: inUsd('revenue'),
  });
  expect(res.body.totalsByCurrency).toEqual([res.body.totals]);
  // Every row is in USD now; the Strip's own figures are unchanged by a rate of 1.
  const rows = (res.body.rows as { group: { propertyName: string; currency: string }; handle: number; win: number }[]).sort((x, y) =>
    x.group.propertyName.localeCompare(y.group.propertyName),
  );
  expect(rows.map((r) => [r.group.propertyName, r.group.currency])).toEqual([
    ['Las Vegas Strip', 'USD'],
    ['Macau Peninsula', 'USD'],
  ]);
  expect([rows[0].handle, rows[0].win]).toEqual([us.handle, us.win]);
  expect(rows[1].handle).toBe(Number(translate([{ amount: BigInt(hk.handle), currency: 'HKD', rateE9: rate }], 'USD')));
  // The same totals whatever the rows are grouped by: by bet type the days are read per bet type.
  const byBet = await report(group.ctx, group.finance, 'groupBy=betType&currency=USD');
  expect([byBet.status, byBet.body.totals.handle, byBet.body.totals.win]).toEqual([200, res.body.totals.handle, res.body.totals.win]);
  // Rows at the rollup's own grain (a table's day) are translated too, not sent as the rollup keeps them.
  const byDay = await report(group.ctx, group.finance, 'groupBy=table,gamingDay&currency=USD');
  expect(byDay.body.rows.map((r: { group: { currency: string } }) => r.group.currency)).toEqual(['USD', 'USD']);
  expect(byDay.body.rows.map((r: { handle: number }) => r.handle).sort()).toEqual([rows[0].handle, rows[1].handle].sort());
  // The CSV export says the same.
  const csv = await report(group.ctx, group.finance, 'groupBy=property&currency=USD').set('Accept', 'text/csv');
  expect(csv.text).toContain(String(rows[1].handle));
});

it("the group's database down and back loses nothing: the properties' pits go on, voids included, and the group catches up", async () => {
  await groupHasCaughtUp();
  await group.app.close();
  await group.cluster.stop('immediate');
  // The link is down: the pits record, and a coup is voided under two-person control.
  for (let i = 0; i < 4; i++) {
    expect((await coup(macau, 20_000)).status).toBe(201);
    expect((await coup(strip, 3_000)).status).toBe(201);
  }
  const voided = await coup(macau, 40_000); // the shoe's last coup: the one a void may take back
  expect(voided.status).toBe(201);
  await givenVoid(macau.ctx, 'coups', voided.body.id, 'Misdeal', macau.pit.supervisor, await givenKey(macau.ctx, 'SUPERVISOR'));
  const own = (await ownStatement(macau)).totals;
  expect([own.coups, (await ownStatement(macau)).voided]).toEqual([10, { coups: 1, wagers: 3, handle: 80_175 }]);

  await group.cluster.start();
  const { app, ...ctx } = await appOn({ DATABASE_URL: group.serviceUrl });
  group.app = app;
  group.ctx = ctx as unknown as TestContext;
  await groupHasCaughtUp();
  const res = await report(group.ctx, group.finance, 'groupBy=property');
  expect(res.body.rows.map((r: { coups: number }) => r.coups)).toEqual([10, 10]);
  expect(res.body.voided).toEqual({ coups: 1, wagers: 3, handle: 80_175 });
});

it('a database whose default property has tables cannot join a group; a member opens tables only under its own property', async () => {
  const { ownerUrl, serviceUrl } = await sabotDatabase(macau.cluster, 'lonely');
  const { app, ...ctx } = await appOn({ DATABASE_URL: serviceUrl });
  others.push(() => app.close());
  await givenPit(ctx as unknown as TestContext, { code: 'OLD-1' });
  await expect(superuser(ownerUrl, (db) => publishToGroup(db, DEFAULT_PROPERTY_ID))).rejects.toThrow('The default property has 1 table(s)');
  expect(await superuser(ownerUrl, async (db) => (await db.query('SELECT count(*)::int AS n FROM pg_publication')).rows[0].n)).toBe(0);

  // A member: a table without a property is refused, nothing written; under its property it opens.
  expect(await superuser(macau.ownerUrl, (db) => publishToGroup(db, DEFAULT_PROPERTY_ID))).toBe('already published');
  const tables = async () => (await macau.ctx.admin.get('/v1/tables')).body.length;
  const before = await tables();
  const refused = await macau.ctx.admin.post('/v1/tables', { code: 'BAC-09', variant: 'COMMISSION', currency: 'HKD', minBet: 100, maxBet: 100_000 });
  expect([refused.status, refused.body.code]).toEqual([409, 'GROUP_NEEDS_PROPERTY']);
  expect(await tables()).toBe(before);
  const opened = await macau.ctx.admin.post('/v1/tables', {
    code: 'BAC-09',
    variant: 'COMMISSION',
    currency: 'HKD',
    minBet: 100,
    maxBet: 100_000,
    propertyId: macau.propertyId,
  });
  expect(opened.status).toBe(201);
});

it('exchange rates: bad input is refused with a clear error and nothing is written', async () => {
  const post = (body: object) => group.ctx.as(group.finance).post('/v1/exchange-rates', body);
  const count = async () => (await group.ctx.as(group.finance).get(`/v1/exchange-rates?from=2000-01-01&to=2100-12-31`)).body.length;
  const before = await count();
  for (const [body, says] of [
    [{ day: today(), currency: 'USD', into: 'USD', rate: '1' }, 'currency and into are both USD'],
    [{ day: today(), currency: 'HKD', into: 'USD', rate: '0' }, 'rate must be above 0'],
    [{ day: today(), currency: 'HKD', into: 'USD', rate: '1.0000000001' }, 'at most 9 decimals'],
    [{ day: today(), currency: 'hkd', into: 'USD', rate: '1' }, 'ISO 4217'],
    [{ day: '2026-02-30', currency: 'HKD', into: 'USD', rate: '1' }, 'calendar date'],
    [{ day: today(), currency: 'HKD', into: 'USD', rate: 0.128 }, 'must be text'],
  ] as const) {
    const r = await post(body);
    expect([r.status, r.body.code, JSON.stringify(r.body)]).toEqual([400, 'VALIDATION_FAILED', expect.stringContaining(says)]);
  }
  const pit = await post({ day: today(), currency: 'HKD', into: 'USD', rate: '0.13' }).set('Authorization', `Bearer ${macau.pit.terminal}`);
  expect(pit.status).toBe(401); // the Strip's terminal key means nothing to the group
  expect(await count()).toBe(before);
});
