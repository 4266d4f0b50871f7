import type { AuditKeyring } from '../../platform/config/keyring';
import { CursorTable, cursorHolds, RelayRecord, RowDigest, SurveyedTable, SurveyRecord } from '../../foundation/ledger/progress';
import { Finding, Queryable } from './verification';

/**
 * The progress of the audit log's two readers against their keyed records (issue 49,
 * src/foundation/ledger/progress.ts):
 *
 * - the surveyor's cursors: each pass recorded where it read each stream from and to, so the passes
 *   of a stream follow one another without a gap (a cursor moved past entries shows as entries the
 *   next pass never read) and end where the cursor stands, whose MAC holds;
 * - the surveyor's working copies: per shoe, the rows of coup_surveillance and shoe_runs add up to
 *   the count and keyed digest its passes recorded;
 * - the relay's cursors: each MAC holds (a cursor moved ahead of what was published has none that
 *   does), and none stands behind the progress the relay recorded (moved back, or deleted).
 *
 * Before a reader's first start after 20261214153720_progress_keyed nothing of it is recorded, and
 * nothing is checked.
 */

const finding = (table: string, key: string, reason: string): Finding => ({
  stream: null,
  seq: null,
  id: `${table}/${key}`,
  reason: `${table} ${key}: ${reason}`,
});

interface CursorRow {
  stream: string;
  seq: string;
  mac: string | null;
  mac_key: string | null;
}

const cursorsOf = async (db: Queryable, table: CursorTable) =>
  (await db.query<CursorRow>(`SELECT stream, seq::text AS seq, mac, mac_key FROM ${table} ORDER BY stream`)).rows;

/**
 * The surveyor's keyed record, in the order it was written: by the column, not the text it is read
 * as (ORDER BY seq would sort the output's text, entry 10 before entry 2).
 */
async function surveyorRecord(db: Queryable): Promise<{ seq: string; action: string; data: SurveyRecord }[]> {
  const { rows } = await db.query<{ seq: string; action: string; data: SurveyRecord }>(
    `SELECT seq::text AS seq, action, (payload::jsonb) -> 'data' AS data FROM audit_log
     WHERE stream = 'surveillance' AND entity_type = 'surveyor' ORDER BY audit_log.seq`,
  );
  return rows;
}

