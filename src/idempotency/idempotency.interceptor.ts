import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import { catchError, from, mergeMap, Observable, of, throwError } from 'rxjs';
import { ContextRequest, IdempotencyClaim } from '../common/context';
import { canonicalJson } from '../common/canonical';
import { AppError } from '../common/errors';
import { PrismaService } from '../database/prisma.service';
import { parseExact, stringifyExact } from '../common/exact-json';

interface Claimed {
  id: string;
  requestHash: string;
  statusCode: number | null;
  responseBody: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Longer than any transaction may run (PrismaService.transaction times out at 15 s). */
const STALE_CLAIM_MS = 30_000;

/**
 * Claims this process made for requests that failed and could not be released (the database went
 * away mid-request): known dead, so a retry takes them over at once instead of waiting STALE_CLAIM_MS.
 */
const orphanedClaims = new Set<string>();

/**
 * Safe retries for every POST: the first response for an `Idempotency-Key` (per API key) is
 * stored and replayed; the same key with another body is IDEMPOTENCY_KEY_REUSED; a retry while
 * the first is still running is IDEMPOTENCY_IN_PROGRESS. A request that fails wrote nothing,
 * so its key is released and may be retried.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly prisma: PrismaService,
    private readonly reflector: Reflector,
  ) {}

  async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = ctx.switchToHttp().getRequest<ContextRequest>();
    const key = req.header('idempotency-key');
    if (req.method !== 'POST' || key === undefined) return next.handle();
    if (!KEY_PATTERN.test(key)) throw new AppError('VALIDATION_FAILED', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    const res = ctx.switchToHttp().getResponse<Response>();
    const scope = req.actor?.keyId ?? 'public';
    const requestHash = createHash('sha256')
      .update(`${req.method} ${req.path}\n${canonicalJson(req.body ?? null)}`)
      .digest('hex');

    for (let attempt = 0; attempt < 3; attempt++) {
      const id = randomUUID();
      const claimed = await this.prisma.$executeRaw`
        INSERT INTO idempotency_records (id, scope, key, request_hash) VALUES (${id}::uuid, ${scope}, ${key}, ${requestHash})
        ON CONFLICT (scope, key) DO NOTHING`;
      if (claimed === 1) {
        const claim: IdempotencyClaim = { recordId: id, statusCode: this.reflector.get<number>('__httpCode__', ctx.getHandler()) ?? 201, stored: false };
        // The controller passes it to the write (CurrentContext), whose transaction stores the answer.
        req.idempotencyClaim = claim;
        return next.handle().pipe(
          mergeMap(async (body: unknown) => {
            // Writes stored their response in their own transaction; anything else is stored now.
            if (!claim.stored) {
              await this.prisma.$executeRaw`
                UPDATE idempotency_records SET status_code = ${claim.statusCode}, response_body = ${stringifyExact(body ?? null)}::jsonb, completed_at = now()
                WHERE id = ${id}::uuid`;
            }
            return body;
          }),
          catchError((err) =>
            from(this.prisma.idempotencyRecord.delete({ where: { id } }).catch(() => orphanedClaims.add(id))).pipe(
              mergeMap(() => throwError(() => err as Error)),
            ),
          ),
        );
      }
      const [existing] = await this.prisma.$queryRaw<Claimed[]>`
        SELECT id, request_hash AS "requestHash", status_code AS "statusCode", response_body::text AS "responseBody", created_at AS "createdAt", completed_at AS "completedAt"
        FROM idempotency_records WHERE scope = ${scope} AND key = ${key}`;
      if (!existing) continue; // released by a failed first attempt: claim again
      if (!existing.completedAt && (orphanedClaims.has(existing.id) || Date.now() - existing.createdAt.getTime() > STALE_CLAIM_MS)) {
        orphanedClaims.delete(existing.id);
        // The first attempt died without committing (a committed change stores its response with it): take over.
        await this.prisma.idempotencyRecord.deleteMany({ where: { id: existing.id, completedAt: null } });
        continue;
      }
      if (existing.requestHash !== requestHash) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request; use a new key for a new request');
      }
      if (!existing.completedAt)
        throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'The first request with this Idempotency-Key is still being processed; retry shortly');
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(existing.statusCode ?? 200);
      // Read as text: an amount past 2^53 in the answer keeps its digits (parseExact).
      return of(existing.responseBody === null ? null : parseExact(existing.responseBody));
    }
    throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'This Idempotency-Key is contended; retry shortly');
  }
}
