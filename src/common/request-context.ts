import { AsyncLocalStorage } from 'node:async_hooks';
import type { Actor } from '../access/actor';
import type { IdempotencyClaim } from '../idempotency/idempotency-store';

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
