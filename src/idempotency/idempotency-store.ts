import { requestContext } from '../common/request-context';
import type { Tx } from '../database/prisma.service';

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
export async function storeIdempotentResponse(tx: Tx, response: unknown): Promise<void> {
  const claim = requestContext.get()?.idempotency;
  if (!claim || claim.stored) return;
  await tx.$executeRaw`
    UPDATE idempotency_records SET status_code = ${claim.statusCode}, response_body = ${JSON.stringify(response ?? null)}::jsonb, completed_at = now()
    WHERE id = ${claim.recordId}::uuid`;
  claim.stored = true;
}
