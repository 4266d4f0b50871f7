import { applyDecorators, HttpCode, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { PUBLIC_KEY, Role, ROLES_KEY } from '../access/actor';
import { ERROR_STATUS, ErrorCode } from './errors';
import { ErrorResponseDto } from './error-response.dto';

interface EndpointOptions {
  operationId: string;
  summary: string;
  description?: string;
  /** Roles allowed; omit for a public route. */
  roles?: Role[];
  /** Success status and body type. */
  status?: number;
  type?: unknown;
  isArray?: boolean;
  /** Error codes this route can answer, besides VALIDATION_FAILED / UNAUTHENTICATED / FORBIDDEN / RATE_LIMITED. */
  errors?: ErrorCode[];
}

/**
 * One decorator per route: its OpenAPI operation (id, summary, success and error responses),
 * its success status and who may call it.
 */
export function Endpoint(o: EndpointOptions) {
  const status = o.status ?? 200;
  const codes: ErrorCode[] = ['VALIDATION_FAILED', ...(o.roles ? (['UNAUTHENTICATED', 'FORBIDDEN'] as ErrorCode[]) : []), 'RATE_LIMITED', 'INTERNAL', ...(o.errors ?? [])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of new Set(codes)) byStatus.set(ERROR_STATUS[c], [...(byStatus.get(ERROR_STATUS[c]) ?? []), c]);
  const decorators = [
    ApiOperation({ operationId: o.operationId, summary: o.summary, description: o.description }),
    HttpCode(status),
    ApiResponse({ status, description: 'Success', type: o.type as never, isArray: o.isArray }),
    ...[...byStatus].map(([s, cs]) => ApiResponse({ status: s, description: cs.join(', '), type: ErrorResponseDto })),
  ];
  if (o.roles) decorators.push(SetMetadata(ROLES_KEY, o.roles), ApiBearerAuth());
  else decorators.push(SetMetadata(PUBLIC_KEY, true));
  return applyDecorators(...decorators);
}
