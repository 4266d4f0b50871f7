import { Inject, Injectable } from '@nestjs/common';
import type { KeyObject } from 'node:crypto';
import { canonicalJson } from '../../platform/common/canonical';
import type { AuditContext } from '../../platform/common/context';
import { AuditKeyring, entryMac } from '../../platform/config/keyring';
import { Tx } from '../../platform/database/prisma.service';
import { prismaRunner, SqlRunner } from '../../platform/database/sql';
import { AuditParams, LEDGER_SQL } from './ledger-sql';
import { refText, SealRef, writeSeals } from './seals';

/** An entry appended on `runner` (inside the caller's transaction), and the rows it names sealed. */
export async function appendWithSeals(runner: SqlRunner, keyring: AuditKeyring, params: AuditParams, r: AuditRecord): Promise<void> {
  const [{ seq }] = await runner.query<{ seq: string }>(LEDGER_SQL.appendAudit.bind(params));
  if (r.seals?.length) await writeSeals(runner, keyring, r.stream, seq, r.seals);
}

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
  /** The regulated rows this entry wrote, sealed with it (src/foundation/ledger/seals.ts); named in its payload. */
  seals?: readonly SealRef[];
}

/**
 * An audit entry for a request (actor, route and correlation id from its context, and the record of
 * its answer when it has an Idempotency-Key): the payload as hashed (canonical JSON) and its MAC
 * under the current audit key. Stamped now (generated history,
 * bench/seed-quarter.ts, gives the moment it records).
 */
export function auditParams(ctx: AuditContext, r: AuditRecord, keyring: AuditKeyring, at: Date = new Date()): AuditParams {
  const { actor, correlationId } = ctx;
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
    ...(r.seals?.length ? { seals: r.seals.map(refText) } : {}),
    // The record of the request's answer (its Idempotency-Key), stored with the change: the
    // verification finds it gone, so a retry can never make the change again unseen.
    ...(ctx.idempotency ? { answer: ctx.idempotency.recordId } : {}),
  });
  return {
    auditStream: r.stream,
    auditPayload: payload,
    auditAt: at.toISOString(),
    auditKeyId: keyId,
    auditRole: role,
    auditAction: r.action,
    auditEntityType: r.entityType,
    auditEntityId: r.entityId,
    auditCorrelationId: correlationId,
    auditMac: entryMac(keyring.keys.get(keyring.currentId)!, r.stream, payload),
    auditMacKey: keyring.currentId,
  };
}

/** The audit stream of the patron register and of every read of a patron's record. */
export const PATRONS_STREAM = 'patrons';

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

  /**
   * Appends one entry: one statement, which also advances (and row-locks) the stream's head; then
   * seals the rows it names, as they stand in this transaction.
   */
  async append(tx: Tx, ctx: AuditContext, r: AuditRecord): Promise<void> {
    await appendWithSeals(prismaRunner(tx), this.keyring, auditParams(ctx, r, this.keyring), r);
  }

  /**
   * A read of patrons' records (a record, a rating, markers, a report over patrons): every one is an
   * entry of the `patrons` stream, with who read what.
   */
  async patronRead(tx: Tx, ctx: AuditContext, subject: { type: string; id: string }, data: Record<string, unknown>): Promise<void> {
    await this.append(tx, ctx, { stream: PATRONS_STREAM, action: 'patron.read', entityType: subject.type, entityId: subject.id, data });
  }

  /** An entry's values for a larger statement that appends it too (the whole-coup write). */
  params(ctx: AuditContext, r: AuditRecord): AuditParams {
    return auditParams(ctx, r, this.keyring);
  }
}
