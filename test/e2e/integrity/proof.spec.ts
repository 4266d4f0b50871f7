import { Client } from 'pg';
import { checkRecords } from '../../../src/integrity/audit/records';
import { Surveyor } from '../../../src/integrity/surveillance/surveyor';
import { EventRelay } from '../../../src/operations/events/event-relay';
import { PARTITION_OF, PROOF } from '../../../src/integrity/audit/proof';
import { Finding, walkChains } from '../../../src/integrity/audit/verification';
import { parseAuditKeys } from '../../../src/platform/config/keyring';
import { SEALED } from '../../../src/foundation/ledger/seals';
import { AUDIT_KEYS, startTestApp, TestContext } from '../../support/app';
import { busyDay } from '../../support/busy-day';
import { givenKey, givenPit } from '../../support/builders';

/**
 * Proof by construction (issue 34). The catalog, not a list: every table of the database is in the
 * proof's map (src/integrity/audit/proof.ts), every column of a rebuilt table is named there; and every column
 * of every sealed, rebuilt or keyed table, rewritten as the database's superuser with every trigger off, one
 * at a time, is found by the verification. So are a row deleted and a row copied in under a new key,
 * and a seal deleted (issue 49). The keyed tables (issue 49) hold the day's answers to Idempotency-Key
 * requests, what the surveyor read and wrote, and how far the event relay published to NATS.
 */
let ctx: TestContext;
let su: Client;
const keyring = parseAuditKeys(AUDIT_KEYS);

interface Column {
  table: string;
  column: string;
  type: string;
  category: string;
  element: string | null;
  enumOf: string | null;
}

async function catalog(): Promise<Column[]> {
  return (
    await su.query<Column>(`
      SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type, t.typcategory AS category,
             CASE WHEN t.typcategory = 'A' THEN format_type(t.typelem, NULL) END AS element,
             CASE WHEN t.typtype = 'e' THEN format_type(a.atttypid, NULL) WHEN et.typtype = 'e' THEN format_type(t.typelem, NULL) END AS "enumOf"
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      JOIN pg_type t ON t.oid = a.atttypid LEFT JOIN pg_type et ON et.oid = t.typelem
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY c.relname, a.attnum`)
  ).rows.filter((c) => !PARTITION_OF.test(c.table));
}

/** Values of the column's type that differ from the one it holds (null included), to try in turn: the database's own checks refuse some. */
function mutations(c: Column, table: string): string[] {
  const col = `x."${c.column}"`;
  // Another row's value: whatever the column's checks allow, some other record holds.
  const another = `(SELECT o."${c.column}" FROM "${table}" o WHERE o."${c.column}" IS DISTINCT FROM ${col} LIMIT 1)`;
  if (c.category === 'A') {
    const one = c.enumOf ? `(enum_range(NULL::${c.enumOf}))[1:1]` : c.element === 'text' ? `'{x}'::text[]` : `ARRAY[1]::${c.element}[]`;
    return [`CASE WHEN cardinality(${col}) > 0 THEN ${col}[2:] ELSE ${one} END`, another];
  }
  if (c.enumOf) return [`(SELECT e FROM unnest(enum_range(NULL::${c.enumOf})) e WHERE e IS DISTINCT FROM ${col} LIMIT 1)`, another];
  if (c.type.startsWith('character(')) return [`CASE WHEN ${col} = 'EUR' THEN 'USD' ELSE 'EUR' END`, another];
  switch (c.category) {
    case 'S':
      return [`coalesce(${col}, '') || 'x'`, another, `upper(${col})`];
    case 'N':
      return [`coalesce(${col}, 0) + 1000003`, `coalesce(${col}, 0) + 1`, `coalesce(${col}, 0) - 1`, another];
    case 'B':
      return [`NOT coalesce(${col}, false)`];
    case 'D':
      return c.type === 'date'
        ? [`coalesce(${col}, DATE '2026-01-01') - 1`, `coalesce(${col}, DATE '2026-01-01') + 1`, another]
        : [`coalesce(${col}, now()) + interval '1 second'`, `coalesce(${col}, now()) - interval '1 second'`, another];
    case 'U':
      if (c.type === 'uuid') return ['gen_random_uuid()', another];
      if (c.type === 'jsonb') return [`coalesce(${col}, '{}'::jsonb) || '{"x": 1}'::jsonb`, another];
  }
  throw new Error(`no mutation for ${c.table}.${c.column} (${c.type})`);
}

