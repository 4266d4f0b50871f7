import { createHmac, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { startTestApp, TestContext } from '../support/app';
import { givenKey, givenPit } from '../support/builders';

/**
 * The database's superuser against the audit log. Each attack runs on a fresh service and
 * database, as the superuser on a connection of its own, and must be reported by
 * GET /v1/audit/verify at the entry it touched, with the reason.
 */
let ctx: TestContext;
let su: Client;
let stream: string;
let auditor: string;

beforeEach(async () => {
  ctx = await startTestApp();
  const pit = await givenPit(ctx, { code: 'TAMPER-1' });
  stream = pit.table.id;
  auditor = await givenKey(ctx, 'AUDITOR');
  const t = ctx.as(pit.terminal);
  for (const cards of [{ player: ['9S', 'KD'], banker: ['8H', 'KC'] }, { player: ['2S', '4D'], banker: ['7H', 'QC'] }, { player: ['KS', '5D', 'KH'], banker: ['7D', 'JD'] }]) {
    await t.post(`/v1/shoes/${pit.shoe.id}/coups`, { cards, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }, { seat: 2, betType: 'PLAYER', amount: 500 }] }).expect(201);
  }
  su = new Client({ connectionString: ctx.databaseUrl });
  await su.connect();
  expect((await ctx.as(auditor).get('/v1/audit/verify')).body).toMatchObject({ ok: true });
});
afterEach(async () => {
  await su?.end();
  await ctx.close();
});

/** The second coup's entry on the table's stream. */
async function victim(): Promise<{ id: string; seq: number }> {
  const { rows } = await su.query(`SELECT id::text, seq::int FROM audit_log WHERE stream = $1 AND action = 'coup.settle' ORDER BY seq OFFSET 1 LIMIT 1`, [stream]);
  return rows[0];
}

/** What an attacker with SQL alone can do to hide an edit: recompute the whole unkeyed chain and its head. */
async function recomputeChain(): Promise<void> {
  await su.query(`DO $$ DECLARE r record; prev text := ''; BEGIN
    FOR r IN SELECT id, payload FROM audit_log WHERE stream = '${stream}' ORDER BY seq LOOP
      prev := encode(sha256(convert_to(prev || r.payload, 'UTF8')), 'hex');
      UPDATE audit_log SET hash = prev WHERE id = r.id;
    END LOOP;
    UPDATE audit_heads SET hash = prev WHERE stream = '${stream}';
  END $$`);
}

async function expectBroken(at: { seq: number; id?: string | null }, reason: string): Promise<void> {
  const res = await ctx.as(auditor).get('/v1/audit/verify').expect(200);
  expect(res.body.ok).toBe(false);
  expect(res.body.firstBroken).toMatchObject({ stream, seq: at.seq, ...(at.id !== undefined ? { id: at.id } : {}) });
  expect(res.body.firstBroken.reason).toContain(reason);
}

describe('the superuser edits the audit log', () => {
  it.each([
    ['key_id', `'${'0'.repeat(8)}-0000-4000-8000-000000000000'`, 'column key_id differs'],
    ['role', `'ADMIN'`, 'column role differs'],
    ['action', `'coup.open'`, 'column action differs'],
    ['entity_id', `'someone-else'`, 'column entity_id differs'],
    ['at', `at - interval '1 day'`, 'column at differs'],
  ])('changes %s with triggers disabled: the column no longer matches the keyed payload', async (column, value, reason) => {
    const v = await victim();
    await su.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    await su.query(`UPDATE audit_log SET ${column} = ${value} WHERE id = $1`, [v.id]);
    await expectBroken(v, reason);
  });

  it('sets session_replication_role = replica (no trigger fires) and rewrites an entry: seen', async () => {
    const v = await victim();
    await su.query('SET session_replication_role = replica');
    await su.query(`UPDATE audit_log SET correlation_id = 'nothing-to-see' WHERE id = $1`, [v.id]);
    await expectBroken(v, 'column correlation_id differs');
  });

  it('edits a payload (a win turned into a loss) and recomputes the unkeyed chain in SQL: the MAC gives it away', async () => {
    const v = await victim();
    await su.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    await su.query(`UPDATE audit_log SET payload = replace(payload, '"result":"WIN"', '"result":"LOSE"') WHERE id = $1`, [v.id]);
    await recomputeChain();
    await expectBroken(v, 'does not match its MAC');
  });

  it('moves an entry to another stream with its chain recomputed on both: the MAC covers the stream', async () => {
    const v = await victim();
    await su.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    // Renumber the victim's stream without it and give it to a new stream of its own.
    await su.query(`UPDATE audit_log SET stream = 'elsewhere', seq = 1 WHERE id = $1`, [v.id]);
    await su.query(`UPDATE audit_log SET seq = seq - 1 WHERE stream = $1 AND seq > $2`, [stream, v.seq]);
    await su.query(`UPDATE audit_heads SET seq = seq - 1 WHERE stream = $1`, [stream]);
    await recomputeChain();
    await su.query(`INSERT INTO audit_heads (stream, seq, hash) SELECT 'elsewhere', 1, encode(sha256(convert_to(payload, 'UTF8')), 'hex') FROM audit_log WHERE id = $1`, [v.id]);
    await su.query(`UPDATE audit_log SET hash = (SELECT hash FROM audit_heads WHERE stream = 'elsewhere') WHERE id = $1`, [v.id]);
    const res = await ctx.as(auditor).get('/v1/audit/verify');
    expect(res.body).toMatchObject({ ok: false, firstBroken: { stream: 'elsewhere', seq: 1 } });
    expect(res.body.firstBroken.reason).toContain('does not match its MAC');
  });

  it('removes the MAC of an entry, or names a key the service does not hold: seen', async () => {
    const v = await victim();
    await su.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    await su.query(`UPDATE audit_log SET mac_key = 'forged' WHERE id = $1`, [v.id]);
    await expectBroken(v, 'names audit key forged');
    await su.query(`UPDATE audit_log SET mac = NULL, mac_key = NULL WHERE id = $1`, [v.id]);
    await expectBroken(v, 'has no MAC');
  });

  it('appends a forged entry with a correct chain hash and a MAC under a key of its own: seen', async () => {
    const { rows } = await su.query(`SELECT seq::int, hash FROM audit_heads WHERE stream = $1`, [stream]);
    const payload = JSON.stringify({ action: 'commission.collect', at: new Date().toISOString(), correlationId: 'x', data: { amount: '1000000' }, entityId: stream, entityType: 'shoe', keyId: 'system', role: 'SUPERVISOR', route: 'x' });
    const mac = createHmac('sha256', randomBytes(32)).update(`${stream}\n${payload}`).digest('hex');
    await su.query(
      `WITH h AS (UPDATE audit_heads SET seq = seq + 1, hash = encode(sha256(convert_to(hash || $2, 'UTF8')), 'hex') WHERE stream = $1 RETURNING seq, hash)
       INSERT INTO audit_log (stream, seq, hash, payload, at, key_id, role, action, entity_type, entity_id, correlation_id, mac, mac_key)
       SELECT $1, h.seq, h.hash, $2, $3::timestamptz, 'system', 'SUPERVISOR', 'commission.collect', 'shoe', $1, 'x', $4, 'test-2026' FROM h`,
      [stream, payload, JSON.parse(payload).at, mac],
    );
    await expectBroken({ seq: rows[0].seq + 1 }, 'does not match its MAC');
  });
});
