import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The secrets that key the audit log, kept outside the database (environment or a file): each
 * entry carries an HMAC-SHA256 of its stream and its whole payload (time, actor, key, role, route,
 * action, subject, correlation id, values written) under the current key, and the key's id, so that
 * nobody who can only write to the database, its superuser included, can forge or edit an entry.
 * Rotation: put a new key first and keep the old ones after it; entries name the key that keyed them.
 */
export interface AuditKeyring {
  readonly currentId: string;
  readonly keys: ReadonlyMap<string, Buffer>;
}

const ENTRY = /^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9_-]{43,})$/;

/** `id:secret[,id:secret…]` (secrets base64url, 32 bytes or more); the first is the current key. */
export function parseAuditKeys(text: string): AuditKeyring {
  const entries = text.split(/[\s,]+/).filter(Boolean);
  if (entries.length === 0) throw new Error('no audit key given');
  const keys = new Map<string, Buffer>();
  for (const e of entries) {
    const m = ENTRY.exec(e);
    if (!m) throw new Error('each audit key is id:secret, the id 1-32 letters, digits, - or _, the secret 32 or more bytes in base64url');
    const secret = Buffer.from(m[2], 'base64url');
    if (secret.length < 32) throw new Error(`audit key ${m[1]} is shorter than 32 bytes`);
    if (keys.has(m[1])) throw new Error(`audit key ${m[1]} is given twice`);
    keys.set(m[1], secret);
  }
  return { currentId: ENTRY.exec(entries[0])![1], keys };
}

export function newAuditKeyText(id = `k${new Date().toISOString().slice(0, 10).replace(/-/g, '')}`): string {
  return `${id}:${randomBytes(32).toString('base64url')}`;
}

/** The keyring in a file, created with a fresh key (mode 600) when it does not exist yet. */
export function auditKeyringFromFile(file: string, create: boolean): AuditKeyring {
  if (!fs.existsSync(file)) {
    if (!create) throw new Error(`the audit key file ${file} does not exist`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.writeFileSync(file, newAuditKeyText() + '\n', { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return parseAuditKeys(fs.readFileSync(file, 'utf8'));
}

/** The MAC of an entry: HMAC-SHA256 over its stream and its payload, hex. */
export function entryMac(secret: Buffer, stream: string, payload: string): string {
  return createHmac('sha256', secret).update(`${stream}\n${payload}`, 'utf8').digest('hex');
}

/** The audit keyring as the platform's own code is given it (the idempotency interceptor): the app module provides it. */
export const AUDIT_KEYRING = 'sabot:audit-keyring';

/** A stored answer to an Idempotency-Key request, as its MAC covers it. */
export interface AnswerRecord {
  readonly id: string;
  /** The API key the Idempotency-Key belongs to. */
  readonly scope: string;
  readonly key: string;
  /** Method, path and canonical body of the request. */
  readonly requestHash: string;
  readonly status: number;
  /** The answer's exact text, as stored. */
  readonly body: string;
}

/**
 * The MAC of a stored answer (issue 49): HMAC-SHA256 under the audit key of its record's id, API
 * key, Idempotency-Key, request, status and the exact text of the answer, hex. A record changed or
 * written without the key is never replayed.
 */
export function answerMac(secret: Buffer, a: AnswerRecord): string {
  return createHmac('sha256', secret).update(`answer\n${a.id}\n${a.scope}\n${a.key}\n${a.requestHash}\n${a.status}\n${a.body}`, 'utf8').digest('hex');
}
