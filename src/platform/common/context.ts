import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from './errors';
import { correlationIdOf } from './correlation';
import type { Actor } from './actor';

/**
 * What an Idempotency-Key request's write records with its change (made by the idempotency
 * interceptor): the key's record is written by the write's own transaction, never ahead of it.
 */
export interface IdempotencyClaim {
  readonly recordId: string;
  /** The API key the Idempotency-Key belongs to (keys are per caller). */
  readonly scope: string;
  readonly key: string;
  readonly requestHash: string;
  readonly statusCode: number;
  /** The audit key the stored answer is keyed with (its MAC: src/platform/config/keyring.ts answerMac). */
  readonly answerKey: { readonly id: string; readonly secret: Buffer };
  /** Set once the answer is stored: by the write's own transaction, or by the interceptor after it. */
  stored: boolean;
}

/** Who asked, and for which request: what the audit log records of each change. */
export interface AuditContext {
  /** Null for the service's own work (the bootstrap key, timers). */
  readonly actor: Actor | null;
  readonly correlationId: string;
  readonly route: string;
  /** A request with an Idempotency-Key: its entries name the record of its answer ("answer"), stored with the change. */
  readonly idempotency?: IdempotencyClaim | null;
}

/**
 * What a write depends on besides its body, passed down explicitly from the controller: the caller,
 * the request (for the audit entry) and, for a POST with an Idempotency-Key, the claim whose answer
 * the write's transaction stores with the change.
 */
export interface WriteContext extends AuditContext {
  readonly idempotency: IdempotencyClaim | null;
}

/** A request's context: a caller is known (every write route needs an API key). */
export interface RequestContext extends WriteContext {
  readonly actor: Actor;
}

/** The context of work the service does on its own (no request, no caller): seeding, timers. */
export const SYSTEM_CONTEXT: WriteContext = { actor: null, correlationId: 'none', route: 'internal', idempotency: null };

export type ContextRequest = Request & { actor?: Actor; idempotencyClaim?: IdempotencyClaim };

/** The request's context, for a controller to pass to the service it calls. */
export const CurrentContext = createParamDecorator((_data: unknown, ctx: ExecutionContext): RequestContext => {
  const req = ctx.switchToHttp().getRequest<ContextRequest>();
  if (!req.actor) throw new AppError('UNAUTHENTICATED', 'A valid API key is required: Authorization: Bearer <key>');
  return { actor: req.actor, correlationId: correlationIdOf(req), route: `${req.method} ${req.path}`, idempotency: req.idempotencyClaim ?? null };
});
