import { CallHandler, ExecutionContext, Inject, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import { catchError, from, mergeMap, Observable } from 'rxjs';
import { ContextRequest, IdempotencyClaim } from '../common/context';
import { canonicalJson } from '../common/canonical';
import { AppError } from '../common/errors';
import { parseExact } from '../common/exact-json';
import { AUDIT_KEYRING, AuditKeyring } from '../config/keyring';
import { answerProblem, findAnswer, isAnswerConflict, storeIdempotentResponse, StoredAnswer } from '../database/idempotent-answers';
import { PrismaService } from '../database/prisma.service';
import { pgRunner } from '../database/sql';
import { REPLAY_CHECK, ReplayCheck } from './replay-check';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * Safe retries for every POST: the first answer for an `Idempotency-Key` (per API key) is stored
 * with the change it made and replayed; the same key with another body is IDEMPOTENCY_KEY_REUSED.
 *
 * Nothing is claimed ahead of the request: the key's record is written, with its answer, by the
 * transaction that makes the change (src/platform/database/database.sql), so a request that fails anywhere
 * (the database cut between the lookup, the write and its answer, the process killed) leaves either
 * its change and its answer, committed together, or nothing at all, and its retry, sent at once,
 * gets the stored answer or runs cleanly as a first request: never an IDEMPOTENCY_IN_PROGRESS
 * waiting for a claim to go stale, never a second change. A retry sent while the first is still
 * running (even in a backend whose client is gone) waits for it on the key's unique index at its
 * write and then answers with the first's stored answer, or writes if the first died.
 *
 * When a keyed request fails, the key is looked up again before the error is answered: the change
 * may have committed though its acknowledgement was lost (the connection cut during COMMIT), or a
 * request with the same key may have committed first (this one then failed on the key, or on what
 * the first changed). Its stored answer is then the answer.
 *
 * A stored answer is replayed only as the service stored it (issue 49): its MAC under the audit key
 * must hold (src/platform/config/keyring.ts answerMac), and a route that reports records (a settled
 * coup) checks it against them as the ledger holds them now (CheckedOnReplay). One that does not is
 * refused with IDEMPOTENCY_ANSWER_UNPROVEN: the request was answered once, and is neither answered
 * with a forged answer nor made again; the audit verification names the record.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger(IdempotencyInterceptor.name);

  private readonly answerKey: { readonly id: string; readonly secret: Buffer };

  constructor(
    private readonly prisma: PrismaService,
    private readonly reflector: Reflector,
    @Inject(AUDIT_KEYRING) private readonly keyring: AuditKeyring,
  ) {
    this.answerKey = { id: keyring.currentId, secret: keyring.keys.get(keyring.currentId)! };
  }

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

    const check = this.reflector.get<ReplayCheck | undefined>(REPLAY_CHECK, ctx.getHandler()) ?? null;
    const found = await findAnswer(pgRunner(this.prisma.pool), scope, key);
    if (found) return from(this.replay(found, { scope, key, requestHash }, check, res));

    const claim: IdempotencyClaim = {
      recordId: randomUUID(),
      scope,
      key,
      requestHash,
      statusCode: this.reflector.get<number>('__httpCode__', ctx.getHandler()) ?? 201,
      answerKey: this.answerKey,
      stored: false,
    };
    // The controller passes it to the write (CurrentContext), whose transaction stores the record.
    req.idempotencyClaim = claim;
    return next.handle().pipe(
      mergeMap((body: unknown) => from(this.storeAfter(claim, body))),
      catchError((err: unknown) => from(this.answerAfterFailure(err, claim, check, res))),
    );
  }

  /**
   * A request that made no change in a transaction of its own (a computation, say) has its answer
   * stored now. Storing it is not what makes retries safe (there is no change to repeat), so a
   * database gone away meanwhile does not take the answer from the caller.
   */
  private async storeAfter(claim: IdempotencyClaim, body: unknown): Promise<unknown> {
    if (claim.stored) return body;
    try {
      await storeIdempotentResponse(pgRunner(this.prisma.pool), claim, body);
    } catch (e) {
      if (isAnswerConflict(e)) throw e; // another request with the key answered first: its answer is the answer
      this.logger.warn(`The answer to Idempotency-Key ${claim.key} could not be stored: ${(e as Error)?.message}`);
    }
    return body;
  }

  /** A failed keyed request: the key's stored answer if there is one now (see the class), else the error. */
  private async answerAfterFailure(err: unknown, claim: IdempotencyClaim, check: ReplayCheck | null, res: Response): Promise<unknown> {
    let found: StoredAnswer | null;
    try {
      found = await findAnswer(pgRunner(this.prisma.pool), claim.scope, claim.key);
    } catch (lookup) {
      // The database is gone: the error says so (503), whatever failed first.
      throw isAnswerConflict(err) ? lookup : err;
    }
    if (found) return this.replay(found, claim, check, res);
    if (isAnswerConflict(err)) throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'This Idempotency-Key is contended; retry shortly');
    throw err;
  }

  /**
   * The stored answer to a key, replayed to a request with the same body: only as the service stored
   * it (its MAC) and, for a route that reports records, as they stand in the ledger.
   */
  private async replay(
    found: StoredAnswer,
    request: Pick<IdempotencyClaim, 'scope' | 'key' | 'requestHash'>,
    check: ReplayCheck | null,
    res: Response,
  ): Promise<unknown> {
    const problem = answerProblem(found, request.scope, request.key, this.keyring);
    if (problem) throw unproven(found, problem);
    if (found.requestHash !== request.requestHash) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request; use a new key for a new request');
    }
    const body = found.responseBody === null ? null : parseExact(found.responseBody);
    const disagrees = check ? await check(pgRunner(this.prisma.pool), body) : null;
    if (disagrees) throw unproven(found, disagrees);
    res.setHeader('Idempotent-Replayed', 'true');
    res.status(found.statusCode ?? 200);
    return body;
  }
}

/** A stored answer that is not replayed: said to the caller, and to the service's log. */
function unproven(found: StoredAnswer, problem: string): AppError {
  new Logger(IdempotencyInterceptor.name).error(`The stored answer ${found.id} (idempotency_records) is not replayed: ${problem}`);
  return new AppError(
    'IDEMPOTENCY_ANSWER_UNPROVEN',
    `The request with this Idempotency-Key was answered already, but its stored answer does not verify (${problem}): it is not replayed. Do not send the request again under a new key: the audit team finds the record (idempotency_records ${found.id}) in GET /v1/audit/verify`,
  );
}
