import path from 'node:path';
import type { IdempotencyClaim } from '../common/context';
import { stringifyExact } from '../common/exact-json';
import { loadQueries } from './named-sql';
import { SqlRunner } from './sql';

/** An Idempotency-Key request's answer, by the names the SQL gives it (none: no claim, nothing stored). */
export interface AnswerParams {
  answerRecordId: string | null;
  answerStatus: number | null;
  answerBody: string | null;
}

const SQL = loadQueries<{ storeAnswer: AnswerParams }>(path.join(__dirname, 'database.sql'));

/** The answer to store for a claim not yet answered, or nulls (the SQL then stores nothing). */
export function answerParams(claim: IdempotencyClaim | null, response: unknown): AnswerParams {
  if (!claim || claim.stored) return { answerRecordId: null, answerStatus: null, answerBody: null };
  return { answerRecordId: claim.recordId, answerStatus: claim.statusCode, answerBody: stringifyExact(response ?? null) };
}

/**
 * Writes the response of the request being served into its idempotency record, inside the
 * transaction that makes the change: the change and its replayable answer commit together, or
 * neither does. Called by PrismaService.transaction for every write.
 */
export async function storeIdempotentResponse(db: SqlRunner, claim: IdempotencyClaim | null, response: unknown): Promise<void> {
  if (!claim || claim.stored) return;
  await db.run(SQL.storeAnswer.bind(answerParams(claim, response)));
  claim.stored = true;
}