/**
 * The column of the table's last row rewritten as the superuser with every trigger off, by the
 * first candidate the database's checks let through; what the verification then finds; rolled back.
 */
async function foundAfterRewrite(table: string, c: Column, row: string): Promise<Finding[] | Error> {
  let last: Error = new Error('no candidate');
  for (const value of mutations(c, table)) {
    const found = await foundAfter(`UPDATE "${table}" x SET "${c.column}" = ${value} WHERE x.ctid = (${row}) AND ${value} IS DISTINCT FROM x."${c.column}"`);
    if (!(found instanceof Error)) return found;
    last = found;
  }
  return last;
}

/** Everything the verification compares rows with: the ledgers against the chain, the seals. */
async function findings(): Promise<Finding[]> {
  return checkRecords(su, keyring);
}

/** `change` as the superuser with every trigger off, what the verification finds, then rolled back. */
async function foundAfter(change: string, values: unknown[] = []): Promise<Finding[] | Error> {
  await su.query('BEGIN');
  try {
    await su.query('SET LOCAL session_replication_role = replica');
    const { rowCount } = await su.query(change, values);
    if (rowCount === 0) return new Error('changed no row');
    return await findings();
  } catch (e) {
    return e as Error;
  } finally {
    await su.query('ROLLBACK');
  }
}

const proven = Object.entries(PROOF).filter(([, p]) => p.by === 'sealed' || p.by === 'rebuilt' || p.by === 'keyed');
const MACHINE_NATS = 'nats://127.0.0.1:4222';
let surveying: Client;

/** Asks again until `ok` holds (no fixed sleep), for at most 30 s. */
async function until<T>(read: () => Promise<T>, ok: (x: T) => boolean): Promise<T> {
  let x = await read();
  for (let i = 0; i < 300 && !ok(x); i++) {
    await new Promise((r) => setTimeout(r, 100));
    x = await read();
  }
  return x;
}

beforeAll(async () => {
  ctx = await startTestApp({
    NATS_URL: MACHINE_NATS,
    EVENTS_STREAM: `SABOT_PROOF${Math.random().toString(36).slice(2, 8).toUpperCase()}`,
    EVENTS_POLL_MS: '10',
  });
  await busyDay(ctx);
  // A second day's worth on the same records: a key claimed and a person's record changed.
  await givenKey(ctx, 'AUDITOR');
  // Requests a terminal retries: a computation and, last, a coup, each with its Idempotency-Key.
  const pit = await givenPit(ctx, { code: 'PROOF-RETRY' });
  await ctx
    .as(pit.terminal)
    .post('/v1/odds', { shoe: { decks: 1 } })
    .set('Idempotency-Key', 'proof-odds')
    .expect(200);
  for (const [i, cards] of [
    { player: ['2C', '4D'], banker: ['7H', 'QC'] },
    { player: ['9H', 'TD'], banker: ['8S', 'KD'] },
  ].entries())
    await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, { cards, wagers: [{ seat: 1, betType: 'BANKER', amount: 1_000 }] })
      .set('Idempotency-Key', `proof-coup-${i}`)
      .expect(201);
  su = new Client({ connectionString: ctx.databaseUrl });
  await su.connect();
  // The surveyor reads everything recorded; the relay publishes it and records how far it got.
  surveying = new Client({ connectionString: ctx.databaseUrl });
  await surveying.connect();
  const surveyor = new Surveyor(surveying, keyring, () => undefined);
  for (let i = 0; i < 100 && (await surveyor.passOnce()) > 0; i++);
  const behind = async () =>
    Number(
      (
        await su.query(
          `SELECT count(*) AS n FROM audit_heads h LEFT JOIN event_relay_cursors c USING (stream) WHERE h.stream <> 'relay' AND h.seq > coalesce(c.seq, 0)`,
        )
      ).rows[0].n,
    );
  expect(await until(behind, (n) => n === 0)).toBe(0);
  await ctx.app.get(EventRelay).recordProgress();
}, 120_000);
afterAll(async () => {
  await surveying?.end();
  await su?.end();
  await ctx?.close();
});

