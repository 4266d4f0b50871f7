import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppError } from '../common/errors';
import { requestContext } from '../common/request-context';
import { PrismaService, Tx } from '../database/prisma.service';
import { CteParts, prismaRunner, SqlStatement, standalone } from '../database/sql';
import { Prisma } from '../generated/prisma/client';
import { AuditEntryDto, AuditQueryDto, AuditVerificationDto } from './dto/audit.dto';
import { AuditKeyring, entryMac } from './keyring';

/** The audit keys (src/audit/keyring.ts), provided once by the app module. */
export const AUDIT_KEYRING = 'sabot:audit-keyring';

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
export function auditStatement(r: AuditRecord, keyring: AuditKeyring): SqlStatement {
  return auditPartsStatement(auditParts(r, keyring));
}

/** Audit parts as a statement of their own (one prepared name for the one text). */
export function auditPartsStatement(parts: CteParts): SqlStatement {
  return standalone('sabot-audit-append', parts);
}

export function auditParts(r: AuditRecord, keyring: AuditKeyring): CteParts {
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
 * The audit trail. Every change appends an entry in the same transaction as the change: who (key
 * and role), what (route, entity, values written), when, and the correlation id. Entries form one
 * hash chain per stream; the database refuses UPDATE and DELETE on them.
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(AUDIT_KEYRING) private readonly keyring: AuditKeyring,
  ) {}

  /** Appends one entry: one statement, which also advances (and row-locks) the stream's head. */
  async append(tx: Tx, r: AuditRecord): Promise<void> {
    await prismaRunner(tx).run(auditStatement(r, this.keyring));
  }

  /** An entry as parts of a larger statement (the whole-coup write), keyed like append's. */
  parts(r: AuditRecord): CteParts {
    return auditParts(r, this.keyring);
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
      action: e.action, entityType: e.entityType, entityId: e.entityId, correlationId: e.correlationId, entry: JSON.parse(e.payload) as Record<string, unknown>, mac: e.mac, macKey: e.macKey,
    }));
  }

  /**
   * Walks every chain from its first entry and reports the first link that does not hold: a missing
   * or reordered entry, an entry that does not hash to its recorded hash, a column that differs from
   * the payload it was written with, a missing, unknown or wrong MAC, or a chain shorter than its head.
   */
  async verify(): Promise<AuditVerificationDto> {
    const streams = await this.prisma.auditHead.findMany({ orderBy: { stream: 'asc' } });
    const unkeyed = new Map((await this.prisma.auditUnkeyed.findMany()).map((u) => [u.stream, u.lastSeq]));
    let entries = 0;
    for (const head of streams) {
      let previous = '';
      let expectedSeq = 1n;
      let cursor = 0n;
      for (;;) {
        const batch = await this.prisma.auditEntry.findMany({ where: { stream: head.stream, seq: { gt: cursor } }, orderBy: { seq: 'asc' }, take: 5000 });
        if (batch.length === 0) break;
        for (const e of batch) {
          const problem = entryProblem(e, previous, expectedSeq, unkeyed.get(e.stream) ?? 0n, this.keyring);
          if (problem) return { ok: false, entriesChecked: entries, streams: streams.length, firstBroken: { stream: e.stream, seq: Number(e.seq), id: e.id.toString(), reason: problem } };
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

interface StoredEntry {
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

/** What is wrong with one entry, read in chain order after `previous`; null when it holds. */
export function entryProblem(e: StoredEntry, previous: string, expectedSeq: bigint, lastUnkeyedSeq: bigint, keyring: AuditKeyring): string | null {
  if (e.seq !== expectedSeq) return `entry ${expectedSeq} of the chain is missing`;
  if (chainHash(previous, e.payload) !== e.hash) return 'the entry does not hash to its recorded hash: it was changed after it was written';
  if (e.mac === null || e.macKey === null) {
    return e.seq <= lastUnkeyedSeq ? null : 'the entry has no MAC: it was written or changed without the audit key';
  }
  const secret = keyring.keys.get(e.macKey);
  if (!secret) return `the entry names audit key ${e.macKey}, which this service does not hold`;
  if (entryMac(secret, e.stream, e.payload) !== e.mac) return 'the entry does not match its MAC: its stream or payload was changed, or it was written without the audit key';
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(e.payload) as Record<string, unknown>;
  } catch {
    return 'the payload is not JSON';
  }
  const columns: [string, unknown, unknown][] = [
    ['at', e.at.toISOString(), p.at], ['key_id', e.keyId, p.keyId], ['role', e.role, p.role], ['action', e.action, p.action],
    ['entity_type', e.entityType, p.entityType], ['entity_id', e.entityId, p.entityId], ['correlation_id', e.correlationId, p.correlationId],
  ];
  const changed = columns.filter(([, column, written]) => column !== written).map(([name]) => name);
  return changed.length ? `column${changed.length > 1 ? 's' : ''} ${changed.join(', ')} differ${changed.length > 1 ? '' : 's'} from what the entry was written with` : null;
}
