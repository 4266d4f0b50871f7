import { randomUUID } from 'node:crypto';
import { migrate } from '../../../src/platform/database/migrate';
import { publishToGroup, subscribeToProperty } from '../../../src/platform/database/group';
import { DEFAULT_PROPERTY_ID } from '../../../src/foundation/pit/table-rules';
import { Cluster, primaryCluster, superuser } from '../../support/clusters';
import { migrateThrough } from '../../support/releases';

/**
 * A group upgraded while it runs, to the release that gives every ledger row its property
 * (20261202090000). Two property clusters and a group cluster on this machine, as the release
 * before left them and subscribed: one property is upgraded before the group and one after it,
 * each writing its rollups all along (in the old shape until its own upgrade). The group ends
 * with every property's rollups as the property holds them, row for row, each under its property.
 *
 * The first version of the migration widened the rollups' keys with the property, and here the
 * group's link stopped for good: a subscriber whose key holds a column that the publisher's key
 * did not hold when a change was made refuses that change. The keys stay as they were.
 */
const BEFORE = '20261201110000_wager_table_from_shoe';
const UPGRADE = '20261202090000_property_on_ledgers';

interface Member {
  cluster: Cluster;
  propertyId: string;
  tableId: string;
  /** Whether its database has the property column yet. */
  upgraded: boolean;
}
let early: Member;
let late: Member;
let group: Cluster;

const member = async (): Promise<Member> => ({ cluster: await primaryCluster(), propertyId: randomUUID(), tableId: randomUUID(), upgraded: false });

beforeAll(async () => {
  [early, late, group] = await Promise.all([member(), member(), primaryCluster()]);
  for (const c of [early.cluster, late.cluster, group]) {
    await superuser(c.url(), (db) => db.query('CREATE DATABASE sabot'));
    await migrateThrough(c.url('sabot'), BEFORE);
  }
}, 180_000);

afterAll(async () => {
  await group?.destroy(); // its subscriptions hold slots on the properties: it goes first
  for (const m of [early, late]) await m?.cluster.destroy();
});

/**
 * A coup's worth of rollups on a day, as the settlement writes them: added to the day's rows of
 * the table (created if new), with the property when the database has the column.
 */
async function play(m: Member, day: string, handle: number): Promise<void> {
  const [col, val] = m.upgraded ? [', property_id', `, '${m.propertyId}'`] : ['', ''];
  await superuser(m.cluster.url('sabot'), async (db) => {
    await db.query(`INSERT INTO wager_rollups (table_id${col}, gaming_day, bet_type, wagers, handle) VALUES ('${m.tableId}'${val}, '${day}', 'BANKER', 1, ${handle})
                    ON CONFLICT (table_id, gaming_day, bet_type) DO UPDATE SET wagers = wager_rollups.wagers + 1, handle = wager_rollups.handle + EXCLUDED.handle`);
    await db.query(`INSERT INTO month_rollups (table_id${col}, month, bet_type, wagers, handle) VALUES ('${m.tableId}'${val}, date_trunc('month', date '${day}'), 'BANKER', 1, ${handle})
                    ON CONFLICT (table_id, month, bet_type) DO UPDATE SET wagers = month_rollups.wagers + 1, handle = month_rollups.handle + EXCLUDED.handle`);
    await db.query(`INSERT INTO table_day_rollups (table_id${col}, gaming_day, decks, coups, handle) VALUES ('${m.tableId}'${val}, '${day}', 8, 1, ${handle})
                    ON CONFLICT (table_id, gaming_day) DO UPDATE SET coups = table_day_rollups.coups + 1, handle = table_day_rollups.handle + EXCLUDED.handle`);
  });
}

const ROLLUPS = { wager_rollups: 'gaming_day, bet_type', month_rollups: 'month, bet_type', table_day_rollups: 'gaming_day' };
/** A table's published rollups, in key order, as one database holds them. */
const rollupsOf = (c: Cluster, tableId: string) =>
  superuser(c.url('sabot'), async (db) => {
    const out: Record<string, unknown[]> = {};
    for (const [table, key] of Object.entries(ROLLUPS))
      out[table] = (await db.query(`SELECT * FROM ${table} WHERE table_id = $1 ORDER BY ${key}`, [tableId])).rows;
    return out;
  });

/** Waits until the group holds each member's rollups as the member does (or the deadline passes: then the difference is the failure). */
async function groupHolds(deadlineMs = 90_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const mine = [await rollupsOf(early.cluster, early.tableId), await rollupsOf(late.cluster, late.tableId)];
    const theirs = [await rollupsOf(group, early.tableId), await rollupsOf(group, late.tableId)];
    if (JSON.stringify(mine) === JSON.stringify(theirs)) return;
    if (Date.now() > until) expect(theirs).toEqual(mine);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function upgrade(c: Cluster): Promise<void> {
  // The property's upgrade first; the releases after it come along.
  expect((await migrate(c.url('sabot'))).applied[0]).toBe(UPGRADE);
}

it('one property upgraded before the group and one after: the group ends with every row of both, each under its property', async () => {
  for (const [i, m] of [early, late].entries()) {
    await superuser(m.cluster.url('sabot'), async (db) => {
      await db.query(`INSERT INTO properties (id, name, time_zone, gaming_day_start_hour) VALUES ($1, $2, 'UTC', 6)`, [m.propertyId, `Member ${i}`]);
      await db.query(
        `INSERT INTO casino_tables (id, property_id, code, variant, currency, min_bet, max_bet, decks, commission_bps, tie_bets_stay, rounding_mode, rounding_unit)
         VALUES ($1, $2, $3, 'COMMISSION', 'HKD', 100, 100000, 8, 500, false, 'FLOOR', 1)`,
        [m.tableId, m.propertyId, `UP-${i}`],
      );
      expect(await publishToGroup(db, DEFAULT_PROPERTY_ID)).toBe('published');
    });
    await play(m, '2026-11-20', 1000);
    await superuser(group.url('sabot'), (db) => subscribeToProperty(db, `member_${i}`, `host=127.0.0.1 port=${m.cluster.port} dbname=sabot user=postgres`));
  }
  await groupHolds();

  // The early property is upgraded before the group; the late one plays on in the old shape.
  await upgrade(early.cluster);
  early.upgraded = true;
  await play(early, '2026-11-20', 500);
  await play(early, '2026-11-21', 700);
  await play(late, '2026-11-20', 300);
  await play(late, '2026-11-21', 900);

  // The group is upgraded; the late property still plays in the old shape, then is upgraded too.
  await upgrade(group);
  await play(late, '2026-11-22', 400);
  await play(early, '2026-11-22', 800);
  await upgrade(late.cluster);
  late.upgraded = true;
  await play(late, '2026-11-22', 600);
  await play(late, '2026-11-23', 200);

  await groupHolds();
  const days = async (m: Member) =>
    (await rollupsOf(group, m.tableId)).table_day_rollups.map((r) => {
      const row = r as { gaming_day: Date; property_id: string; coups: string; handle: string };
      return [row.gaming_day.toISOString().slice(0, 10), row.property_id === m.propertyId, Number(row.coups), Number(row.handle)];
    });
  expect(await days(early)).toEqual([
    ['2026-11-20', true, 2, 1500],
    ['2026-11-21', true, 1, 700],
    ['2026-11-22', true, 1, 800],
  ]);
  expect(await days(late)).toEqual([
    ['2026-11-20', true, 2, 1300],
    ['2026-11-21', true, 1, 900],
    ['2026-11-22', true, 2, 1000],
    ['2026-11-23', true, 1, 200],
  ]);
}, 240_000);
