import { createHash } from 'node:crypto';
import type { QueryResultRow } from 'pg';
import { CheckpointBody, StreamHead } from './checkpoint';
import { AuditKeyring, entryMac } from '../../platform/config/keyring';

/**
 * Verifying the audit log and the ledgers from the database alone, over plain SQL: the service's
 * `GET /v1/audit/verify` and the auditor's read-only CLI (`npm run audit:verify`) run the same code.
 */

/** A pg Pool or Client. */
export interface Queryable {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * One check run in a savepoint of the caller's transaction: a check the records make fail (a value
 * no entry of the service ever holds, such as a stream that names no table) is a finding of its own
 * and leaves the rest of the verification running. The callers verify inside a transaction.
 */
export async function guarded<T>(db: Queryable, what: string, fn: () => Promise<T>): Promise<T | Finding> {
  await db.query('SAVEPOINT sabot_check');
  try {
    const result = await fn();
    await db.query('RELEASE SAVEPOINT sabot_check');
    return result;
  } catch (e) {
    await db.query('ROLLBACK TO SAVEPOINT sabot_check');
    return {
      stream: null,
      seq: null,
      id: null,
      reason: `${what}: the check could not run (${(e as Error).message}): the records hold values the service never writes`,
    };
  }
}

export const isFinding = (x: unknown): x is Finding => typeof x === 'object' && x !== null && 'reason' in x && 'stream' in x;

export interface Finding {
  readonly stream: string | null;
  readonly seq: number | null;
  readonly id: string | null;
  readonly reason: string;
}

export interface ChainWalk {
  readonly entries: number;
  readonly streams: number;
  /** The first problem of each stream that has one, in stream order. */
  readonly findings: Finding[];
  /** Each stream's chain as recomputed from its entries, up to its first problem. */
  readonly heads: Map<string, StreamHead>;
  /** Recomputed chain hashes at the points asked for (`stream#seq`). */
  readonly at: Map<string, string>;
  /** False when no audit key was given: MACs were not checked. */
  readonly macsChecked: boolean;
}

export const chainHash = (previous: string, payload: string) =>
  createHash('sha256')
    .update(previous + payload, 'utf8')
    .digest('hex');

export interface StoredEntry {
  stream: string;
  seq: bigint;
  hash: string;
  payload: string;
  at: Date;
  keyId: string;
  role: string;
  action: string;
  entityType: string;
  entityId: string;
  correlationId: string;
  mac: string | null;
  macKey: string | null;
}

/** What is wrong with one entry, read in chain order after `previous`; null when it holds. Without a keyring, MACs are not checked. */
export function entryProblem(e: StoredEntry, previous: string, expectedSeq: bigint, lastUnkeyedSeq: bigint, keyring: AuditKeyring | null): string | null {
  if (e.seq !== expectedSeq) return `entry ${expectedSeq} of the chain is missing`;
  if (chainHash(previous, e.payload) !== e.hash) return 'the entry does not hash to its recorded hash: it was changed after it was written';
  if (e.mac === null || e.macKey === null) {
    if (e.seq > lastUnkeyedSeq) return 'the entry has no MAC: it was written or changed without the audit key';
  } else if (keyring) {
    const secret = keyring.keys.get(e.macKey);
    if (!secret) return `the entry names audit key ${e.macKey}, which is not among the audit keys given`;
    if (entryMac(secret, e.stream, e.payload) !== e.mac)
      return 'the entry does not match its MAC: its stream or payload was changed, or it was written without the audit key';
  }
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(e.payload) as Record<string, unknown>;
  } catch {
    return 'the payload is not JSON';
  }
  const columns: [string, unknown, unknown][] = [
    ['at', e.at.toISOString(), p.at],
    ['key_id', e.keyId, p.keyId],
    ['role', e.role, p.role],
    ['action', e.action, p.action],
    ['entity_type', e.entityType, p.entityType],
    ['entity_id', e.entityId, p.entityId],
    ['correlation_id', e.correlationId, p.correlationId],
  ];
  const changed = columns.filter(([, column, written]) => column !== written).map(([name]) => name);
  return changed.length
    ? `column${changed.length > 1 ? 's' : ''} ${changed.join(', ')} differ${changed.length > 1 ? '' : 's'} from what the entry was written with`
    : null;
}

interface EntryRow extends QueryResultRow {
  id: string;
  stream: string;
  seq: string;
  hash: string;
  payload: string;
  at: Date;
  key_id: string;
  role: string;
  action: string;
  entity_type: string;
  entity_id: string;
  correlation_id: string;
  mac: string | null;
  mac_key: string | null;
}

/**
 * Walks every stream's chain from its first entry (or from the heads in `from`, already verified): order, chain hashes, MACs (with a keyring),
 * columns against payloads, and the stored head against the chain. Records the recomputed hash at
 * each of `points`, for comparing with a checkpoint.
 */
