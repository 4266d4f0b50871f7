import { AsyncLocalStorage } from 'node:async_hooks';
import type { Actor } from '../access/actor';

/** The claim an Idempotency-Key request holds while it runs (set by the idempotency interceptor). */
export interface IdempotencyClaim {
  recordId: string;
  statusCode: number;
  stored: boolean;
}

/** What the audit log needs to know about the request a write belongs to. */
export interface RequestContext {
  correlationId: string;
  route: string;
  actor?: Actor;
  idempotency?: IdempotencyClaim;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const requestContext = {
  run<T>(ctx: RequestContext, fn: () => T): T {
    return storage.run(ctx, fn);
  },
  get(): RequestContext | undefined {
    return storage.getStore();
  },
};
