import type { IdempotencyClaim } from '../common/context';
import { CteParts, SqlRunner, standalone } from './sql';
import { stringifyExact } from '../common/exact-json';

/**
 * Writes the response of the request being served into its idempotency record, inside the
 * transaction that makes the change: the change and its replayable answer commit together, or
 * neither does. Called by PrismaService.transaction for every write.
 */
export async function storeIdempotentResponse(db: SqlRunner, claim: IdempotencyClaim | null, response: unknown): Promise<void> {
  if (!claim || claim.stored) return;
  await db.run(standalone('sabot-idempotency-store', idempotencyParts(claim, response)));
  claim.stored = true;
}

/** The answer of the current Idempotency-Key request, stored if the guard holds. */
export function idempotencyParts(claim: IdempotencyClaim, response: unknown): CteParts {
  return {
    ctes: `idempotent_answer AS (
      UPDATE idempotency_records SET status_code = $1, response_body = $2::jsonb, completed_at = now()
      WHERE id = $3::uuid AND EXISTS (SELECT 1 FROM guard) RETURNING 1)`,
    values: [claim.statusCode, stringifyExact(response ?? null), claim.recordId],
  };
}