export async function walkChains(
  db: Queryable,
  keyring: AuditKeyring | null,
  points: readonly StreamHead[] = [],
  from?: ReadonlyMap<string, StreamHead>,
): Promise<ChainWalk> {
  const heads = new Map(
    (await db.query<{ stream: string; seq: string; hash: string }>('SELECT stream, seq, hash FROM audit_heads')).rows.map((h) => [h.stream, h]),
  );
  // From verified heads (a checkpoint), only what came after them is walked; otherwise every stream that has entries.
  const logged = from ? [...from.keys()] : (await db.query<{ stream: string }>('SELECT DISTINCT stream FROM audit_log')).rows.map((r) => r.stream);
  const { unkeyed, problems: unkeyedProblems } = await pinnedUnkeyed(db, keyring);
  const wanted = new Set(points.map((p) => `${p.stream}#${p.seq}`));
  const streams = [...new Set([...heads.keys(), ...logged])].sort();
  const findings: Finding[] = [...unkeyedProblems];
  const recomputed = new Map<string, StreamHead>();
  const at = new Map<string, string>();
  for (const h of from?.values() ?? []) at.set(`${h.stream}#${h.seq}`, h.hash);
  let entries = 0;
  for (const stream of streams) {
    let previous = from?.get(stream)?.hash ?? '';
    let seq = BigInt(from?.get(stream)?.seq ?? 0);
    let problem: Finding | null = null;
    for (;;) {
      const { rows } = await db.query<EntryRow>(
        `SELECT id::text, stream, seq::text, hash, payload, at, key_id, role, action, entity_type, entity_id, correlation_id, mac, mac_key
         FROM audit_log WHERE stream = $1 AND seq > $2 ORDER BY audit_log.seq LIMIT 5000`,
        [stream, seq.toString()],
      );
      if (rows.length === 0) break;
      for (const r of rows) {
        const e: StoredEntry = {
          stream: r.stream,
          seq: BigInt(r.seq),
          hash: r.hash,
          payload: r.payload,
          at: r.at,
          keyId: r.key_id,
          role: r.role,
          action: r.action,
          entityType: r.entity_type,
          entityId: r.entity_id,
          correlationId: r.correlation_id,
          mac: r.mac,
          macKey: r.mac_key,
        };
        const reason = entryProblem(e, previous, seq + 1n, unkeyed.get(stream) ?? 0n, keyring);
        if (reason) {
          problem = { stream, seq: Number(seq + 1n), id: reason.startsWith('entry ') ? null : r.id, reason };
          break;
        }
        previous = e.hash;
        seq = e.seq;
        entries++;
        if (wanted.has(`${stream}#${seq}`)) at.set(`${stream}#${seq}`, previous);
      }
      if (problem) break;
    }
    recomputed.set(stream, { stream, seq: Number(seq), hash: previous });
    const head = heads.get(stream);
    if (!problem && !head) problem = { stream, seq: null, id: null, reason: 'the stream has entries but no head: its head was deleted' };
    if (!problem && head && (BigInt(head.seq) !== seq || head.hash !== previous)) {
      problem =
        BigInt(head.seq) > seq
          ? { stream, seq: Number(seq + 1n), id: null, reason: 'entries after this point were removed (the chain is shorter than its head)' }
          : { stream, seq: Number(head.seq), id: null, reason: 'the head does not match the chain: it was rolled back or rewritten' };
    }
    if (problem) findings.push(problem);
  }
  return { entries, streams: streams.length, findings, heads: recomputed, at, macsChecked: keyring !== null };
}

/**
 * Where each stream began to be keyed: entries up to `last_seq` were written before the audit key
 * (migration 20261123110000_audit_keyed) and carry no MAC. The table is the superuser's to edit, so
 * it is read from where the superuser cannot write: the first seals.adopt entry (src/integrity/audit/
 * audit.service.ts), written and keyed at the service's first start after the seals, records it.
 * A row added since (a stream made "unkeyed" to forge its entries without the key) is a finding, and
 * the walk uses the recorded boundary, never the table. Before that first start, the table is all
 * there is.
 */