export async function checkSurveyor(db: Queryable, keyring: AuditKeyring | null, most = 20): Promise<Finding[]> {
  const record = await surveyorRecord(db);
  if (!record.some((r) => r.action === 'survey.adopt')) return [];
  const out: Finding[] = [];
  const read = new Map<string, string>();
  /** Per shoe and working copy, the recorded [count, digest] per audit key. */
  const recorded = new Map<string, Map<string, Map<string, [number, string][]>>>();
  for (const r of record) {
    for (const [stream, [found, back]] of Object.entries(r.data.reset ?? {}))
      out.push(
        finding(
          'surveillance_cursors',
          stream,
          `the surveyor found its cursor at ${found} without a MAC that holds, and set it back to ${back}, where it had read to (surveillance#${r.seq}): it was moved around the service`,
        ),
      );
    for (const [stream, [from, to]] of Object.entries(r.data.read ?? {})) {
      const before = read.get(stream) ?? '0';
      if (r.action === 'survey.pass' && from !== before)
        out.push(
          finding(
            'surveillance_cursors',
            stream,
            BigInt(from) > BigInt(before)
              ? `the surveyor's pass (surveillance#${r.seq}) read from entry ${BigInt(from) + 1n}, but it had read only to ${before}: entries ${BigInt(before) + 1n} to ${from} were never surveyed (its cursor was moved past them)`
              : `the surveyor's pass (surveillance#${r.seq}) read again from entry ${BigInt(from) + 1n}, after it had read to ${before} (its cursor was moved back)`,
          ),
        );
      read.set(stream, to);
    }
    for (const [shoe, rec] of Object.entries(r.data.shoes ?? {})) {
      const perTable = recorded.get(shoe) ?? new Map<string, Map<string, [number, string][]>>();
      recorded.set(shoe, perTable);
      for (const [field, table] of [
        ['c', 'coup_surveillance'],
        ['r', 'shoe_runs'],
      ] as const) {
        const got = rec[field];
        if (!got) continue;
        const perKey = perTable.get(table) ?? new Map<string, [number, string][]>();
        perTable.set(table, perKey);
        perKey.set(r.data.k, [...(perKey.get(r.data.k) ?? []), got]);
      }
    }
  }
  const rows = await cursorsOf(db, 'surveillance_cursors');
  for (const c of rows) {
    const at = read.get(c.stream);
    if (at === undefined)
      out.push(
        finding('surveillance_cursors', c.stream, `stands at ${c.seq}, but the surveyor never recorded reading the stream: it was written around the service`),
      );
    else if (at !== c.seq)
      out.push(
        finding(
          'surveillance_cursors',
          c.stream,
          `stands at ${c.seq}, but the surveyor recorded reading to ${at}: ${BigInt(c.seq) > BigInt(at) ? `entries ${BigInt(at) + 1n} to ${c.seq} would never be surveyed` : 'moved back'}`,
        ),
      );
    else if (keyring && !cursorHolds(keyring, 'surveillance_cursors', c))
      out.push(finding('surveillance_cursors', c.stream, 'does not match its MAC: it was changed around the service'));
  }
  const held = new Set(rows.map((r) => r.stream));
  for (const [stream, seq] of read)
    if (!held.has(stream))
      out.push(
        finding('surveillance_cursors', stream, `is gone, where the surveyor recorded reading to ${seq}: it would survey the stream again from its start`),
      );
  out.push(...(await checkSurveyed(db, keyring, recorded)));
  return out.slice(0, most);
}

/** The working copies' rows against what the surveyor recorded writing, shoe by shoe (a few hundred shoes a read). */
async function checkSurveyed(
  db: Queryable,
  keyring: AuditKeyring | null,
  recorded: Map<string, Map<string, Map<string, [number, string][]>>>,
): Promise<Finding[]> {
  const out: Finding[] = [];
  const held = (
    await db.query<{ shoe_id: string }>('SELECT shoe_id::text AS shoe_id FROM coup_surveillance UNION SELECT shoe_id::text FROM shoe_runs')
  ).rows.map((r) => r.shoe_id);
  const shoes = [...new Set([...held, ...recorded.keys()])].sort();
  for (let i = 0; i < shoes.length; i += 200) {
    const chunk = shoes.slice(i, i + 200);
    // Per shoe and working copy: how many rows, and their digest under the one key they were recorded under.
    const now = new Map<string, { count: number; digest: RowDigest | null }>();
    const keyOf = (shoe: string, table: SurveyedTable): Buffer | null => {
      const perKey = recorded.get(shoe)?.get(table);
      return keyring && perKey?.size === 1 ? (keyring.keys.get([...perKey.keys()][0]) ?? null) : null;
    };
    const { rows } = await db.query<{ tab: SurveyedTable; shoe_id: string; image: string }>(
      `SELECT 'coup_surveillance' AS tab, t.shoe_id::text AS shoe_id, jsonb_strip_nulls(to_jsonb(t))::text AS image
       FROM (SELECT set_config('TimeZone', 'UTC', true) AS tz, set_config('extra_float_digits', '1', true) AS fd) utc,
            LATERAL (SELECT * FROM coup_surveillance r WHERE utc.tz IS NOT NULL AND utc.fd IS NOT NULL AND r.shoe_id = ANY ($1::uuid[])) t
       UNION ALL
       SELECT 'shoe_runs', t.shoe_id::text, jsonb_strip_nulls(to_jsonb(t))::text FROM shoe_runs t WHERE t.shoe_id = ANY ($1::uuid[])`,
      [chunk],
    );
    for (const r of rows) {
      const k = `${r.tab}/${r.shoe_id}`;
      let x = now.get(k);
      if (!x) {
        const secret = keyOf(r.shoe_id, r.tab);
        now.set(k, (x = { count: 0, digest: secret ? new RowDigest(secret, r.tab) : null }));
      }
      x.count++;
      x.digest?.add(r.image);
    }
    for (const shoe of chunk)
      for (const table of ['coup_surveillance', 'shoe_runs'] as const) {
        const have = now.get(`${table}/${shoe}`) ?? { count: 0, digest: null };
        const perKey = recorded.get(shoe)?.get(table);
        if (!perKey) {
          if (have.count)
            out.push(
              finding(table, shoe, `holds ${have.count} rows of this shoe, but the surveyor recorded writing none: they were written around the service`),
            );
          continue;
        }
        const count = [...perKey.values()].flat().reduce((n, [c]) => n + c, 0);
        if (have.count !== count) {
          out.push(
            finding(
              table,
              shoe,
              `holds ${have.count} rows of this shoe, but the surveyor recorded writing ${count}: rows were ${have.count < count ? 'deleted' : 'added'} around the service`,
            ),
          );
          continue;
        }
        // Digested under one audit key (a shoe surveyed across a change of keys is held to its count).
        if (!keyring || perKey.size !== 1) continue;
        const [[keyId, parts]] = [...perKey];
        const secret = keyring.keys.get(keyId);
        if (!secret) {
          out.push(finding(table, shoe, `was recorded under audit key ${keyId}, which is not among the audit keys given`));
          continue;
        }
        const want = new RowDigest(secret, table);
        for (const p of parts) want.merge(p);
        if (!(have.digest ?? new RowDigest(secret, table)).equals(want))
          out.push(finding(table, shoe, 'its rows of this shoe are not the ones the surveyor recorded writing: they were changed around the service'));
      }
  }
  return out;
}

