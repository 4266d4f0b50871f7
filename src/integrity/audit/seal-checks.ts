import type { AuditKeyring } from '../../platform/config/keyring';
import { existingSql, imagesSql, SEALED, SEALED_RELATIONS, sealMac, SealSpec } from '../../foundation/ledger/seals';
import { Finding, Queryable } from './verification';

/**
 * The sealed records against their seals and the audit chain (src/foundation/ledger/seals.ts): each row
 * matches its seal (checked with the audit keys), was sealed by the latest entry that names it, and
 * is there; nothing is sealed that no entry named, and nothing unsealed stands in a sealed relation
 * but the rows recorded before the seals existed (seal_baseline). Without audit keys the seals'
 * MACs are not checked, the rest is.
 */
export interface SealCheck {
  readonly findings: Finding[];
  /** Rows whose seal was checked against their image (with keys), or found present (without). */
  readonly sealed: number;
  /** Rows recorded before the seals, not sealed. */
  readonly baseline: number;
}

/** Whether the rows recorded before the seals were adopted (sealed once, at the first start after their migration). */
export const ADOPTED_SQL = "SELECT 1 FROM audit_log WHERE stream = 'admin' AND action = 'seals.adopt' LIMIT 1";

const finding = (relation: string, key: string, reason: string): Finding => ({
  stream: null,
  seq: null,
  id: `${relation}/${key}`,
  reason: `${relation} ${key}: ${reason}`,
});

