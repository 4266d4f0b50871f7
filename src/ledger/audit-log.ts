import { Inject, Injectable } from '@nestjs/common';
import type { KeyObject } from 'node:crypto';
import { canonicalJson } from '../common/canonical';
import type { AuditContext } from '../common/context';
import { AuditKeyring, entryMac } from '../config/keyring';
import { Tx } from '../database/prisma.service';
import { CteParts, prismaRunner, SqlStatement, standalone } from '../database/sql';

/** The audit log's secrets, kept outside the database, provided once by the app module. */
export interface AuditSecrets {
  readonly keyring: AuditKeyring;
  readonly signingKey: KeyObject;
  /** Minutes between signed checkpoints; 0: only on demand. */
  readonly checkpointMinutes: number;
}
export const AUDIT_SECRETS = 'sabot:audit-secrets';

export interface AuditRecord {
  /** Which hash chain: the table's id for table work, 'admin' for keys, properties and tables themselves. */
  stream: string;
  action: string;
  entityType: string;
  entityId: string;
  /** The values written. */
  data: Record<string, unknown>;
}

/**
 * The statement appending an audit entry for a request (actor, route and correlation id from its
 * context) and advancing its stream's chain head. Runs inside the change's
 * transaction, through Prisma or plain pg alike.
 */
export function auditStatement(ctx: AuditContext, r: AuditRecord, keyring: AuditKeyring): SqlStatement {
  return auditPartsStatement(auditParts(ctx, r, keyring));
}

/** Audit parts as a statement of their own (one prepared name for the one text). */
export function auditPartsStatement(parts: CteParts): SqlStatement {
  return standalone('sabot-audit-append', parts);
}

export function auditParts(ctx: AuditContext, r: AuditRecord, keyring: AuditKeyring): CteParts {
  const { actor, correlationId } = ctx;
  const at = new Date();
  const keyId = actor?.keyId ?? 'system';
  const role = actor?.role ?? 'SYSTEM';
  const payload = canonicalJson({
    at: at.toISOString(),
    keyId,
    role,
    route: ctx.route,
    correlationId,
    action: r.action,
    entityType: r.entityType,
    entityId: r.entityId,
    data: r.data,
  });
  const mac = entryMac(keyring.keys.get(keyring.currentId)!, r.stream, payload);
  return {
    ctes: `
      audit_head AS (
        INSERT INTO audit_heads AS h (stream, seq, hash) SELECT $1, 1, encode(sha256(convert_to($2, 'UTF8')), 'hex') FROM guard
        ON CONFLICT (stream) DO UPDATE SET seq = h.seq + 1, hash = encode(sha256(convert_to(h.hash || $2, 'UTF8')), 'hex')
        RETURNING seq, hash
      ), audit_entry AS (
        INSERT INTO audit_log (stream, seq, hash, payload, at, key_id, role, action, entity_type, entity_id, correlation_id, mac, mac_key)
        SELECT $1, audit_head.seq, audit_head.hash, $2, $3::timestamptz, $4, $5, $6, $7, $8, $9, $10, $11 FROM audit_head
        RETURNING 1
      )`,
    values: [r.stream, payload, at.toISOString(), keyId, role, r.action, r.entityType, r.entityId, correlationId, mac, keyring.currentId],
  };
}

/**
 * The audit log's write side. Every change appends an entry in the same transaction as the change:
 * who (key and role), what (route, entity, values written), when, and the correlation id. Entries
 * form one hash chain per stream; the database refuses UPDATE and DELETE on them.
 */
@Injectable()
export class AuditLog {
  private readonly keyring: AuditKeyring;

  constructor(@Inject(AUDIT_SECRETS) secrets: AuditSecrets) {
    this.keyring = secrets.keyring;
  }

  /** Appends one entry: one statement, which also advances (and row-locks) the stream's head. */
  async append(tx: Tx, ctx: AuditContext, r: AuditRecord): Promise<void> {
    await prismaRunner(tx).run(auditStatement(ctx, r, this.keyring));
  }

  /** An entry as parts of a larger statement (the whole-coup write), keyed like append's. */
  parts(ctx: AuditContext, r: AuditRecord): CteParts {
    return auditParts(ctx, r, this.keyring);
  }
}
