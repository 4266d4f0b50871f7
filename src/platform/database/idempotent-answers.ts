import path from 'node:path';
import type { IdempotencyClaim } from '../common/context';
import { stringifyExact } from '../common/exact-json';
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
}

/** A key's record as stored: answered, or (from an earlier release) a claim without an answer. */
export interface StoredAnswer {
  id: string;
  requestHash: string;
  statusCode: number | null;
  /** As text: an amount past 2^53 keeps its digits (parseExact). */
  responseBody: string | null;
  answered: boolean;
  /** A claim without an answer older than any transaction may run: its request is dead. */
  stale: boolean;
}

const SQL = loadQueries<{
  findAnswer: { scope: string; key: string };
  dropStaleClaim: { id: string };
  storeAnswer: AnswerParams;
}>(path.join(__dirname, 'database.sql'));

const NONE: AnswerParams = { answerRecordId: null, answerScope: null, answerKey: null, answerRequestHash: null, answerStatus: null, answerBody: null };

/** The record to write for a claim not yet answered, or nulls (the SQL then writes nothing). */
export function answerParams(claim: IdempotencyClaim | null, response: unknown): AnswerParams {
  if (!claim || claim.stored) return NONE;
  return {
    answerRecordId: claim.recordId,
    answerScope: claim.scope,
    answerKey: claim.key,
    answerRequestHash: claim.requestHash,
    answerStatus: claim.statusCode,
    answerBody: stringifyExact(response ?? null),
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

/** Removes an earlier release's claim known dead (StoredAnswer.stale), if it is still unanswered. */
export async function dropStaleClaim(db: SqlRunner, id: string): Promise<void> {
  await db.run(SQL.dropStaleClaim.bind({ id }));
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
