import { Client } from 'pg';
import { startTestApp, TestContext } from '../../support/app';
import { givenAdministrators, givenStaff } from '../../support/builders';

/**
 * A key mints only while it is usable (issue 49). The guard lets a request in with a valid key;
 * a revocation may commit before the request's write. The insert itself confirms the minting key,
 * so a key revoked meanwhile mints nothing. Made deterministic without timing: the test holds a
 * lock on api_keys that the mint's insert waits for, revokes the minting key while it waits, and
 * only then lets it go.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

/** Asks until `condition` holds: a wait for a state of the database, never a guess at how long something takes. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the condition never held');
}

it('a key revoked after its request was let in, before the key it mints was written, mints nothing', async () => {
  const { first } = await givenAdministrators(ctx);
  await givenStaff(ctx, 'E-RACE', 'SUPERVISOR');
  const minter = ((await ctx.as(first).get('/v1/api-keys/me').expect(200)).body as { keyId: string }).keyId;
  const count = async () => {
    const [row] = await ctx.prisma.$queryRaw<{ keys: number; entries: number }[]>`
      SELECT (SELECT count(*)::int FROM api_keys WHERE staff_id = 'E-RACE') AS keys,
             (SELECT count(*)::int FROM audit_log WHERE action = 'apiKey.create' AND payload::jsonb -> 'data' ->> 'staffId' = 'E-RACE') AS entries`;
    return row;
  };
  expect(await count()).toEqual({ keys: 0, entries: 0 });

  const other = new Client({ connectionString: ctx.databaseUrl });
  await other.connect();
  try {
    // Writes to api_keys wait for this transaction; reads (the guard's look-up of the key) do not.
    await other.query('BEGIN');
    await other.query('LOCK TABLE api_keys IN SHARE MODE');
    const minting = ctx
      .as(first)
      .post('/v1/api-keys', { name: 'E-RACE', role: 'SUPERVISOR', staffId: 'E-RACE' })
      .then((r) => r);
    // The request was let in and is at its insert, waiting.
    const waiting = `SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database
                     WHERE d.datname = current_database() AND l.relation = 'api_keys'::regclass AND NOT l.granted`;
    await until(async () => (await ctx.prisma.pool.query(waiting)).rowCount === 1);
    await other.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [minter]);
    await other.query('COMMIT');
    const res = await minting;
    expect([res.status, res.body.code]).toEqual([401, 'UNAUTHENTICATED']);
  } finally {
    await other.end();
  }
  expect(await count()).toEqual({ keys: 0, entries: 0 });
});
