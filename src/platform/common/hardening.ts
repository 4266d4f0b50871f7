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
 * What no text of a request may hold, whatever the field: a NUL character (PostgreSQL's text has
 * no room for 0x00, and no name, note or code needs one) or a lone surrogate (text that is not
 * well-formed Unicode: canonical JSON, RFC 8785, has no form for it). Null when the text is fine.
 */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'holds a NUL character (\\u0000), which no text may contain: remove it and send again';
  if (!text.isWellFormed()) return 'holds text that is not well-formed Unicode (a lone surrogate): send it as UTF-8 text';
  return null;
}

/**
 * The parsed JSON body's shape, checked without recursion before anything else walks it (the
 * Idempotency-Key's hash of the body, the validation, the services): deeper than MAX_BODY_DEPTH (a
 * few thousand `[` would overflow the stack of every recursive reader), with a key that names an
 * object's prototype machinery, with text that textProblem refuses, or with a number JSON.parse read
 * as Infinity (1e999: past the largest double, which no field takes and canonical JSON cannot
 * write), it is refused with VALIDATION_FAILED naming the field.
 */
export function checkBodyShape(req: Request, _res: Response, next: NextFunction): void {
  const stack: [unknown, number, string][] = [[req.body, 0, 'body']];
  const where = (at: string) => (at === 'body' ? 'the body' : at.slice(at.startsWith('body.') ? 5 : 4));
  while (stack.length > 0) {
    const [node, depth, at] = stack.pop()!;
    if (typeof node === 'string') {
      const problem = textProblem(node);
      if (problem) return next(new AppError('VALIDATION_FAILED', `${where(at)} ${problem}`, [{ field: where(at), problems: [`${where(at)} ${problem}`] }]));
      continue;
    }
    if (typeof node === 'number' && !Number.isFinite(node)) {
      const problem = 'is a number too large for any field of this service (past 1.8e308)';
      return next(new AppError('VALIDATION_FAILED', `${where(at)} ${problem}`, [{ field: where(at), problems: [`${where(at)} ${problem}`] }]));
    }
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
      const problem = textProblem(key);
      if (problem) return next(new AppError('VALIDATION_FAILED', `a field name ${problem}`));
      if (FORBIDDEN_KEYS.has(key))
        return next(new AppError('VALIDATION_FAILED', `${at === 'body' ? key : `${where(at)}.${key}`} is not a field of this request`));
      stack.push([(node as Record<string, unknown>)[key], depth + 1, `${at}.${key}`]);
    }
  }
  next();
}

/**
 * The query string's names and values, checked by the same rule as the body's text (textProblem)
 * before any route reads them: `?patronId=P-1%00` is refused with VALIDATION_FAILED naming the parameter.
 */
export function checkQueryText(req: Request, _res: Response, next: NextFunction): void {
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) {
    const nameProblem = textProblem(name);
    if (nameProblem) return next(new AppError('VALIDATION_FAILED', `a query parameter's name ${nameProblem}`));
    for (const v of Array.isArray(value) ? value : [value]) {
      const problem = typeof v === 'string' ? textProblem(v) : null;
      if (problem) return next(new AppError('VALIDATION_FAILED', `${name} ${problem}`, [{ field: name, problems: [`${name} ${problem}`] }]));
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
