import { cloneTestDatabase, withClient } from '../../support/database';

/**
 * How ready the schema is to be distributed by property (docs/scaling.md, "Ready for a distributed
 * PostgreSQL"), read from the catalog. Citus places each row of a distributed table by one column,
 * and keeps a unique key, or a foreign key between two distributed tables, only if it holds that
 * column. Every ledger carries the property; the keys that do not hold it yet are the ones the
 * paper lists as the step left, and no other: a new key without the property is seen here.
 */

/** The ledgers a group's database would distribute by property. */
const DISTRIBUTED = [
  'shoes',
  'coups',
  'wagers',
  'commission_entries',
  'coup_voids',
  'banks',
  'bank_coups',
  'bank_coup_voids',
  'wager_rollups',
  'month_rollups',
  'table_day_rollups',
  'patron_rollups',
  'patron_coup_rollups',
];

/**
 * Keys without the property, as docs/scaling.md lists them: the smaller ledgers' keys on their own
 * id (or their shoe's), and the rollups' keys, which a group's subscriptions need as they are
 * (test/e2e/finance/group-upgrade.spec.ts).
 */
const KEYS_TO_WIDEN = [
  'bank_coup_voids: bank_coup_voids_bank_coup_id_key (bank_coup_id)',
  'bank_coup_voids: bank_coup_voids_pkey (id)',
  'bank_coups: bank_coups_pkey (id)',
  'bank_coups: bank_coups_shoe_id_number_key (shoe_id, number)',
  'banks: banks_one_active_per_shoe (shoe_id)',
  'banks: banks_pkey (id)',
  'banks: banks_shoe_id_number_key (shoe_id, number)',
  'commission_entries: commission_entries_pkey (id)',
  'coup_voids: coup_voids_coup_id_key (coup_id)',
  'coup_voids: coup_voids_pkey (id)',
  'month_rollups: month_rollups_pkey (table_id, month, bet_type)',
  'patron_coup_rollups: patron_coup_rollups_pkey (patron_id, gaming_day, table_id, seating_key)',
  'patron_rollups: patron_rollups_pkey (patron_id, gaming_day, table_id, seating_key, bet_type)',
  'shoes: shoes_one_open_per_table (table_id)',
  'shoes: shoes_pkey (id)',
  'shoes: shoes_table_id_number_key (table_id, number)',
  'table_day_rollups: table_day_rollups_pkey (table_id, gaming_day)',
  'wager_rollups: wager_rollups_pkey (table_id, gaming_day, bet_type)',
];
const FOREIGN_KEYS_TO_WIDEN = [
  'bank_coup_voids → bank_coups (bank_coup_id)',
  'bank_coups → banks (bank_id)',
  'bank_coups → shoes (shoe_id)',
  'banks → shoes (shoe_id)',
  'commission_entries → shoes (shoe_id)',
  'coups → shoes (shoe_id)',
  'wagers → shoes (shoe_id)',
];

let db: Awaited<ReturnType<typeof cloneTestDatabase>>;
beforeAll(async () => {
  db = await cloneTestDatabase();
});
afterAll(() => db.drop());

it('every ledger carries its property, never null', async () => {
  const { rows } = await withClient(db.url, (c) =>
    c.query<{ table_name: string; is_nullable: string; data_type: string }>(
      `SELECT table_name, is_nullable, data_type FROM information_schema.columns
       WHERE column_name = 'property_id' AND table_schema = 'public' AND table_name = ANY ($1) ORDER BY table_name`,
      [DISTRIBUTED],
    ),
  );
  expect(rows).toEqual([...DISTRIBUTED].sort().map((t) => ({ table_name: t, is_nullable: 'NO', data_type: 'uuid' })));
});

it("the partitioned ledgers keep no unique key; every other key without the property is the paper's list", async () => {
  const { rows } = await withClient(db.url, (c) =>
    c.query<{ key: string; holds: boolean }>(
      `SELECT t.relname || ': ' || i.relname || ' (' || string_agg(a.attname, ', ' ORDER BY k.n) || ')' AS key,
              bool_or(a.attname = 'property_id') AS holds
       FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
       CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, n) JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
       WHERE x.indisunique AND t.relname = ANY ($1)
       GROUP BY t.relname, i.relname ORDER BY 1`,
      [DISTRIBUTED],
    ),
  );
  // coups and wagers keep no unique key at all (partitioned by gaming day, docs/scaling.md).
  expect(rows.filter((r) => /^(coups|wagers):/.test(r.key))).toEqual([]);
  expect(rows.filter((r) => !r.holds).map((r) => r.key)).toEqual(KEYS_TO_WIDEN);
});

it("a foreign key between two ledgers that leaves the property out is one of the paper's list", async () => {
  const { rows } = await withClient(db.url, (c) =>
    c.query<{ key: string }>(
      `SELECT f.conrelid::regclass::text || ' → ' || f.confrelid::regclass::text || ' (' ||
              (SELECT string_agg(a.attname, ', ') FROM unnest(f.conkey) k JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = k) || ')' AS key
       FROM pg_constraint f
       WHERE f.contype = 'f' AND f.conparentid = 0 AND f.conrelid::regclass::text = ANY ($1) AND f.confrelid::regclass::text = ANY ($1)
         AND NOT EXISTS (SELECT 1 FROM unnest(f.conkey) k JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = k WHERE a.attname = 'property_id')
       ORDER BY 1`,
      [DISTRIBUTED],
    ),
  );
  expect(rows.map((r) => r.key)).toEqual(FOREIGN_KEYS_TO_WIDEN);
});