export async function checkSeals(db: Queryable, keyring: AuditKeyring | null, perRelation = 5): Promise<SealCheck> {
  // The latest entry naming each sealed row (entries are ordered by their keyed time, then place).
  const named = new Map(
    (
      await db.query<{ ref: string; stream: string; seq: string }>(`
        SELECT DISTINCT ON (ref) ref, stream, seq::text FROM (
          SELECT a.stream, a.seq, (a.payload::jsonb) ->> 'at' AS at, jsonb_array_elements_text((a.payload::jsonb) -> 'seals') AS ref
          FROM audit_log a WHERE a.payload LIKE '%"seals":[%') x
        ORDER BY ref, at DESC, stream DESC, seq DESC`)
    ).rows.map((r) => [r.ref, r]),
  );
  const seals = new Map(
    (
      await db.query<{ relation: string; row_key: string; stream: string; seq: string; mac: string; mac_key: string }>(
        'SELECT relation, row_key, stream, seq::text, mac, mac_key FROM row_seals',
      )
    ).rows.map((s) => [`${s.relation}/${s.row_key}`, s]),
  );
  const adopted = ((await db.query(ADOPTED_SQL)).rows.length ?? 0) > 0;
  const baseline = new Set((await db.query<{ ref: string }>("SELECT relation || '/' || row_key AS ref FROM seal_baseline")).rows.map((r) => r.ref));
  const findings: Finding[] = [];
  let sealed = 0;
  let before = 0;
  const seen = new Set<string>();
  for (const relation of SEALED_RELATIONS) {
    const found: Finding[] = [];
    for (const row of (await db.query<{ key: string; image: string }>(imagesSql(relation, 'all'))).rows) {
      const ref = `${relation}/${row.key}`;
      seen.add(ref);
      const s = seals.get(ref);
      const latest = named.get(ref);
      if (!s) {
        if (baseline.has(ref) && !adopted) before++;
        else
          found.push(
            finding(
              relation,
              row.key,
              latest
                ? `was written by entry ${latest.stream}#${latest.seq}, which sealed it, and its seal is gone`
                : baseline.has(ref)
                  ? 'was recorded before the seals but never sealed when they were adopted'
                  : 'has no seal: it was written around the service',
            ),
          );
        continue;
      }
      if (!latest) {
        found.push(finding(relation, row.key, 'is sealed, but no audit entry names it: the seal was made around the service'));
        continue;
      }
      if (latest.stream !== s.stream || latest.seq !== s.seq) {
        found.push(
          finding(
            relation,
            row.key,
            `is sealed by entry ${s.stream}#${s.seq}, but entry ${latest.stream}#${latest.seq} wrote it last: it was put back as it was before`,
          ),
        );
        continue;
      }
      if (keyring) {
        const secret = keyring.keys.get(s.mac_key);
        if (!secret) found.push(finding(relation, row.key, `is sealed with audit key ${s.mac_key}, which is not among the audit keys given`));
        else if (sealMac(secret, { relation, key: row.key }, s.stream, s.seq, row.image) !== s.mac)
          found.push(finding(relation, row.key, 'does not match its seal: it was changed after it was written'));
        else sealed++;
      } else sealed++;
    }
    findings.push(...found.slice(0, perRelation));
  }
  // Rows named by an entry and not among the sealed: gone, unless they left the sealed class (a bet
  // placed, then settled: rebuilt from the coup's entry since).
  const unseen = [...named.keys()].filter((ref) => !seen.has(ref));
  const moved = new Set<string>();
  const leftAs = new Map<string, boolean>();
  // Coups and wagers of a month detached to the archive are in its own tables (coups_YYYY_MM, wagers_YYYY_MM).
  const archived = (await db.query<{ suffix: string }>("SELECT to_char(month, 'YYYY_MM') AS suffix FROM ledger_months_detached")).rows.map((r) => r.suffix);
  for (const relation of SEALED_RELATIONS.filter((r) => (SEALED[r] as SealSpec).where)) {
    const keys = unseen.filter((ref) => ref.startsWith(`${relation}/`)).map((ref) => ref.slice(relation.length + 1));
    if (keys.length === 0) continue;
    const tables = [relation, ...(relation === 'coups' || relation === 'wagers' ? archived.map((s) => `${relation}_${s}`) : [])];
    for (const table of tables)
      for (const r of (await db.query<{ key: string; left_as_it_may: boolean }>(existingSql(relation, table), [keys])).rows) {
        moved.add(`${relation}/${r.key}`);
        leftAs.set(`${relation}/${r.key}`, r.left_as_it_may);
      }
  }
  // A row that left its sealed class left it the one way it may: the latest entry naming it is one
  // whose rows may leave (a bet placed, then settled), its seal is that entry's, and it is as it must
  // be after. What must have been sealed follows from the entries, never from the seals present: a
  // bet sealed as withdrawn never leaves, with its seal or without it.
  const leavers = [...moved];
  const actions = new Map<string, string>();
  if (leavers.length) {
    const at = leavers.map((ref) => named.get(ref)!);
    const { rows } = await db.query<{ stream: string; seq: string; action: string }>(
      'SELECT stream, seq::text, action FROM audit_log WHERE (stream, seq) IN (SELECT * FROM unnest($1::text[], $2::bigint[]))',
      [at.map((s) => s.stream), at.map((s) => s.seq)],
    );
    for (const r of rows) actions.set(`${r.stream}#${r.seq}`, r.action);
  }
  const exits: Finding[] = [];
  for (const ref of leavers) {
    const [relation, ...key] = ref.split('/');
    const { leaves } = SEALED[relation as keyof typeof SEALED] as SealSpec;
    const latest = named.get(ref)!;
    const s = seals.get(ref);
    const action = actions.get(`${latest.stream}#${latest.seq}`);
    const entry = `entry ${latest.stream}#${latest.seq} (${action ?? 'missing'})`;
    if (!s) exits.push(finding(relation, key.join('/'), `was sealed by ${entry} and its seal is gone: it was changed around the service`));
    else if (s.stream !== latest.stream || s.seq !== latest.seq)
      exits.push(
        finding(relation, key.join('/'), `is sealed by entry ${s.stream}#${s.seq}, but ${entry} wrote it last: its seal was put back as it was before`),
      );
    else if (!leaves || !action || !leaves.after.includes(action) || !leftAs.get(ref))
      exits.push(
        finding(
          relation,
          key.join('/'),
          `was sealed by ${entry} and has left what that entry wrote, which a row it wrote never does: it was changed around the service`,
        ),
      );
  }
  findings.push(...exits.slice(0, perRelation));
  const missing: Finding[] = [];
  for (const ref of unseen) {
    if (moved.has(ref)) continue;
    const latest = named.get(ref)!;
    const [relation, ...key] = ref.split('/');
    missing.push(finding(relation, key.join('/'), `was written by entry ${latest.stream}#${latest.seq} and is gone`));
  }
  for (const ref of seals.keys()) {
    if (seen.has(ref) || named.has(ref) || moved.has(ref)) continue;
    const [relation, ...key] = ref.split('/');
    missing.push(finding(relation, key.join('/'), 'has a seal but neither a row nor an audit entry'));
  }
  findings.push(...missing.slice(0, perRelation * 4));
  return { findings, sealed, baseline: before };
}
