import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppError } from '../common/errors';
import { requestContext } from '../common/request-context';
import { PrismaService, Tx } from '../database/prisma.service';
import { CteParts, prismaRunner, SqlStatement, standalone } from '../database/sql';
import { Prisma } from '../generated/prisma/client';
import { AuditEntryDto, AuditQueryDto, AuditVerificationDto } from './dto/audit.dto';

export interface AuditRecord {
  /** Which hash chain: the table's id for table work, 'admin' for keys, properties and tables themselves. */
  stream: string;
  action: string;
  entityType: string;
  entityId: string;
  /** The values written. */
  data: Record<string, unknown>;
}

/** JSON with object keys sorted and bigints as strings: the exact text that is hashed. */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const chainHash = (previous: string, payload: string) => createHash('sha256').update(previous + payload, 'utf8').digest('hex');

/**
 * The statement appending an audit entry for the current request (actor, route and correlation id
 * from its request context) and advancing its stream's chain head. Runs inside the change's
 * transaction, through Prisma or plain pg alike.
 */
export function auditStatement(r: AuditRecord): SqlStatement {
  return auditPartsStatement(auditParts(r));
}

/** Audit parts as a statement of their own (one prepared name for the one text). */
export function auditPartsStatement(parts: CteParts): SqlStatement {
  return standalone('sabot-audit-append', parts);
}

export function auditParts(r: AuditRecord): CteParts {
  const ctx = requestContext.get();
  const actor = ctx?.actor;
  const at = new Date();
  const keyId = actor?.keyId ?? 'system';
  const role = actor?.role ?? 'SYSTEM';
  const correlationId = ctx?.correlationId ?? 'none';
  const payload = canonicalJson({
    at: at.toISOString(), keyId, role, route: ctx?.route ?? 'internal', correlationId,
    action: r.action, entityType: r.entityType, entityId: r.entityId, data: r.data,
  });
  return {
    ctes: `
      audit_head AS (
        INSERT INTO audit_heads AS h (stream, seq, hash) SELECT $1, 1, encode(sha256(convert_to($2, 'UTF8')), 'hex') FROM guard
        ON CONFLICT (stream) DO UPDATE SET seq = h.seq + 1, hash = encode(sha256(convert_to(h.hash || $2, 'UTF8')), 'hex')
        RETURNING seq, hash
      ), audit_entry AS (
        INSERT INTO audit_log (stream, seq, hash, payload, at, key_id, role, action, entity_type, entity_id, correlation_id)
        SELECT $1, audit_head.seq, audit_head.hash, $2, $3::timestamptz, $4, $5, $6, $7, $8, $9 FROM audit_head
        RETURNING 1
      )`,
    values: [r.stream, payload, at.toISOString(), keyId, role, r.action, r.entityType, r.entityId, correlationId],
  };
}

/**
 * The audit trail. Every change appends an entry in the same transaction as the change: who (key
 * and role), what (route, entity, values written), when, and the correlation id. Entries form one
 * hash chain per stream; the database refuses UPDATE and DELETE on them.
 */
@Injectable()
export class AuditService {
  constructor(private readonly prisma: PrismaService) {}

  /** Appends one entry: one statement, which also advances (and row-locks) the stream's head. */
  async append(tx: Tx, r: AuditRecord): Promise<void> {
    await prismaRunner(tx).run(auditStatement(r));
  }

  async list(q: AuditQueryDto): Promise<AuditEntryDto[]> {
    const limit = q.limit ? Number(q.limit) : 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new AppError('VALIDATION_FAILED', 'limit must be 1 to 1000');
    const where: Prisma.AuditEntryWhereInput = {
      ...(q.stream ? { stream: q.stream } : {}),
      ...(q.keyId ? { keyId: q.keyId } : {}),
      ...(q.action ? { action: q.action } : {}),
      ...(q.entityType ? { entityType: q.entityType } : {}),
      ...(q.entityId ? { entityId: q.entityId } : {}),
      ...(q.correlationId ? { correlationId: q.correlationId } : {}),
      ...(q.from || q.to ? { at: { ...(q.from ? { gte: new Date(q.from) } : {}), ...(q.to ? { lt: new Date(q.to) } : {}) } } : {}),
      ...(q.afterId ? { id: { gt: BigInt(q.afterId) } } : {}),
    };
    const rows = await this.prisma.auditEntry.findMany({ where, orderBy: { id: 'asc' }, take: limit });
    return rows.map((e) => ({
      id: e.id.toString(), stream: e.stream, seq: Number(e.seq), hash: e.hash, at: e.at.toISOString(), keyId: e.keyId, role: e.role,
      action: e.action, entityType: e.entityType, entityId: e.entityId, correlationId: e.correlationId, entry: JSON.parse(e.payload) as Record<string, unknown>,
    }));
  }

  /** Walks every chain from its first entry and reports the first link that does not hold. */
  async verify(): Promise<AuditVerificationDto> {
    const streams = await this.prisma.auditHead.findMany({ orderBy: { stream: 'asc' } });
    let entries = 0;
    for (const head of streams) {
      let previous = '';
      let expectedSeq = 1n;
      let cursor = 0n;
      for (;;) {
        const batch = await this.prisma.auditEntry.findMany({ where: { stream: head.stream, seq: { gt: cursor } }, orderBy: { seq: 'asc' }, take: 5000 });
        if (batch.length === 0) break;
        for (const e of batch) {
          const broken = (reason: string): AuditVerificationDto => ({ ok: false, entriesChecked: entries, streams: streams.length, firstBroken: { stream: e.stream, seq: Number(e.seq), id: e.id.toString(), reason } });
          if (e.seq !== expectedSeq) return broken(`entry ${expectedSeq} of the chain is missing`);
          if (chainHash(previous, e.payload) !== e.hash) return broken('the entry does not hash to its recorded hash: it was changed after it was written');
          previous = e.hash;
          expectedSeq += 1n;
          cursor = e.seq;
          entries++;
        }
      }
      if (expectedSeq - 1n !== head.seq || previous !== head.hash) {
        return { ok: false, entriesChecked: entries, streams: streams.length, firstBroken: { stream: head.stream, seq: Number(expectedSeq), id: null, reason: 'entries after this point were removed (the chain is shorter than its head)' } };
      }
    }
    return { ok: true, entriesChecked: entries, streams: streams.length, firstBroken: null };
  }
}
