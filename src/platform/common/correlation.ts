import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const CORRELATION_HEADER = 'x-correlation-id';
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,64}$/;

/** A correlation id per request: the client's X-Correlation-Id if sane, else a new one; echoed back. */
export function correlationMiddleware(req: Request, res: Response, next: NextFunction): void {
  const given = req.header(CORRELATION_HEADER);
  const id = given && ACCEPTABLE.test(given) ? given : randomUUID();
  (req as Request & { correlationId: string }).correlationId = id;
  res.setHeader('X-Correlation-Id', id);
  next();
}

export function correlationIdOf(req: unknown): string {
  return (req as { correlationId?: string }).correlationId ?? 'none';
}
