import { randomUUID } from 'node:crypto';
import { CARRIED_SQL, SNAPSHOT_SQL } from '../../src/pit/pit.service';
import { startTestApp, TestContext } from '../support/app';

/**
 * The wagers keep index entries only where a lookup needs them (issue 20, bytes per wager): a shoe's
 * open wagers have a partial index of their own. The coup path's lookups must match its predicate,
 * or PostgreSQL would scan every wager of the shoe instead. Checked on the plans themselves, with
 * sequential scans priced out so that a small test table still shows which index can serve.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

async function indexesUsed(sql: string, params: unknown[]): Promise<string[]> {
  const client = await ctx.prisma.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL enable_seqscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
    await client.query('ROLLBACK');
    return [...JSON.stringify(rows[0]['QUERY PLAN']).matchAll(/"Index Name":"(\w+)"/g)].map((m) => m[1]);
  } finally {
    client.release();
  }
}

it("a shoe's carried bets are found through the index of open wagers alone", async () => {
  const shoe = randomUUID();
  expect(await indexesUsed(CARRIED_SQL, [shoe])).toEqual(['wagers_open_by_shoe_idx']);
  expect(await indexesUsed(SNAPSHOT_SQL, [shoe])).toContain('wagers_open_by_shoe_idx');
});

it('the wagers hold no index entry by shoe for a settled wager, nor by carried wager for one that carries none', async () => {
  const { rows } = await ctx.prisma.pool.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE tablename = 'wagers' AND indexdef ~ '(shoe_id|carried_from_id)' ORDER BY 1`,
  );
  expect(rows).toEqual([
    { name: 'wagers_carried_from_id_key', def: expect.stringMatching(/UNIQUE INDEX .* \(carried_from_id\) WHERE \(carried_from_id IS NOT NULL\)$/) },
    { name: 'wagers_open_by_shoe_idx', def: expect.stringMatching(/INDEX .* \(shoe_id\) WHERE \(status = 'OPEN'::"WagerStatus"\)$/) },
  ]);
});