describe('the proof covers the catalog', () => {
  it('every table is in the map, and every column of a rebuilt table is named', async () => {
    const columns = await catalog();
    const tables = [...new Set(columns.map((c) => c.table))];
    expect(tables.filter((t) => !PROOF[t])).toEqual([]);
    expect(Object.keys(PROOF).filter((t) => !tables.includes(t))).toEqual([]);
    for (const [table, proof] of Object.entries(PROOF)) {
      const own = columns.filter((c) => c.table === table).map((c) => c.column);
      if (proof.by === 'rebuilt') expect([table, own.filter((c) => !proof.columns[c])]).toEqual([table, []]);
      if (proof.by === 'rebuilt') expect([table, Object.keys(proof.columns).filter((c) => !own.includes(c))]).toEqual([table, []]);
      if (proof.by === 'sealed') expect(Object.keys(SEALED)).toContain(table);
    }
  });

  it('the busy day verifies clean', async () => {
    await su.query('BEGIN');
    try {
      expect(await findings()).toEqual([]);
    } finally {
      await su.query('ROLLBACK');
    }
  });
});

describe('the superuser against the keyed boundary of the audit log', () => {
  it("makes a stream 'unkeyed' to write entries without the audit key: the keyed record of where each stream began to be keyed says otherwise, and the walk still wants every MAC", async () => {
    await su.query('BEGIN');
    try {
      await su.query('SET LOCAL session_replication_role = replica');
      const [{ stream, seq }] = (
        await su.query<{ stream: string; seq: string }>("SELECT stream, max(seq)::text AS seq FROM audit_log WHERE stream <> 'admin' GROUP BY stream LIMIT 1")
      ).rows;
      await su.query('INSERT INTO audit_unkeyed (stream, last_seq) VALUES ($1, 1000000)', [stream]);
      await su.query('UPDATE audit_log SET mac = NULL, mac_key = NULL WHERE stream = $1 AND seq = $2', [stream, seq]);
      const walk = await walkChains(su, keyring);
      expect(walk.findings.map((f) => f.reason).join('\n')).toContain('changed to let entries be written without the audit key');
      expect(walk.findings.map((f) => `${f.stream}#${f.seq} ${f.reason}`).join('\n')).toContain(`${stream}#${seq} the entry has no MAC`);
    } finally {
      await su.query('ROLLBACK');
    }
  });
});

