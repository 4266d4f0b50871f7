import { Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import type { Actor } from '../access/actor';
import { AppError } from './errors';

/** Security headers (helmet); the CSP still lets Swagger UI load its own script and inline styles. */
export const securityHeaders = helmet({
  contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'"], styleSrc: ["'self'", "'unsafe-inline'"], imgSrc: ["'self'", 'data:'] } },
});

/** A request with a body must send JSON; anything else is 415 before the body is read. */
export function requireJson(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !req.is('application/json')) return next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON with Content-Type: application/json'));
  next();
}

/** Rate limits per API key (@nestjs/throttler); requests without a key are counted per address. */
@Injectable()
export class PerKeyThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const actor = req.actor as Actor | undefined;
    return actor ? `key:${actor.keyId}` : `ip:${String(req.ip)}`;
  }
}