export async function pinnedUnkeyed(db: Queryable, keyring: AuditKeyring | null): Promise<{ unkeyed: Map<string, bigint>; problems: Finding[] }> {
  const table = new Map(
    (await db.query<{ stream: string; last_seq: string }>('SELECT stream, last_seq::text FROM audit_unkeyed')).rows.map((u) => [u.stream, BigInt(u.last_seq)]),
  );
  const { rows } = await db.query<{ seq: string; payload: string; mac: string | null; mac_key: string | null }>(
    `SELECT seq::text, payload, mac, mac_key FROM audit_log WHERE stream = 'admin' AND payload LIKE '%"action":"seals.adopt"%' ORDER BY seq LIMIT 1`,
  );
  const adopt = rows[0];
  if (!adopt) return { unkeyed: table, problems: [] };
  const problems: Finding[] = [];
  const at = (reason: string): Finding => ({ stream: 'admin', seq: Number(adopt.seq), id: null, reason });
  if (adopt.mac === null || adopt.mac_key === null) problems.push(at('the entry that recorded where each stream began to be keyed has no MAC'));
  else if (keyring) {
    const secret = keyring.keys.get(adopt.mac_key);
    if (!secret || entryMac(secret, 'admin', adopt.payload) !== adopt.mac)
      problems.push(at('the entry that recorded where each stream began to be keyed does not match its MAC'));
  }
  let recorded: Record<string, string> = {};
  try {
    recorded = (JSON.parse(adopt.payload) as { data?: { unkeyed?: Record<string, string> } }).data?.unkeyed ?? {};
  } catch {
    problems.push(at('the entry that recorded where each stream began to be keyed is not JSON'));
  }
  const pinned = new Map(Object.entries(recorded).map(([stream, seq]) => [stream, BigInt(seq)]));
  for (const [stream, seq] of table)
    if (pinned.get(stream) !== seq)
      problems.push({
        stream,
        seq: null,
        id: null,
        reason: `audit_unkeyed says entries up to ${seq} of this stream need no MAC, but the keyed record of ${pinned.has(stream) ? `${pinned.get(stream)}` : 'none'} says otherwise: changed to let entries be written without the audit key`,
      });
  for (const [stream, seq] of pinned)
    if (!table.has(stream)) problems.push({ stream, seq: null, id: null, reason: `audit_unkeyed lost this stream's boundary (entry ${seq})` });
  return { unkeyed: pinned, problems };
}

/** The append-only ledgers a checkpoint counts: rows are only ever added to them. */
export const LEDGERS = [
  'coups',
  'wagers',
  'commission_entries',
  'coup_voids',
  'table_slips',
  'slip_voids',
  'bank_coups',
  'bank_coup_voids',
  'void_requests',
  'api_keys',
  'staff',
  'staff_changes',
  'patrons',
  'seatings',
  'buy_ins',
  'buy_in_voids',
  'markers',
  'marker_payments',
  'cash_transactions',
  'audit_log',
] as const;

/**
 * The rows of the ledgers partitioned by gaming month (coups, wagers) count those of the months
 * detached to the archive too, as they were when they left: a month archived is not rows removed.
 */
const ARCHIVED: Partial<Record<(typeof LEDGERS)[number], string>> = {
  coups: '(SELECT coalesce(sum(coups), 0) FROM ledger_months_detached)',
  wagers: '(SELECT coalesce(sum(wagers), 0) FROM ledger_months_detached)',
};

export async function ledgerCounts(db: Queryable): Promise<Record<string, number>> {
  const sql = LEDGERS.map((t) => `SELECT '${t}' AS ledger, (count(*)${ARCHIVED[t] ? ` + ${ARCHIVED[t]}` : ''})::text AS n FROM "${t}"`).join(' UNION ALL ');
  return Object.fromEntries((await db.query<{ ledger: string; n: string }>(sql)).rows.map((r) => [r.ledger, Number(r.n)]));
}

/**
 * What a database shows that a kept checkpoint says cannot be: a stream gone, a chain cut short of
 * the checkpointed head or no longer passing through it (entries deleted, reordered or rewritten
 * before it, even with the chain recomputed), a ledger holding fewer rows than it did.
 */
export function compareWithCheckpoint(walk: ChainWalk, body: CheckpointBody, ledgers: Record<string, number>): Finding[] {
  const out: Finding[] = [];
  for (const s of body.streams) {
    const now = walk.heads.get(s.stream);
    if (!now || now.seq === 0) {
      out.push({ stream: s.stream, seq: s.seq, id: null, reason: `the stream held ${s.seq} entries at the checkpoint of ${body.at} and is gone` });
    } else if (now.seq < s.seq && !walk.findings.some((f) => f.stream === s.stream)) {
      out.push({
        stream: s.stream,
        seq: now.seq + 1,
        id: null,
        reason: `the chain ends at entry ${now.seq}, but held ${s.seq} at the checkpoint of ${body.at}: entries were cut`,
      });
    } else if (now.seq >= s.seq && walk.at.get(`${s.stream}#${s.seq}`) !== s.hash) {
      out.push({
        stream: s.stream,
        seq: s.seq,
        id: null,
        reason: `the chain no longer passes through the head signed at ${body.at}: entries up to ${s.seq} were deleted, reordered or rewritten`,
      });
    }
  }
  for (const [ledger, rows] of Object.entries(body.ledgers)) {
    if ((ledgers[ledger] ?? 0) < rows)
      out.push({
        stream: null,
        seq: null,
        id: null,
        reason: `${ledger} holds ${ledgers[ledger] ?? 0} rows, fewer than the ${rows} of the checkpoint of ${body.at}: rows were removed`,
      });
  }
  return out;
}
