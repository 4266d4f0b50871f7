import { spawnSync } from 'node:child_process';
import { createHmac, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { from } from 'pg-copy-streams';
import { canonicalJson } from '../../../src/platform/common/canonical';
import { bodyDigest, checkSignature, SignedCheckpoint, signCheckpoint } from '../../../src/integrity/audit/checkpoint';
import { parseAuditKeys } from '../../../src/platform/config/keyring';
import { verifyAgainstCheckpoints } from '../../../src/server/verify.cli';
import { AUDIT_KEYS, startTestApp, TestContext } from '../../support/app';
import { serviceUrl } from '../../support/database';
import { givenKey, givenPit } from '../../support/builders';
import { BusyDay, busyDay } from '../../support/busy-day';
import { ensureBuilt, ROOT } from '../../support/process';

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
  for (const cards of [
    { player: ['9S', 'KD'], banker: ['8H', 'KC'] },
    { player: ['2S', '4D'], banker: ['7H', 'QC'] },
    { player: ['KS', '5D', 'KH'], banker: ['7D', 'JD'] },
  ]) {
    await t
      .post(`/v1/shoes/${pit.shoe.id}/coups`, {
        cards,
        wagers: [
          { seat: 1, betType: 'BANKER', amount: 1000 },
          { seat: 2, betType: 'PLAYER', amount: 500 },
        ],
      })
      .expect(201);
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
  const { rows } = await su.query(`SELECT id::text, seq::int FROM audit_log WHERE stream = $1 AND action = 'coup.settle' ORDER BY seq OFFSET 1 LIMIT 1`, [
    stream,
  ]);
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

/** TRUNCATE with every trigger off: what a superuser can still do. */
async function truncateBehindTriggers(tables: string): Promise<void> {
  await su.query('SET session_replication_role = replica');
  await su.query(`TRUNCATE ${tables}`);
  await su.query('RESET session_replication_role');
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
    await su.query(
      `INSERT INTO audit_heads (stream, seq, hash) SELECT 'elsewhere', 1, encode(sha256(convert_to(payload, 'UTF8')), 'hex') FROM audit_log WHERE id = $1`,
      [v.id],
    );
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
    const payload = JSON.stringify({
      action: 'commission.collect',
      at: new Date().toISOString(),
      correlationId: 'x',
      data: { amount: '1000000' },
      entityId: stream,
      entityType: 'shoe',
      keyId: 'system',
      role: 'SUPERVISOR',
      route: 'x',
    });
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

describe('the superuser against a kept checkpoint', () => {
  let kept: SignedCheckpoint;
  let pin: string;
  beforeEach(async () => {
    kept = (await ctx.as(auditor).post('/v1/audit/checkpoints').expect(201)).body;
    pin = kept.keyFingerprint;
    expect(checkSignature(kept, pin)).toBeNull();
    expect((await ctx.as(auditor).get('/v1/audit/verify')).body).toMatchObject({ ok: true, checkedAgainst: { at: kept.body.at } });
  });

  /** Both the service and the auditor's own check (the CLI's code, read-only) must find it. */
  async function expectFound(service: string, auditorCheck = service): Promise<void> {
    const res = await ctx.as(auditor).get('/v1/audit/verify').expect(200);
    expect(res.body.ok).toBe(false);
    expect(res.body.problems.map((p: { reason: string }) => p.reason).join('\n')).toContain(service);
    const cli = await verifyAgainstCheckpoints(ctx.databaseUrl, [kept], pin, parseAuditKeys(AUDIT_KEYS));
    expect(cli.findings.map((f) => f.reason).join('\n')).toContain(auditorCheck);
  }

  it('nothing touched: the kept checkpoint verifies, MACs included', async () => {
    const cli = await verifyAgainstCheckpoints(ctx.databaseUrl, [kept], pin, parseAuditKeys(AUDIT_KEYS));
    expect(cli).toMatchObject({ findings: [], macsChecked: true });
    expect(cli.entries).toBeGreaterThan(5);
  });

  it('TRUNCATE audit_log, audit_heads: refused by trigger, and with triggers off the streams are gone', async () => {
    await expect(su.query('TRUNCATE audit_log, audit_heads')).rejects.toThrow('TRUNCATE on audit_log is not allowed');
    await truncateBehindTriggers('audit_log, audit_heads');
    await expectFound(`the stream held`, 'audit_log holds 0 rows, fewer than');
  });

  it('cuts the tail of a stream and rolls its head back: the chain ends before the signed head', async () => {
    await su.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    await su.query(`DELETE FROM audit_log WHERE stream = $1 AND seq = (SELECT max(seq) FROM audit_log WHERE stream = $1)`, [stream]);
    await su.query(`UPDATE audit_heads SET seq = seq - 1, hash = (SELECT hash FROM audit_log WHERE stream = $1 ORDER BY seq DESC LIMIT 1) WHERE stream = $1`, [
      stream,
    ]);
    await expectFound('entries were cut');
  });

  it('deletes an entry in the middle, renumbers and recomputes the chain: it no longer passes through the signed head', async () => {
    const v = await victim();
    await su.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    await su.query(`DELETE FROM audit_log WHERE id = $1`, [v.id]);
    await su.query(`UPDATE audit_log SET seq = seq - 1 WHERE stream = $1 AND seq > $2`, [stream, v.seq]);
    await su.query(`UPDATE audit_heads SET seq = seq - 1 WHERE stream = $1`, [stream]);
    await recomputeChain();
    await expectFound('entries were cut');
  });

  it('swaps two entries and recomputes the chain: it no longer passes through the signed head', async () => {
    const v = await victim();
    await su.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    await su.query(`UPDATE audit_log SET seq = -1 WHERE stream = $1 AND seq = $2`, [stream, v.seq]);
    await su.query(`UPDATE audit_log SET seq = $2 WHERE stream = $1 AND seq = $2 + 1`, [stream, v.seq]);
    await su.query(`UPDATE audit_log SET seq = $2 + 1 WHERE stream = $1 AND seq = -1`, [stream, v.seq]);
    await recomputeChain();
    await expectFound('no longer passes through the head signed');
  });

  it('deletes a whole stream, entries and head: it is gone', async () => {
    await su.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    await su.query(`DELETE FROM audit_log WHERE stream = $1`, [stream]);
    await su.query(`DELETE FROM audit_heads WHERE stream = $1`, [stream]);
    await expectFound(`and is gone`);
  });

  it('TRUNCATE commission_entries (what seats owe): refused by trigger, and with triggers off the ledger holds fewer rows than signed', async () => {
    await expect(su.query('TRUNCATE commission_entries')).rejects.toThrow('TRUNCATE on commission_entries is not allowed');
    await truncateBehindTriggers('commission_entries');
    await expectFound('commission_entries holds 0 rows, fewer than');
  });

  it('rolls the records back to an older checkpoint and removes the newer one: the newest kept checkpoint and the service both see it', async () => {
    const older = kept;
    const pit = (await ctx.prisma.shoe.findFirst({ where: { tableId: stream } }))!;
    const terminal = await givenKey(ctx, 'TERMINAL', stream);
    await ctx
      .as(terminal)
      .post(`/v1/shoes/${pit.id}/coups`, { cards: { player: ['6S', 'QD'], banker: ['7C', 'TD'] }, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] })
      .expect(201);
    kept = (await ctx.as(auditor).post('/v1/audit/checkpoints').expect(201)).body;
    expect(kept.body.previous).toBe(bodyDigest(older.body));
    // Back to the older state: the new entries cut, the head rolled back, the newer checkpoint deleted.
    const before = older.body.streams.find((s) => s.stream === stream)!;
    await su.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    await su.query('ALTER TABLE audit_checkpoints DISABLE TRIGGER audit_checkpoints_append_only');
    await su.query(`DELETE FROM audit_log WHERE stream = $1 AND seq > $2`, [stream, before.seq]);
    await su.query(`UPDATE audit_heads SET seq = $2, hash = $3 WHERE stream = $1`, [stream, before.seq, before.hash]);
    await su.query(`DELETE FROM audit_checkpoints WHERE digest = $1`, [bodyDigest(kept.body)]);
    await expectFound('checkpoints this service signed are missing', 'entries were cut');
    const cli = await verifyAgainstCheckpoints(ctx.databaseUrl, [older, kept], pin, null);
    expect(cli.findings.map((f) => f.reason).join('\n')).toContain("the service's own copy of the checkpoint");
  });

  it('stores a checkpoint signed with a key of its own over the rewritten records: the service names the foreign key, the auditor pins theirs', async () => {
    const forger = generateKeyPairSync('ed25519').privateKey;
    const body = { ...kept.body, at: new Date().toISOString(), previous: bodyDigest(kept.body), ledgers: { ...kept.body.ledgers, commission_entries: 0 } };
    const forged = signCheckpoint(body, forger);
    await truncateBehindTriggers('commission_entries');
    await su.query(`INSERT INTO audit_checkpoints (at, body, digest, signature, public_key, key_fingerprint) VALUES (now(), $1, $2, $3, $4, $5)`, [
      canonicalJson(body),
      bodyDigest(body),
      forged.signature,
      forged.publicKey,
      forged.keyFingerprint,
    ]);
    const res = await ctx.as(auditor).get('/v1/audit/verify');
    expect(res.body.problems.map((p: { reason: string }) => p.reason).join('\n')).toContain("not this service's");
    expect(checkSignature(forged, pin)).toContain('not by the pinned');
    const cli = await verifyAgainstCheckpoints(ctx.databaseUrl, [kept, forged], pin, null);
    expect(cli.findings.map((f) => f.reason).join('\n')).toContain('commission_entries holds 0 rows');
  });

  it('the next checkpoint walks only what came since, and is refused over a rewritten log (AUDIT_BROKEN)', async () => {
    await su.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    await su.query(`DELETE FROM audit_log WHERE stream = $1 AND seq = (SELECT max(seq) FROM audit_log WHERE stream = $1)`, [stream]);
    await su.query(`UPDATE audit_heads SET seq = seq - 1, hash = (SELECT hash FROM audit_log WHERE stream = $1 ORDER BY seq DESC LIMIT 1) WHERE stream = $1`, [
      stream,
    ]);
    const refused = await ctx.as(auditor).post('/v1/audit/checkpoints');
    expect([refused.status, refused.body.code]).toEqual([409, 'AUDIT_BROKEN']);
    expect(await ctx.prisma.auditCheckpoint.count()).toBe(1);
  });

  it('an edited checkpoint file no longer matches its signature', () => {
    const edited = { ...kept, body: { ...kept.body, ledgers: { ...kept.body.ledgers, commission_entries: 0 } } };
    expect(checkSignature(edited, pin)).toContain('changed after it was signed');
  });
});

describe('npm run audit:verify, as the auditor runs it', () => {
  it('exits 0 on intact records, 1 with the findings once a ledger was emptied, 2 when it cannot check', async () => {
    ensureBuilt();
    const kept = (await ctx.as(auditor).post('/v1/audit/checkpoints').expect(201)).body as SignedCheckpoint;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-checkpoint-'));
    const file = path.join(dir, 'checkpoint.json');
    fs.writeFileSync(file, JSON.stringify(kept));
    const run = (args: string[], env: Record<string, string> = { DATABASE_URL: ctx.databaseUrl }) =>
      spawnSync(process.execPath, [path.join(ROOT, 'dist', 'src', 'server', 'verify.cli.js'), ...args], {
        env: { PATH: process.env.PATH ?? '', ...env },
        encoding: 'utf8',
      });
    try {
      const ok = run(['--checkpoint', file, '--pin', kept.keyFingerprint]);
      expect({ status: ok.status, out: ok.stdout }).toEqual({ status: 0, out: expect.stringContaining('OK: the records pass through every checkpoint') });
      await truncateBehindTriggers('commission_entries');
      const found = run(['--checkpoint', file, '--pin', kept.keyFingerprint]);
      expect(found.status).toBe(1);
      expect(found.stdout).toContain('commission_entries holds 0 rows');
      expect(run(['--checkpoint', file], {}).status).toBe(2);
      expect(run(['--checkpoint', path.join(dir, 'none.json')]).status).toBe(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the service's own database role", () => {
  let service: Client;
  beforeEach(async () => {
    service = new Client({ connectionString: serviceUrl(ctx.databaseUrl) });
    await service.connect();
  });
  afterEach(() => service.end());

  it.each([
    ['TRUNCATE coups', 'permission denied'],
    ['TRUNCATE audit_log', 'permission denied'],
    ['DELETE FROM audit_log', 'permission denied'],
    ['DELETE FROM commission_entries', 'permission denied'],
    ['UPDATE commission_entries SET amount = 0', 'permission denied'],
    ['UPDATE void_requests SET requested_by_key_id = $$someone-else$$', 'permission denied'],
    ['UPDATE api_keys SET role = $$ADMIN$$', 'permission denied'],
    ['UPDATE api_keys SET revoked_at = NULL', 'and revoked, once'],
    ['ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only', 'must be owner'],
    ['SET session_replication_role = replica', 'permission denied'],
    ['CREATE TABLE shadow (id int)', 'permission denied'],
    ['DROP TABLE audit_checkpoints', 'must be owner'],
  ])('%s is refused', async (sql, message) => {
    // One key revoked (legitimately, as the service would): un-revoking it must be refused too.
    await service
      .query(`UPDATE api_keys SET revoked_at = now() WHERE id = (SELECT id FROM api_keys WHERE role = 'AUDITOR' LIMIT 1) AND revoked_at IS NULL`)
      .catch(() => undefined);
    await expect(service.query(sql)).rejects.toThrow(message);
  });

  it('every table grants sabot_app at least SELECT (a migration that adds a table grants its rights)', async () => {
    const { rows } = await su.query<{ table_name: string }>(
      `SELECT t.tablename AS table_name FROM pg_tables t WHERE t.schemaname = 'public' AND NOT has_table_privilege('sabot_app', format('%I.%I', t.schemaname, t.tablename), 'SELECT') ORDER BY 1`,
    );
    expect(rows.map((r) => r.table_name)).toEqual([]);
  });

  it('can do what the service does: read everything, append to the ledgers', async () => {
    expect((await service.query('SELECT count(*)::int AS n FROM audit_log')).rows[0].n).toBeGreaterThan(0);
    await expect(
      service.query(`INSERT INTO idempotency_records (id, scope, key, request_hash) VALUES (gen_random_uuid(), 'x', 'y', 'z')`),
    ).resolves.toBeDefined();
  });
});

describe('the superuser against the ledgers, behind the audit log', () => {
  let day: BusyDay;
  beforeEach(async () => {
    day = await busyDay(ctx);
    const res = await ctx.as(auditor).get('/v1/audit/verify').expect(200);
    expect(res.body).toMatchObject({ ok: true, problems: [] });
  });

  async function expectLedgerFinding(text: string): Promise<void> {
    const res = await ctx.as(auditor).get('/v1/audit/verify').expect(200);
    expect(res.body.ok).toBe(false);
    expect(res.body.problems.map((p: { reason: string }) => p.reason).join('\n')).toContain(text);
    const cli = await verifyAgainstCheckpoints(ctx.databaseUrl, [], null, null);
    expect(cli.findings.map((f) => f.reason).join('\n')).toContain(text);
  }

  const asReplica = async (sql: string, values: unknown[] = []) => {
    await su.query('SET session_replication_role = replica');
    await su.query(sql, values);
    await su.query('RESET session_replication_role');
  };

  it("deletes only the commission accruals of one seat: what the seat owes disagrees with the coups' audit entries", async () => {
    await asReplica(`DELETE FROM commission_entries WHERE seat = 1 AND kind = 'ACCRUAL'`);
    await expectLedgerFinding('commission accrued in the audit log, missing from commission_entries');
  });

  it('COPYs a collection nobody made into commission_entries: a row no audit entry wrote', async () => {
    const shoe = (await su.query(`SELECT shoe_id, table_id, property_id FROM commission_entries LIMIT 1`)).rows[0];
    const copy = `COPY commission_entries (id, shoe_id, table_id, property_id, seat, kind, amount, created_by_key_id) FROM STDIN`;
    await new Promise<void>((resolve, reject) => {
      const stream = su.query(from(copy));
      stream.on('finish', resolve).on('error', reject);
      stream.end(`${randomUUID()}\t${shoe.shoe_id}\t${shoe.table_id}\t${shoe.property_id}\t1\tCOLLECTION\t-5000\tsomeone\n`);
    });
    await expectLedgerFinding('a commission collection no audit entry wrote');
  });

  it("moves a coup's wagers and its table's day to another property: rows under another property than their shoe and table", async () => {
    const other = (
      await su.query(`INSERT INTO properties (id, name, time_zone, gaming_day_start_hour) VALUES ($1, 'Elsewhere', 'UTC', 6) RETURNING id`, [randomUUID()])
    ).rows[0].id;
    await asReplica(`UPDATE wagers SET property_id = $2 WHERE coup_id = $1`, [day.seatOneCoup, other]);
    await asReplica(`UPDATE table_day_rollups SET property_id = $1 WHERE table_id = (SELECT table_id FROM coups WHERE id = $2)`, [other, day.seatOneCoup]);
    await expectLedgerFinding('carries another property than its shoe');
    const res = await ctx.as(auditor).get('/v1/audit/verify').expect(200);
    const reasons = res.body.problems.map((p: { reason: string }) => p.reason);
    expect(reasons.filter((r: string) => r.endsWith('carries another property than its shoe'))).toHaveLength(2); // both wagers of the coup
    expect(reasons.filter((r: string) => r.startsWith('table_day_rollups') && r.endsWith('carries another property than its table'))).toHaveLength(1);
  });

  it('doubles a cash buy-in, behind the cash log: the audit log says otherwise', async () => {
    await asReplica(`UPDATE buy_ins SET amount = amount * 2 WHERE id = $1`, [day.buyIn]);
    await expectLedgerFinding('differs from what the audit log says was bought in');
  });

  it('COPYs a cash-out nobody made into the cash log: a cash transaction no audit entry recorded', async () => {
    const property = (await su.query(`SELECT property_id FROM cash_transactions LIMIT 1`)).rows[0].property_id as string;
    await su.query(
      `INSERT INTO cash_transactions (property_id, patron_id, direction, kind, amount, currency, gaming_day, at, recorded_by_key_id)
       VALUES ($1, 'P-BUSY', 'OUT', 'CHIP_REDEMPTION', 900000, 'USD', current_date, now(), 'someone')`,
      [property],
    );
    await expectLedgerFinding('a cash transaction no audit entry recorded');
  });

  it('moves a seating to another seat and reopens it: who sat where, and its end, differ from the audit log', async () => {
    await asReplica(`UPDATE seatings SET seat = 9 WHERE id = $1`, [day.seating]);
    await expectLedgerFinding('who sat where differs from the audit log');
    await asReplica(`UPDATE seatings SET seat = 4, ended_at = NULL, ended_by_key_id = NULL WHERE id = $1`, [day.seating]);
    await expectLedgerFinding('its end differs from the audit log');
  });

  it('deletes a marker payment: what the marker owes disagrees with the audit log', async () => {
    await asReplica(`DELETE FROM cash_transactions WHERE marker_payment_id IS NOT NULL`);
    await asReplica(`DELETE FROM marker_payments`);
    await expectLedgerFinding('paid in the audit log, missing from marker_payments');
  });

  it('rewrites who asked for a void: the audit log says otherwise', async () => {
    await asReplica(`UPDATE void_requests SET requested_by_key_id = 'someone-else' WHERE id = $1`, [day.voidRequest]);
    await expectLedgerFinding('who asked for the void differs from the audit log');
  });

  it("un-revokes a key and makes it an ADMIN: the admin stream's entries say otherwise", async () => {
    await asReplica(`UPDATE api_keys SET revoked_at = NULL, role = 'ADMIN' WHERE id = $1`, [day.revokedKey]);
    await expectLedgerFinding('its role, table or owner differs from the audit log');
  });

  it('deletes a settled wager, or changes what it paid: the coup entry says otherwise', async () => {
    const [w] = (await su.query(`SELECT id FROM wagers WHERE coup_id = $1 AND seat = 2`, [day.seatOneCoup])).rows;
    await asReplica(`UPDATE wagers SET net = 0 WHERE id = $1`, [w.id]);
    await expectLedgerFinding('differs from what the audit log says was settled');
    await asReplica(`DELETE FROM wagers WHERE id = $1`, [w.id]);
    await expectLedgerFinding('settled in the audit log, missing from wagers');
  });

  it("deletes a buy-in's void, and voids another behind the chain: both are seen", async () => {
    await asReplica(`DELETE FROM buy_in_voids WHERE buy_in_id = $1`, [day.voidedBuyIn]);
    await expectLedgerFinding('voided in the audit log, missing from buy_in_voids');
    await su.query(
      `INSERT INTO buy_in_voids (buy_in_id, reason, voided_by_key_id, voided_by_role, approved_by_key_id, void_request_id)
       VALUES ($1, 'never happened', 'someone', 'SUPERVISOR', 'someone-else', $2)`,
      [day.buyIn, day.voidRequest],
    );
    await expectLedgerFinding('a buy-in void no audit entry wrote');
  });

  it('deletes the void of a bank coup: the audit log says it was voided', async () => {
    await asReplica(`DELETE FROM bank_coup_voids WHERE bank_coup_id = $1`, [day.bankCoupVoid]);
    await expectLedgerFinding('voided in the audit log, missing from bank_coup_voids');
  });
});
