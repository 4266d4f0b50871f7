import { answerMac, AuditKeyring } from '../../platform/config/keyring';
import { Finding, Queryable } from './verification';

/**
 * The stored answers to Idempotency-Key requests (issue 49): what a retry is answered with. Each
 * carries a MAC under the audit key over its id, API key, Idempotency-Key, request, status and the
 * exact text of its answer (src/platform/config/keyring.ts answerMac); and every audit entry written
 * with an answer names its record ("answer"). So an answer rewritten, or written around the service,
 * no longer matches its MAC (and is never replayed); an answer deleted leaves the entry naming it
 * (its retry would make the change again).
 */

/** Whether the answers stored before their MACs were keyed (once, at the first start after 20261214153710_answers_keyed). */
export const ANSWERS_ADOPTED_SQL = "SELECT 1 FROM audit_log WHERE entity_type = 'answers' AND entity_id = 'adopt' LIMIT 1";

const finding = (id: string, reason: string): Finding => ({
  stream: null,
  seq: null,
  id: `idempotency_records/${id}`,
  reason: `idempotency_records ${id}: ${reason}`,
});

export async function checkAnswers(db: Queryable, keyring: AuditKeyring | null, most = 20): Promise<Finding[]> {
  const adopted = (await db.query(ANSWERS_ADOPTED_SQL)).rows.length > 0;
  // The entries written with an answer, each naming its record.
  const named = new Map<string, string>();
  for (const r of (
    await db.query<{ stream: string; seq: string; answer: string }>(
      `SELECT stream, seq::text, answer FROM (SELECT a.stream, a.seq, (a.payload::jsonb) ->> 'answer' AS answer FROM audit_log a WHERE a.payload LIKE '%"answer":"%') x
       WHERE answer IS NOT NULL`,
    )
  ).rows)
    if (!named.has(r.answer)) named.set(r.answer, `${r.stream}#${r.seq}`);
  const out: Finding[] = [];
  const held = new Set<string>();
  const { rows } = await db.query<{
    id: string;
    scope: string;
    key: string;
    request_hash: string;
    status_code: number | null;
    response_body: string | null;
    mac: string | null;
    mac_key: string | null;
  }>('SELECT id::text, scope, key, request_hash, status_code, response_body, mac, mac_key FROM idempotency_records');
  for (const r of rows) {
    held.add(r.id);
    const entry = named.get(r.id);
    if (r.mac === null || r.mac_key === null) {
      if (adopted || entry)
        out.push(
          finding(r.id, `has no MAC${entry ? ` (the answer to entry ${entry})` : ''}: it was written or changed around the service, and is never replayed`),
        );
      continue;
    }
    if (!keyring) continue;
    const secret = keyring.keys.get(r.mac_key);
    if (!secret) out.push(finding(r.id, `is keyed with audit key ${r.mac_key}, which is not among the audit keys given`));
    else if (
      answerMac(secret, { id: r.id, scope: r.scope, key: r.key, requestHash: r.request_hash, status: r.status_code ?? -1, body: r.response_body ?? '' }) !==
      r.mac
    )
      out.push(
        finding(
          r.id,
          `does not match its MAC${entry ? ` (the answer to entry ${entry})` : ''}: it was changed after the service stored it, and is never replayed`,
        ),
      );
  }
  for (const [id, entry] of named)
    if (!held.has(id)) out.push(finding(id, `the answer to entry ${entry} is gone: a retry of its request would make the change again`));
  return out.slice(0, most);
}
