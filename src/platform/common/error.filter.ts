import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError } from '../../domain';
import { AppError, DOMAIN_ERROR_CODE, ERROR_STATUS, ErrorCode } from './errors';
import { correlationIdOf } from './correlation';

/** PostgreSQL / driver / Prisma codes that mean "the database is not reachable right now". */
const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  'P1001',
  'P1002',
  'P1017',
  'P2024',
]);

/** A hot standby cancelled a read that held back the changes it had to replay ("conflict with recovery"). */
const RECOVERY_CONFLICT = '40001';

/** A statement cancelled by statement_timeout. */
const TIMED_OUT = new Set(['57014']);

/** The SQLSTATE (or driver code) of an error in the chain: Prisma's adapter keeps PostgreSQL's as originalCode. */
const sqlStateOf = (c: unknown): string => String((c as { originalCode?: unknown }).originalCode ?? (c as { code?: unknown }).code);

function causeChain(e: unknown): unknown[] {
  const out: unknown[] = [];
  for (let cur = e, depth = 0; cur && depth < 6; depth++) {
    out.push(cur);
    cur = (cur as { cause?: unknown }).cause;
  }
  return out;
}

export function isDatabaseUnavailable(e: unknown): boolean {
  return causeChain(e).some((c) => {
    const o = c as {
      code?: unknown;
      originalCode?: unknown;
      kind?: unknown;
      message?: unknown;
      meta?: { code?: unknown; driverAdapterError?: { cause?: { originalCode?: unknown } } };
    };
    return (
      UNAVAILABLE.has(String(o.code)) ||
      UNAVAILABLE.has(String(o.originalCode)) ||
      // Prisma's known request errors keep PostgreSQL's SQLSTATE in their meta (a backend terminated mid-transaction: 57P01).
      UNAVAILABLE.has(String(o.meta?.code)) ||
      UNAVAILABLE.has(String(o.meta?.driverAdapterError?.cause?.originalCode)) ||
      o.kind === 'DatabaseNotReachable' ||
      /Connection terminated|terminating connection due to administrator command|the database system is (shutting down|starting up)|connect ECONNREFUSED|timeout exceeded when trying to connect|Server has closed the connection|Client has encountered a connection error and is not queryable|Client was closed and is not queryable/i.test(
        String(o.message),
      )
    );
  });
}

interface Mapped {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** Maps anything thrown to the one error body. Unknown errors become a bare 500 (logged, never leaked). */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger(ErrorFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    const correlationId = correlationIdOf(req);
    const mapped = this.map(exception, correlationId);
    const statusCode = ERROR_STATUS[mapped.code];
    if (mapped.code === 'SERVICE_UNAVAILABLE' || mapped.code === 'REPLICA_BEHIND' || mapped.code === 'IDEMPOTENCY_IN_PROGRESS')
      res.setHeader('Retry-After', '2');
    if (res.headersSent) return;
    res.status(statusCode).json({
      statusCode,
      code: mapped.code,
      message: mapped.message,
      ...(mapped.details === undefined ? {} : { details: mapped.details }),
      correlationId,
    });
  }

  private map(e: unknown, correlationId: string): Mapped {
    if (e instanceof AppError) return { code: e.code, message: e.message, details: e.details };
    if (e instanceof DomainError) return { code: DOMAIN_ERROR_CODE[e.code], message: e.message, details: e.details };
    if (e instanceof HttpException) return this.fromHttp(e);
    const prismaCode = (e as { code?: unknown })?.code;
    if (prismaCode === 'P2002') return { code: 'CONFLICT', message: 'A record with the same unique values already exists' };
    if (prismaCode === 'P2025') return { code: 'NOT_FOUND', message: 'The record does not exist' };
    if (causeChain(e).some((c) => TIMED_OUT.has(sqlStateOf(c)) || /statement timeout/i.test(String((c as { message?: unknown }).message)))) {
      this.logger.warn(`[${correlationId}] statement timeout: ${(e as Error)?.message}`);
      return { code: 'SERVICE_UNAVAILABLE', message: 'The database took too long to answer; retry shortly' };
    }
    if (causeChain(e).some((c) => sqlStateOf(c) === RECOVERY_CONFLICT)) {
      this.logger.warn(`[${correlationId}] read cancelled by the replica: ${(e as Error)?.message}`);
      return { code: 'SERVICE_UNAVAILABLE', message: "The reporting replica cancelled the read to replay the pit's latest changes; retry shortly" };
    }
    if (isDatabaseUnavailable(e)) {
      this.logger.warn(`[${correlationId}] database unavailable: ${(e as Error)?.message}`);
      return { code: 'SERVICE_UNAVAILABLE', message: 'The database is not reachable right now; retry shortly' };
    }
    // Body parser errors carry a status and a type.
    const bodyError = e as { type?: string; status?: number };
    if (bodyError?.type === 'entity.too.large') return { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' };
    if (bodyError?.type === 'entity.parse.failed') return { code: 'VALIDATION_FAILED', message: 'The request body is not valid JSON' };
    this.logger.error(`[${correlationId}] unexpected error`, (e as Error)?.stack ?? String(e));
    return { code: 'INTERNAL', message: `Something went wrong on our side; quote ${correlationId} to support` };
  }

  private fromHttp(e: HttpException): Mapped {
    const status = e.getStatus();
    const cause = (e as { cause?: { type?: string } }).cause;
    if (status === 413 || cause?.type === 'entity.too.large') return { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' };
    switch (status) {
      case 400: {
        const body = e.getResponse() as { message?: unknown };
        const text = Array.isArray(body?.message) ? body.message.join('; ') : typeof body?.message === 'string' ? body.message : e.message;
        if (/JSON/i.test(text)) return { code: 'VALIDATION_FAILED', message: 'The request body is not valid JSON' };
        return { code: 'VALIDATION_FAILED', message: text };
      }
      case 401:
        return { code: 'UNAUTHENTICATED', message: 'A valid API key is required: Authorization: Bearer <key>' };
      case 403:
        return { code: 'FORBIDDEN', message: e.message };
      case 404:
        return { code: 'NOT_FOUND', message: 'No such route' };
      case 415:
        return { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send JSON with Content-Type: application/json' };
      case 429:
        return { code: 'RATE_LIMITED', message: 'Too many requests; slow down and retry' };
      case 503:
        return { code: 'SERVICE_UNAVAILABLE', message: 'A dependency is not answering; retry shortly', details: e.getResponse() };
      default:
        return status >= 500 ? { code: 'INTERNAL', message: 'Something went wrong on our side' } : { code: 'VALIDATION_FAILED', message: e.message };
    }
  }
}
