import { INestApplication } from '@nestjs/common';
import { gamingDayOf } from '../../../src/domain';
import { lsnBytes } from '../../../src/platform/database/read-database';
import { withUser } from '../../../src/platform/database/roles';
import { appOn, TestContext } from '../../support/app';
import { dealtHands, givenKey, givenPit } from '../../support/builders';
import { Cluster, primaryCluster, replayed, replicaOf, sabotDatabase, superuser, walPosition } from '../../support/clusters';

/**
 * Reports off the primary (issue 20): a real primary and a real streaming replica of it, made on
 * this machine as production makes them (initdb, pg_basebackup -R, a port of its own). The service
 * writes to the primary and reads its reports from the replica while that is within the bound;
 * a replica held back (replay paused) or stopped is never read past the bound: the primary answers,
 * or, when the service is set to refuse, a 503 that says why.
 */
let primary: Cluster;
let replica: Cluster;
let serviceUrl: string;
let replicaUrl: string;
const apps: INestApplication[] = [];
const today = () => gamingDayOf(new Date(), 'UTC', 6);

/** The service on the pair, with a read policy. */
async function service(env: NodeJS.ProcessEnv = {}) {
  const s = await appOn({ DATABASE_URL: serviceUrl, DATABASE_READ_URL: replicaUrl, READ_MAX_LAG_MS: '60000', ...env });
  apps.push(s.app);
  return s as unknown as TestContext;
}

const pausedReplay = (paused: boolean) =>
  superuser(replica.url('sabot'), (db) => db.query(paused ? 'SELECT pg_wal_replay_pause()' : 'SELECT pg_wal_replay_resume()'));
const caughtUp = async () => replayed(replica.url('sabot'), await walPosition(primary.url('sabot')));

let pit: Awaited<ReturnType<typeof givenPit>>;
let finance: string;
let ctx: TestContext;
const coups = async (read: TestContext, wants?: string) => {
  const r = read.as(finance).get(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=table`);
  return wants === undefined ? r : r.set('X-Read-From', wants);
};
const played = (res: { body: { totals: { coups: number } | null } }) => res.body.totals?.coups ?? 0;
const hands = dealtHands(8, 20, 40); // the shoe's coups, as a real shuffle deals them
const coup = () =>
  ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: hands.shift(), wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] });

beforeAll(async () => {
  primary = await primaryCluster();
  const made = await sabotDatabase(primary);
  serviceUrl = made.serviceUrl;
  replica = await replicaOf(primary);
  replicaUrl = withUser(replica.url('sabot'), 'sabot_service', decodeURIComponent(new URL(serviceUrl).password));
  ctx = await service();
  pit = await givenPit(ctx, { code: 'REPLICA-1' });
  finance = await givenKey(ctx, 'FINANCE');
}, 180_000);

afterAll(async () => {
  for (const app of apps) await app.close();
  await replica?.destroy();
  await primary?.destroy();
});

it('write-ahead log positions compare as numbers, not as text', () => {
  expect(lsnBytes('0/FFFFFFFF') < lsnBytes('1/0')).toBe(true);
  expect(lsnBytes('A/0') > lsnBytes('9/FFFFFFFF')).toBe(true);
  expect(lsnBytes('16/B374D848')).toBe(0x16b374d848n);
});

it('reports read the replica while the pit writes to the primary; the answer says which, and how far behind', async () => {
  // Coups go in while reports are asked for, at the same time.
  const reports: Awaited<ReturnType<typeof coups>>[] = [];
  await Promise.all([
    (async () => {
      for (let i = 0; i < 12; i++) expect((await coup()).status).toBe(201);
    })(),
    (async () => {
      for (let i = 0; i < 12; i++) reports.push(await coups(ctx));
    })(),
  ]);
  for (const r of reports) {
    expect(r.status).toBe(200);
    expect(r.headers['x-read-from']).toBe('replica');
    expect(Number(r.headers['x-replica-lag-ms'])).toBeGreaterThanOrEqual(0);
    expect(Number(r.headers['x-replica-lag-ms'])).toBeLessThanOrEqual(60_000);
  }
  await caughtUp();
  const fromReplica = await coups(ctx);
  const fromPrimary = await coups(ctx, 'primary');
  expect([fromReplica.headers['x-read-from'], fromPrimary.headers['x-read-from'], fromPrimary.headers['x-replica-lag-ms']]).toEqual([
    'replica',
    'primary',
    undefined,
  ]);
  expect(played(fromReplica)).toBe(12);
  expect(fromReplica.body).toEqual(fromPrimary.body);
  // Every report answers from the replica, the CSV export and the reconciliation too.
  for (const path of [
    `/v1/reports/quarterly?year=${today().slice(0, 4)}&quarter=${Math.floor((Number(today().slice(5, 7)) - 1) / 3) + 1}`,
    `/v1/reports/table-accounting?from=${today()}&to=${today()}`,
    `/v1/reports/reconciliation?from=${today()}&to=${today()}`,
  ]) {
    const r = await ctx.as(finance).get(path);
    expect([path, r.status, r.headers['x-read-from']]).toEqual([path, 200, 'replica']);
  }
  const csv = await ctx.as(finance).get(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=table`).set('Accept', 'text/csv');
  expect([csv.status, csv.headers['x-read-from'], csv.text.split('\n')[1]]).toEqual([200, 'replica', expect.stringContaining('REPLICA-1')]);
  expect((await ctx.as(finance).get(`/v1/reports/reconciliation?from=${today()}&to=${today()}`)).body.differences).toEqual([]);
});

