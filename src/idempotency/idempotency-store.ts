import { requestContext } from '../common/request-context';
import type { SqlRunner } from '../database/sql';

/** The claim an Idempotency-Key request holds while it runs (set by the interceptor). */
export interface IdempotencyClaim {
  recordId: string;
  statusCode: number;
  stored: boolean;
}

/**
 * Writes the response of the request being served into its idempotency record, inside the
 * transaction that makes the change: the change and its replayable answer commit together, or
 * neither does. Called by PrismaService.transaction for every write.
 */
export async function storeIdempotentResponse(db: SqlRunner, response: unknown): Promise<void> {
  const claim = requestContext.get()?.idempotency;
  if (!claim || claim.stored) return;
  await db.run({
    name: 'sabot-idempotency-store',
    text: 'UPDATE idempotency_records SET status_code = $1, response_body = $2::jsonb, completed_at = now() WHERE id = $3::uuid',
    values: [claim.statusCode, JSON.stringify(response ?? null), claim.recordId],
  });
  claim.stored = true;
}
