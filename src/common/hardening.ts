import { Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import type { Actor } from './actor';
import { AppError } from './errors';

/** Security headers (helmet); the CSP still lets Swagger UI load its own script and inline styles. */
export const securityHeaders = helmet({
  contentSecurityPolicy: {
    directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'"], styleSrc: ["'self'", "'unsafe-inline'"], imgSrc: ["'self'", 'data:'] },
  },
});

/** A request with a body must send JSON; anything else is 415 before the body is read. */
export function requireJson(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !req.is('application/json'))
    return next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON with Content-Type: application/json'));
  next();
}

/** Deeper than any request of this API (a coup's wagers are 3 levels deep). */
export const MAX_BODY_DEPTH = 16;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The parsed JSON body's shape, checked without recursion before anything else walks it: deeper
 * than MAX_BODY_DEPTH (a few thousand `[` would overflow the stack of every recursive reader), with
 * a key that names an object's prototype machinery, or with text that is not well-formed Unicode
 * (canonical JSON, RFC 8785, has no form for a lone surrogate), it is refused with VALIDATION_FAILED.
 */
export function checkBodyShape(req: Request, _res: Response, next: NextFunction): void {
  const stack: [unknown, number, string][] = [[req.body, 0, 'body']];
  while (stack.length > 0) {
    const [node, depth, at] = stack.pop()!;
    if (typeof node === 'string' && !node.isWellFormed())
      return next(
        new AppError('VALIDATION_FAILED', `${at === 'body' ? 'the body' : at.slice(5)} holds text that is not well-formed Unicode (a lone surrogate)`),
      );
    if (node === null || typeof node !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH)
      return next(
        new AppError('VALIDATION_FAILED', `The request body is nested more than ${MAX_BODY_DEPTH} levels deep (at ${at}): no request of this API is`),
      );
    if (Array.isArray(node)) {
      node.forEach((v, i) => stack.push([v, depth + 1, `${at}[${i}]`]));
      continue;
    }
    for (const key of Object.keys(node)) {
      if (!key.isWellFormed()) return next(new AppError('VALIDATION_FAILED', 'a field name is not well-formed Unicode (a lone surrogate)'));
      if (FORBIDDEN_KEYS.has(key))
        return next(new AppError('VALIDATION_FAILED', `${at === 'body' ? key : `${at.slice(5)}.${key}`} is not a field of this request`));
      stack.push([(node as Record<string, unknown>)[key], depth + 1, `${at}.${key}`]);
    }
  }
  next();
}

/** Rate limits per API key (@nestjs/throttler); requests without a key are counted per address. */
@Injectable()
export class PerKeyThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    const actor = req.actor as Actor | undefined;
    return Promise.resolve(actor ? `key:${actor.keyId}` : `ip:${String(req.ip)}`);
  }
}