it('a replica held back within the bound answers as it stands, and says so; X-Read-From: primary sees the write just made', async () => {
  await caughtUp();
  const before = played(await coups(ctx));
  await pausedReplay(true);
  try {
    expect((await coup()).status).toBe(201);
    const stale = await coups(ctx);
    expect([stale.status, stale.headers['x-read-from'], played(stale)]).toEqual([200, 'replica', before]);
    const own = await coups(ctx, 'primary');
    expect([own.status, own.headers['x-read-from'], played(own)]).toEqual([200, 'primary', before + 1]);
  } finally {
    await pausedReplay(false);
  }
  await caughtUp();
  expect(played(await coups(ctx))).toBe(before + 1);
});

it('a replica behind the bound is never read: the primary answers, or (READ_WHEN_BEHIND=refuse) a 503 that says why', async () => {
  const strict = await service({ READ_MAX_LAG_MS: '0' });
  const refusing = await service({ READ_MAX_LAG_MS: '0', READ_WHEN_BEHIND: 'refuse' });
  await pausedReplay(true);
  try {
    expect((await coup()).status).toBe(201);
    const truth = played(await coups(ctx, 'primary'));
    const fallback = await coups(strict);
    expect([fallback.status, fallback.headers['x-read-from'], played(fallback)]).toEqual([200, 'primary', truth]);
    const refused = await coups(refusing);
    expect([refused.status, refused.body.code, refused.headers['retry-after']]).toEqual([503, 'REPLICA_BEHIND', '2']);
    expect(refused.body.message).toMatch(/replica cannot answer within 0 ms/);
    expect(refused.body.details).toEqual({ lagMs: expect.any(Number), maxLagMs: 0 });
    // A request that is wrong in itself is told so first, whatever the replica's state.
    const impossible = await refusing.as(finance).get('/v1/reports/quarterly?year=1999&quarter=1');
    expect([impossible.status, impossible.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    // Asking for the primary is always answered.
    expect((await coups(refusing, 'primary')).headers['x-read-from']).toBe('primary');
  } finally {
    await pausedReplay(false);
  }
});

it('a replica that stops answering is not waited on: the primary answers, or a 503; when it is back, reports return to it', async () => {
  const refusing = await service({ READ_WHEN_BEHIND: 'refuse' });
  await caughtUp();
  expect((await coups(refusing)).headers['x-read-from']).toBe('replica');
  await replica.stop('immediate');
  try {
    const fallback = await coups(ctx);
    expect([fallback.status, fallback.headers['x-read-from']]).toEqual([200, 'primary']);
    const refused = await coups(refusing);
    expect([refused.status, refused.body.code]).toEqual([503, 'REPLICA_BEHIND']);
    expect(refused.body.message).toMatch(/not answering/);
    // The pit is not touched by it.
    expect((await coup()).status).toBe(201);
  } finally {
    await replica.start();
  }
  await caughtUp();
  const back = await coups(refusing);
  expect([back.status, back.headers['x-read-from']]).toEqual([200, 'replica']);
  expect(played(back)).toBe(played(await coups(ctx, 'primary')));
});

it('X-Read-From takes primary or any; anything else is a 400 before any database is asked', async () => {
  const bad = await coups(ctx, 'replica-please');
  expect([bad.status, bad.body.code, bad.body.message]).toEqual([400, 'VALIDATION_FAILED', 'X-Read-From must be primary or any, got "replica-please"']);
  expect((await coups(ctx, 'ANY')).headers['x-read-from']).toMatch(/^(replica|primary)$/);
});
