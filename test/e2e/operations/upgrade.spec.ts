import { randomBytes, randomUUID } from 'node:crypto';
import { migrate } from '../../../src/platform/database/migrate';
import { adminQuery, withClient, withDatabase } from '../../support/database';
import { migrateThrough } from '../../support/releases';

/**
 * Upgrades of a database that holds records. A migration that changes the ledgers runs on rows
 * written before it, and on months detached to the archive, which are tables of their own. Here a
 * database lives through the releases: written to as it stood before the group consolidation
 * (20261128090000), migrated through the partitioning (20261130090000), a month detached to the
 * archive, and then migrated to today.
 */

const BEFORE_GROUP = '20261128090000_lean_wager_indexes';
const PARTITIONED = '20261130090000_ledger_partitions';

let url: string;
let drop: () => Promise<void>;
beforeAll(async () => {
  const adminUrl = process.env.SABOT_TEST_ADMIN_URL!;
  const name = `sabot_test_upgrade_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  url = withDatabase(adminUrl, name);
  drop = () => adminQuery(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined);
});
afterAll(() => drop());

it("rows written releases ago get the void summary and their table's property, and a month archived before is attached again", async () => {
  await migrateThrough(url, BEFORE_GROUP);
  const macau = randomUUID();
  const monaco = randomUUID();
  const ids = { tables: [randomUUID(), randomUUID()], shoes: [randomUUID(), randomUUID()] };
  const coups: string[] = [];
  await withClient(url, async (c) => {
    await c.query(
      `INSERT INTO properties (id, name, time_zone, gaming_day_start_hour) VALUES ($1, 'Macau', 'Asia/Macau', 6), ($2, 'Monaco', 'Europe/Monaco', 6)`,
      [macau, monaco],
    );
    for (const [i, property] of [macau, monaco].entries()) {
      const [table, shoe] = [ids.tables[i], ids.shoes[i]];
      await c.query(
        `INSERT INTO casino_tables (id, property_id, code, variant, currency, min_bet, max_bet, decks, commission_bps, tie_bets_stay, rounding_mode, rounding_unit)
         VALUES ($1, $2, 'UP-1', 'COMMISSION', 'EUR', 100, 100000, 8, 500, false, 'FLOOR', 1)`,
        [table, property],
      );
      await c.query(`INSERT INTO shoes (id, table_id, number, decks, status, remaining) VALUES ($1, $2, 1, 8, 'CLOSED', $3)`, [
        shoe,
        table,
        new Array(52).fill(8),
      ]);
      // A coup in March (to be archived) and one in April, each with a wager, an accrual and the rollups.
      for (const day of ['2026-03-14', '2026-04-02']) {
        const coup = randomUUID();
        const wager = randomUUID();
        coups.push(coup);
        await c.query(
          `INSERT INTO coups (id, shoe_id, table_id, number, status, player_cards, banker_cards, winner, player_total, banker_total, card_count, "natural", outcome, settled_at, gaming_day)
           VALUES ($1, $2, $3, $4, 'SETTLED', '{2S,3D}', '{9H,KC}', 'BANKER', 5, 9, 4, true, '{"winner":"BANKER"}', $5::date, $5::date)`,
          [coup, shoe, table, day.endsWith('14') ? 1 : 2, day],
        );
        await c.query(
          `INSERT INTO wagers (id, coup_id, shoe_id, table_id, seat, bet_type, amount, status, result, payout, commission, net, settled_at)
           VALUES ($1, $2, $3, $4, 1, 'BANKER', 1000, 'SETTLED', 'WIN', 1000, 50, 950, $5::date)`,
          [wager, coup, shoe, table, day],
        );
        await c.query(
          `INSERT INTO commission_entries (id, shoe_id, table_id, seat, kind, amount, coup_id, wager_id, created_by_key_id) VALUES ($1, $2, $3, 1, 'ACCRUAL', 50, $4, $5, 'k')`,
          [randomUUID(), shoe, table, coup, wager],
        );
        await c.query(`INSERT INTO wager_rollups (table_id, gaming_day, bet_type, wagers, handle) VALUES ($1, $2, 'BANKER', 1, 1000)`, [table, day]);
        await c.query(`INSERT INTO month_rollups (table_id, month, bet_type, wagers, handle) VALUES ($1, $2, 'BANKER', 1, 1000)`, [
          table,
          `${day.slice(0, 7)}-01`,
        ]);
        await c.query(`INSERT INTO table_day_rollups (table_id, gaming_day, decks, coups) VALUES ($1, $2, 8, 1)`, [table, day]);
      }
      await c.query(`INSERT INTO coup_voids (id, coup_id, reason, voided_by_key_id, voided_by_role) VALUES ($1, $2, 'keyed twice', 'k', 'SUPERVISOR')`, [
        randomUUID(),
        coups[coups.length - 1],
      ]);
      // A player-banked bank that has passed (its row refuses change) and one of its coups.
      const bank = randomUUID();
      await c.query(
        `INSERT INTO banks (id, table_id, shoe_id, number, game, banker_seat, rotation, how, opened_with, stake, status, opened_by_key_id)
         VALUES ($1, $2, $3, 1, 'CHEMIN_DE_FER', 1, '{1,2}', 'ROTATION', 1000, 1000, 'PASSED', 'k')`,
        [bank, table, shoe],
      );
      await c.query(
        `INSERT INTO bank_coups (id, bank_id, shoe_id, table_id, number, gaming_day, cards, outcome, banker_seat, bank_before, covered, set_aside, commission, punters, created_by_key_id)
         VALUES ($1, $2, $3, $4, 1, '2026-04-02', '{}', '{}', 1, 1000, 500, 0, 25, '[]', 'k')`,
        [randomUUID(), bank, shoe, table],
      );
      await c.query(`INSERT INTO patrons (card, registered_by_key_id) VALUES ($1, 'k')`, [`UP-${i}`]);
      await c.query(
        `INSERT INTO patron_rollups (patron_id, gaming_day, table_id, seating_key, bet_type, wagers) VALUES ($1, '2026-04-02', $2, $3, 'BANKER', 1)`,
        [`UP-${i}`, table, randomUUID()],
      );
      await c.query(`INSERT INTO patron_coup_rollups (patron_id, gaming_day, table_id, seating_key, coups) VALUES ($1, '2026-04-02', $2, $3, 1)`, [
        `UP-${i}`,
        table,
        randomUUID(),
      ]);
    }
  });
  await migrateThrough(url, PARTITIONED);
  await withClient(url, (c) => c.query(`SELECT sabot_ledger_month_detach('2026-03-01')`));

  const upgraded = await migrate(url);
  expect(upgraded.applied).toContain('20261202090000_property_on_ledgers');

  await withClient(url, async (c) => {
    // Every row of every ledger, March's included once attached again, is under its table's property.
    await c.query(`SELECT sabot_ledger_month_attach('2026-03-01')`);
    const ledgers: [string, string][] = [
      ['shoes', 'x.table_id'],
      ['coups', 'x.table_id'],
      ['wagers', '(SELECT s.table_id FROM shoes s WHERE s.id = x.shoe_id)'],
      ['commission_entries', 'x.table_id'],
      ['coup_voids', '(SELECT k.table_id FROM coups k WHERE k.id = x.coup_id)'],
      ['banks', 'x.table_id'],
      ['bank_coups', 'x.table_id'],
      ['wager_rollups', 'x.table_id'],
      ['month_rollups', 'x.table_id'],
      ['table_day_rollups', 'x.table_id'],
      ['patron_rollups', 'x.table_id'],
      ['patron_coup_rollups', 'x.table_id'],
    ];
    const held: Record<string, { rows: number; theirs: number }> = {};
    for (const [ledger, table] of ledgers) {
      const { rows } = await c.query<{ rows: number; theirs: number }>(
        `SELECT count(*)::int AS rows, count(*) FILTER (WHERE x.property_id = t.property_id)::int AS theirs FROM ${ledger} x JOIN casino_tables t ON t.id = ${table}`,
      );
      held[ledger] = rows[0];
    }
    expect(held).toEqual({
      shoes: { rows: 2, theirs: 2 },
      coups: { rows: 4, theirs: 4 },
      wagers: { rows: 4, theirs: 4 },
      commission_entries: { rows: 4, theirs: 4 },
      coup_voids: { rows: 2, theirs: 2 },
      banks: { rows: 2, theirs: 2 },
      bank_coups: { rows: 2, theirs: 2 },
      wager_rollups: { rows: 4, theirs: 4 },
      month_rollups: { rows: 4, theirs: 4 },
      table_day_rollups: { rows: 4, theirs: 4 },
      patron_rollups: { rows: 2, theirs: 2 },
      patron_coup_rollups: { rows: 2, theirs: 2 },
    });
    // The group consolidation filled in the void summary from the voids made before it: April's coup
    // at each table, voided with its one wager of 1,000.
    const voided = await c.query(`SELECT gaming_day::text AS day, voided_coups::int AS coups, voided_wagers::int AS wagers, voided_handle::int AS handle
                                  FROM table_day_rollups ORDER BY table_id, gaming_day`);
    const summary = { day: '2026-04-02', coups: 1, wagers: 1, handle: 1000 };
    const none = { day: '2026-03-14', coups: 0, wagers: 0, handle: 0 };
    expect(voided.rows).toEqual([none, summary, none, summary]);
    // The archived month came back without the columns dropped while it was away.
    const march = await c.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name IN ('coups_2026_03', 'wagers_2026_03') AND column_name IN ('outcome', 'table_id', 'property_id') ORDER BY table_name, column_name`,
    );
    expect(march.rows.map((r: { column_name: string }) => r.column_name)).toEqual(['property_id', 'table_id', 'property_id']);
    // Settled rows refuse change again, as before the upgrade; and a passed bank stays as it passed.
    await expect(c.query(`UPDATE wagers SET amount = 1 WHERE gaming_day = '2026-03-14'`)).rejects.toThrow();
    await expect(c.query(`UPDATE coups SET number = 9 WHERE gaming_day = '2026-04-02'`)).rejects.toThrow();
    await expect(c.query(`UPDATE commission_entries SET amount = 1`)).rejects.toThrow();
    await expect(c.query(`UPDATE banks SET stake = 1`)).rejects.toThrow();
  });
});
