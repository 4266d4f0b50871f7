import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from './errors';

/** What a request asks of a read: the primary (it must see its own writes), or whichever the policy allows. */
export type ReadWants = 'primary' | 'any';

/** Which database answered a read. */
export type ReadFrom = 'primary' | 'replica';

export const READ_FROM_HEADER = 'X-Read-From';
export const REPLICA_LAG_HEADER = 'X-Replica-Lag-Ms';

export const READ_FROM_DOC =
  "`primary`: read the pit's own database, to see a write just made (read-your-writes). `any` (the default): the reporting replica when one is set up and " +
  'within its bound of the primary (READ_MAX_LAG_MS), otherwise the primary or, if the service is set to refuse, 503 REPLICA_BEHIND.';

/** The request's X-Read-From header: `primary` or `any` (absent: any); anything else is a 400. */
export const ReadFromHeader = createParamDecorator((_data: unknown, ctx: ExecutionContext): ReadWants => {
  const raw = ctx.switchToHttp().getRequest<Request>().headers['x-read-from'];
  const value = (Array.isArray(raw) ? raw.join(',') : (raw ?? 'any')).trim().toLowerCase();
  if (value === 'primary' || value === 'any') return value;
  throw new AppError('VALIDATION_FAILED', `${READ_FROM_HEADER} must be primary or any, got "${String(raw).slice(0, 40)}"`);
});

/** Says on the answer which database it was read from and, for the replica, how far behind the primary it was found. */
export function tellReadFrom(res: Response, from: ReadFrom, lagMs: number | null): void {
  res.setHeader(READ_FROM_HEADER, from);
  if (lagMs !== null) res.setHeader(REPLICA_LAG_HEADER, String(lagMs));
}