export async function checkRelay(db: Queryable, keyring: AuditKeyring | null, most = 20): Promise<Finding[]> {
  const { rows: record } = await db.query<{ seq: string; action: string; data: RelayRecord }>(
    `SELECT seq::text AS seq, action, (payload::jsonb) -> 'data' AS data FROM audit_log WHERE stream = 'relay' AND entity_type = 'relay' ORDER BY audit_log.seq`,
  );
  if (!record.some((r) => r.action === 'relay.adopt')) return [];
  const published = new Map<string, bigint>();
  const out: Finding[] = [];
  for (const r of record) {
    for (const [stream, seq] of Object.entries(r.data.published ?? {})) if (BigInt(seq) > (published.get(stream) ?? 0n)) published.set(stream, BigInt(seq));
    for (const [stream, [found, back]] of Object.entries(r.data.reset ?? {}))
      out.push(
        finding(
          'event_relay_cursors',
          stream,
          `the relay found its cursor at ${found} without a MAC that holds, and set it back to ${back}, where it had published to (relay#${r.seq}): it was moved around the service`,
        ),
      );
  }
  const rows = await cursorsOf(db, 'event_relay_cursors');
  for (const c of rows) {
    const at = published.get(c.stream);
    if (keyring && !cursorHolds(keyring, 'event_relay_cursors', c))
      out.push(
        finding(
          'event_relay_cursors',
          c.stream,
          `stands at ${c.seq} without a MAC that holds: moved around the service${at === undefined ? '' : ` (the relay recorded publishing to ${at})`}`,
        ),
      );
    else if (at !== undefined && BigInt(c.seq) < at)
      out.push(finding('event_relay_cursors', c.stream, `stands at ${c.seq}, behind the ${at} the relay recorded publishing to: moved back`));
  }
  const held = new Set(rows.map((r) => r.stream));
  for (const [stream, seq] of published)
    if (!held.has(stream))
      out.push(
        finding('event_relay_cursors', stream, `is gone, where the relay recorded publishing to ${seq}: it would publish the stream again from its start`),
      );
  return out.slice(0, most);
}