describe('the superuser against every proven record', () => {
  it('rewrites every column of every sealed, rebuilt or keyed table, one at a time: each rewrite is found', async () => {
    const columns = await catalog();
    const missed: string[] = [];
    const empty: string[] = [];
    const constrained: string[] = [];
    let rewritten = 0;
    for (const [table] of proven) {
      const { rows } = await su.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${table}"`);
      if (rows[0].n === '0') {
        empty.push(table);
        continue;
      }
      const proof = PROOF[table];
      // The last row written, and the last of each kind a table holds (a bet open, carried, withdrawn, settled).
      const own = columns.filter((x) => x.table === table);
      const kinds = own.some((c) => c.column === 'status')
        ? ['status', ...(own.some((c) => c.column === 'carried_from_id') ? ['carried_from_id IS NULL'] : [])]
        : own.some((c) => c.column === 'kind')
          ? ['kind']
          : [];
      const picks = [
        `SELECT ctid FROM "${table}" ORDER BY ctid DESC LIMIT 1`,
        ...(kinds.length
          ? (await su.query<{ k: string }>(`SELECT DISTINCT (${kinds.join(', ')})::text AS k FROM "${table}"`)).rows.map(
              (r) => `SELECT ctid FROM "${table}" WHERE (${kinds.join(', ')})::text = '${r.k}' ORDER BY ctid DESC LIMIT 1`,
            )
          : []),
      ];
      for (const row of picks) {
        for (const c of own) {
          if ((proof.by === 'sealed' || proof.by === 'keyed') && proof.omit?.[c.column]) continue;
          const found = await foundAfterRewrite(table, c, row);
          if (found instanceof Error) constrained.push(`${table}.${c.column} (${found.message})`);
          else if (found.length === 0)
            missed.push(`${table}.${c.column} of the row ${row.replace(/.*WHERE /, '').replace(/ ORDER.*/, '') || 'last'}: not found`);
          else rewritten++;
        }
      }
    }

    console.log(
      `proof: ${rewritten} columns of ${proven.length - empty.length} tables rewritten, each found; no rows to rewrite in ${empty.join(', ') || 'none'}; ` +
        `no other value the database's checks allow for ${constrained.join(', ') || 'none'}`,
    );
    expect(missed).toEqual([]);
    // The columns no other value fits are the few the database's own checks pin (a fixed enum of one value, a bound met exactly): a small share.
    expect(constrained.length).toBeLessThan(rewritten / 10);
    expect(rewritten).toBeGreaterThan(200);
  }, 120_000);

  it('deletes a row of every proven table, and copies one in under a new key: each is found', async () => {
    const missed: string[] = [];
    const refused: string[] = [];
    let copied = 0;
    let deletedFrom = 0;
    for (const [table] of proven) {
      const { rows } = await su.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${table}"`);
      if (rows[0].n === '0') continue;
      const deleted = await foundAfter(`DELETE FROM "${table}" WHERE ctid = (SELECT ctid FROM "${table}" ORDER BY ctid DESC LIMIT 1)`);
      if (deleted instanceof Error || deleted.length === 0)
        missed.push(`${table}: a row deleted ${deleted instanceof Error ? deleted.message : 'was not found'}`);
      else deletedFrom++;
      const own = (await catalog()).filter((c) => c.table === table);
      const key = ['id', 'staff_id', 'card', 'coup_id', 'stream', 'key'].map((k) => own.find((c) => c.column === k)).find((c) => c !== undefined)!;
      const another = key.type === 'uuid' ? 'gen_random_uuid()' : key.category === 'N' ? `t."${key.column}" + 1000003` : `t."${key.column}" || '-copy'`;
      const copy = await foundAfter(
        `INSERT INTO "${table}" SELECT (jsonb_populate_record(NULL::"${table}", to_jsonb(t) || jsonb_build_object('${key.column}', ${another}))).* FROM "${table}" t ORDER BY ctid DESC LIMIT 1`,
      );
      // A copy the database's own keys refuse cannot be made at all; any other must be found.
      if (copy instanceof Error) {
        if (/duplicate key value violates unique constraint/.test(copy.message)) refused.push(table);
        else missed.push(`${table}: a copied row: ${copy.message}`);
      } else if (copy.length === 0) missed.push(`${table}: a copied row was not found`);
      else copied++;
    }

    console.log(
      `proof: a row deleted from each of the ${deletedFrom} tables that hold rows, each found; a row copied in: found in ${copied}, refused by a unique key in ${refused.join(', ')}`,
    );
    expect(missed).toEqual([]);
    expect(copied).toBeGreaterThan(5);
    // Every keyed table holds rows here: each was tampered with above.
    const keyed = proven.filter(([, p]) => p.by === 'keyed').map(([t]) => t);
    expect(keyed.sort()).toEqual(['coup_surveillance', 'event_relay_cursors', 'idempotency_records', 'shoe_runs', 'surveillance_cursors']);
    for (const t of keyed) expect([t, Number((await su.query(`SELECT count(*) AS n FROM "${t}"`)).rows[0].n) > 0]).toEqual([t, true]);
  }, 120_000);

  it('deletes a seal of every sealed relation, and of rows that left their sealed class: each is found', async () => {
    // The last seal of each relation, and the seals of rows sealed while a coup took bets and settled since (issue 49, finding 5).
    const { rows } = await su.query<{ relation: string; row_key: string }>(`
      SELECT DISTINCT ON (relation) relation, row_key FROM row_seals ORDER BY relation, ctid DESC`);
    const { rows: leavers } = await su.query<{ relation: string; row_key: string }>(`
      SELECT s.relation, s.row_key FROM row_seals s
      WHERE (s.relation = 'wagers' AND EXISTS (SELECT 1 FROM wagers w WHERE w.id::text = s.row_key AND w.status = 'SETTLED'))
         OR (s.relation = 'coups' AND EXISTS (SELECT 1 FROM coups c WHERE c.id::text = s.row_key AND c.status = 'SETTLED'))`);
    expect(leavers.length).toBeGreaterThan(0);
    const missed: string[] = [];
    for (const r of [...rows, ...leavers]) {
      const found = await foundAfter('DELETE FROM row_seals WHERE relation = $1 AND row_key = $2', [r.relation, r.row_key]);
      if (found instanceof Error || !found.some((f) => f.id === `${r.relation}/${r.row_key}`))
        missed.push(`${r.relation}/${r.row_key}: ${found instanceof Error ? found.message : 'not found'}`);
    }
    console.log(`proof: a seal deleted of each of ${rows.length} sealed relations and of ${leavers.length} rows that left their sealed class, each found`);
    expect(missed).toEqual([]);
  }, 120_000);
});
