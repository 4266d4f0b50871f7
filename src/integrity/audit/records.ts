import type { AuditKeyring } from '../../platform/config/keyring';
import { bodyDigest, CheckpointBody, checkSignature } from './checkpoint';
import { checkAnswers } from './answer-checks';
import { checkLedgers } from './ledger-checks';
import { checkRelay, checkSurveyor } from './progress-checks';
import { checkSeals } from './seal-checks';
import { checkOpenShoes } from './shoe-checks';
import { Finding, guarded, isFinding, Queryable } from './verification';

/**
 * Every record against its proof (src/integrity/audit/proof.ts): the ledgers rebuilt from the chain, the
 * sealed rows against their seals, the open shoes' running state against their coups, the stored
 * answers against their MACs and the entries that name them, the surveyor's and the relay's cursors
 * and the surveyor's working copies against their keyed records. Run in one
 * snapshot (a REPEATABLE READ transaction), so that a write committing meanwhile is seen whole or
 * not at all. The caller runs it inside a transaction (each check has a savepoint of its own).
 */
export async function checkRecords(db: Queryable, keyring: AuditKeyring | null): Promise<Finding[]> {
  // The checks are large statements the planner prices high enough to compile (JIT), which costs
  // more than running them: 0.8 s a check at 10,000 coups (bench:verify).
  await db.query('SET LOCAL jit = off');
  const seals = await guarded(db, 'the seals', () => checkSeals(db, keyring));
  const shoes = await guarded(db, 'the open shoes', () => checkOpenShoes(db));
  const checkpoints = await guarded(db, 'the stored checkpoints', () => checkStoredCheckpoints(db));
  const answers = await guarded(db, 'the stored answers', () => checkAnswers(db, keyring));
  const surveyor = await guarded(db, "the surveyor's progress", () => checkSurveyor(db, keyring));
  const relay = await guarded(db, "the event relay's progress", () => checkRelay(db, keyring));
  return [
    ...(await checkLedgers(db)),
    ...(isFinding(seals) ? [seals] : seals.findings),
    ...(isFinding(shoes) ? [shoes] : shoes),
    ...(isFinding(checkpoints) ? [checkpoints] : checkpoints),
    ...(isFinding(answers) ? [answers] : answers),
    ...(isFinding(surveyor) ? [surveyor] : surveyor),
    ...(isFinding(relay) ? [relay] : relay),
  ];
}

/**
 * Every checkpoint the service stored: its digest is its body's, its signature holds by the key it
 * names, and each names the digest of the one before (or starts the chain anew, which only a
 * rotation of the signing key may). The newest one's key is compared with the service's own, and
 * the auditor's kept files with theirs, elsewhere.
 */
export async function checkStoredCheckpoints(db: Queryable): Promise<Finding[]> {
  const { rows } = await db.query<{ id: string; body: string; digest: string; signature: string; public_key: string; key_fingerprint: string }>(
    'SELECT id::text, body, digest, signature, public_key, key_fingerprint FROM audit_checkpoints ORDER BY id',
  );
  const out: Finding[] = [];
  let before: { digest: string; fingerprint: string } | null = null;
  for (const r of rows) {
    const at = (reason: string): Finding => ({ stream: null, seq: null, id: `checkpoint ${r.id}`, reason: `the stored checkpoint ${r.id}: ${reason}` });
    let body: CheckpointBody;
    try {
      body = JSON.parse(r.body) as CheckpointBody;
    } catch {
      out.push(at('its body is not JSON'));
      continue;
    }
    if (bodyDigest(body) !== r.digest) out.push(at('its body does not hash to its digest'));
    const problem = checkSignature({ body, signature: r.signature, publicKey: r.public_key, keyFingerprint: r.key_fingerprint }, null);
    if (problem) out.push(at(problem));
    if (before && body.previous !== before.digest && !(body.previous === null && r.key_fingerprint !== before.fingerprint))
      out.push(at('it does not name the checkpoint stored before it: the stored checkpoints were reordered, removed or replaced'));
    before = { digest: bodyDigest(body), fingerprint: r.key_fingerprint };
  }
  return out;
}
