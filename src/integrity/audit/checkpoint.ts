import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, sign, verify } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { canonicalJson } from '../../platform/common/canonical';

/**
 * Signed checkpoints: what leaves the building. A checkpoint states, at a moment, every audit
 * stream's head (sequence and chain hash) and how many rows each ledger holds, signed with an
 * Ed25519 key that never enters the database. An auditor keeps the files; later, any database
 * whose chains do not pass through those heads, or whose ledgers hold fewer rows, was rewritten.
 * Checkpoints chain too: each names the digest of the one before.
 */
export const CHECKPOINT_FORMAT = 'sabot-checkpoint/1';

export interface StreamHead {
  readonly stream: string;
  readonly seq: number;
  readonly hash: string;
}

export interface CheckpointBody {
  readonly format: typeof CHECKPOINT_FORMAT;
  readonly at: string;
  /** sha256 of the previous checkpoint's body (canonical JSON), hex; null for the first. */
  readonly previous: string | null;
  readonly streams: readonly StreamHead[];
  /** Rows per append-only ledger. */
  readonly ledgers: Readonly<Record<string, number>>;
}

export interface SignedCheckpoint {
  readonly body: CheckpointBody;
  /** Ed25519 over the body's canonical JSON, base64. */
  readonly signature: string;
  /** The signer's public key (SPKI, PEM), and its fingerprint: sha256 of the DER, hex. Pin the fingerprint. */
  readonly publicKey: string;
  readonly keyFingerprint: string;
}

export const bodyDigest = (body: CheckpointBody): string => createHash('sha256').update(canonicalJson(body), 'utf8').digest('hex');

export function fingerprintOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

export function signCheckpoint(body: CheckpointBody, privateKey: KeyObject): SignedCheckpoint {
  const publicKey = createPublicKey(privateKey);
  return {
    body,
    signature: sign(null, Buffer.from(canonicalJson(body), 'utf8'), privateKey).toString('base64'),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    keyFingerprint: fingerprintOf(publicKey),
  };
}

/**
 * Whether the checkpoint was signed by the key it carries, and that key is the one expected (a
 * fingerprint the auditor pinned). Returns the problem, or null.
 */
export function checkSignature(c: SignedCheckpoint, pinnedFingerprint: string | null): string | null {
  if ((c?.body?.format as string | undefined) !== CHECKPOINT_FORMAT) return `not a ${CHECKPOINT_FORMAT} file`;
  let key: KeyObject;
  try {
    key = createPublicKey(c.publicKey);
  } catch {
    return 'the checkpoint carries no readable public key';
  }
  if (fingerprintOf(key) !== c.keyFingerprint) return 'the checkpoint names another key than the one it carries';
  if (pinnedFingerprint !== null && c.keyFingerprint !== pinnedFingerprint)
    return `the checkpoint was signed by key ${c.keyFingerprint.slice(0, 16)}…, not by the pinned ${pinnedFingerprint.slice(0, 16)}…`;
  const ok = verify(null, Buffer.from(canonicalJson(c.body), 'utf8'), key, Buffer.from(c.signature, 'base64'));
  return ok ? null : 'the signature does not match the checkpoint: it was changed after it was signed';
}

/**
 * The signing key: AUDIT_SIGNING_KEY (PKCS#8 DER, base64url), or a PEM file, or (outside
 * production) a file in the data folder made with a fresh Ed25519 key on first start (mode 600).
 */
export function signingKeyFrom(source: { inline: string | null; file: string | null; dataDir: string; create: boolean }): KeyObject {
  if (source.inline) return createPrivateKey({ key: Buffer.from(source.inline, 'base64url'), format: 'der', type: 'pkcs8' });
  const file = source.file ?? path.join(source.dataDir, 'audit-signing-key.pem');
  if (!fs.existsSync(file)) {
    if (!source.create) throw new Error(`the audit signing key file ${file} does not exist`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    try {
      fs.writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  const key = createPrivateKey(fs.readFileSync(file));
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`the audit signing key in ${file} is not an Ed25519 key`);
  return key;
}
