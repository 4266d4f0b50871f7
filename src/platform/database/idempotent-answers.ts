import path from 'node:path';
import type { IdempotencyClaim } from '../common/context';
import { stringifyExact } from '../common/exact-json';
import { AnswerRecord, answerMac, AuditKeyring } from '../config/keyring';
import { loadQueries } from './named-sql';
import { SqlRunner } from './sql';

/** An Idempotency-Key request's record, by the names the SQL gives it (all null: no key, nothing stored). */
export interface AnswerParams {
  answerRecordId: string | null;
  answerScope: string | null;
  answerKey: string | null;
  answerRequestHash: string | null;
  answerStatus: number | null;
  answerBody: string | null;
  answerMac: string | null;
  answerMacKey: string | null;
}

/** A key's record as stored, with its MAC. */
export interface StoredAnswer {
  id: string;
  requestHash: string;
  statusCode: number | null;
  /** The exact text stored: an amount past 2^53 keeps its digits (parseExact), and the MAC covers these bytes. */
  responseBody: string | null;
  mac: string | null;
  macKey: string | null;
}

const SQL = loadQueries<{
  findAnswer: { scope: string; key: string };
  storeAnswer: AnswerParams;
}>(path.join(__dirname, 'database.sql'));

const NONE: AnswerParams = {
  answerRecordId: null,
  answerScope: null,
  answerKey: null,
  answerRequestHash: null,
  answerStatus: null,
  answerBody: null,
  answerMac: null,
  answerMacKey: null,
};

/**
 * The record to write for a claim not yet answered, or nulls (the SQL then writes nothing): the
 * answer's text, and its MAC under the audit key, one HMAC over the bytes just written (the coup's
 * hot path pays nothing more).
 */
export function answerParams(claim: IdempotencyClaim | null, response: unknown): AnswerParams {
  if (!claim || claim.stored) return NONE;
  const body = stringifyExact(response ?? null);
  const record: AnswerRecord = { id: claim.recordId, scope: claim.scope, key: claim.key, requestHash: claim.requestHash, status: claim.statusCode, body };
  return {
    answerRecordId: claim.recordId,
    answerScope: claim.scope,
    answerKey: claim.key,
    answerRequestHash: claim.requestHash,
    answerStatus: claim.statusCode,
    answerBody: body,
    answerMac: answerMac(claim.answerKey.secret, record),
    answerMacKey: claim.answerKey.id,
  };
}

/**
 * Writes the key's record with the response of the request being served, inside the transaction
 * that makes the change: the change and its replayable answer commit together, or neither does.
 * Called by PrismaService.transaction and rawTransaction for every write, as their last statement.
 * If another request with the key has committed (or commits while this one waits on the key), this
 * fails with a unique violation on the key, and the whole transaction rolls back: isAnswerConflict.
 */
export async function storeIdempotentResponse(db: SqlRunner, claim: IdempotencyClaim | null, response: unknown): Promise<void> {
  if (!claim || claim.stored) return;
  await db.run(SQL.storeAnswer.bind(answerParams(claim, response)));
  claim.stored = true;
}

/** The record of a key (per API key), if there is one. */
export async function findAnswer(db: SqlRunner, scope: string, key: string): Promise<StoredAnswer | null> {
  const [found] = await db.query<StoredAnswer>(SQL.findAnswer.bind({ scope, key }));
  return found ?? null;
}

/**
 * What is wrong with a stored answer, as its MAC says (null: it is the answer the service stored
 * for this key): without a MAC, under a key not given, or not matching it, it was written or
 * changed around the service. The key's scope and name are the request's, so a record moved to
 * another key does not match either.
 */
export function answerProblem(found: StoredAnswer, scope: string, key: string, keyring: AuditKeyring): string | null {
  if (found.mac === null || found.macKey === null) return 'it has no MAC: it was not written by the service';
  const secret = keyring.keys.get(found.macKey);
  if (!secret) return `it is keyed with audit key ${found.macKey}, which is not among the audit keys given`;
  const record: AnswerRecord = {
    id: found.id,
    scope,
    key,
    requestHash: found.requestHash,
    status: found.statusCode ?? -1,
    body: found.responseBody ?? '',
  };
  return answerMac(secret, record) === found.mac ? null : 'it does not match its MAC: it was changed after the service stored it';
}

/**
 * Whether an error is the key's unique index refusing a second record: another request with this
 * key committed first (as pg raises it, or as Prisma wraps it).
 */
export function isAnswerConflict(e: unknown): boolean {
  for (let cur = e, depth = 0; cur && depth < 6; depth++) {
    const o = cur as { code?: unknown; originalCode?: unknown; constraint?: unknown; message?: unknown; meta?: unknown; cause?: unknown };
    const unique = o.code === '23505' || o.originalCode === '23505' || o.code === 'P2002';
    if (unique && /idempotency_records/.test(`${String(o.constraint)} ${String(o.message)} ${safeJson(o.meta)}`)) return true;
    cur = o.cause;
  }
  return false;
}

const safeJson = (v: unknown): string => {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
};
