import { applyDecorators, Get, HttpCode, Post, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiExtension, ApiExtraModels, ApiHeader, ApiOperation, ApiParam, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PUBLIC_KEY, Role, ROLES_KEY } from './actor';
import { ERROR_MEANING, ERROR_STATUS, ErrorCode } from './errors';
import { ErrorResponseDto } from './error-response.dto';
import { PATRON_MAX_LENGTH, PATRON_PATTERN } from './validation';
import { READ_FROM_DOC, READ_FROM_HEADER, REPLICA_LAG_HEADER } from './read-from';

export interface Example {
  summary: string;
  value: unknown;
}

interface EndpointOptions {
  operationId: string;
  summary: string;
  /** What the operation does, for an auditor reading the document; roles, writes and errors are added. */
  description: string;
  /** Roles allowed; omit for a public route. */
  roles?: Role[];
  /** What a success writes (tables, the audit log); omit for a read. */
  writes?: string;
  /** Success status and body type. */
  status?: number;
  type?: unknown;
  isArray?: boolean;
  /** Error codes this route can answer, besides the ones every route (or every POST) can. */
  errors?: ErrorCode[];
  /** The request body's class with examples, by name. */
  body?: { type: new () => object; examples: Record<string, Example> };
  /** An example of the success body. */
  responseExample?: unknown;
  /** The route also answers text/csv to `Accept: text/csv`. */
  csv?: boolean;
  /** The route answers a stream of Server-Sent Events (text/event-stream), described here, instead of JSON. */
  eventStream?: string;
  /** The route reads the reporting replica when it may (X-Read-From, REPLICA_BEHIND, and the answer's headers saying where it read). */
  readsReplica?: boolean;
}

const EVERY_ROUTE: ErrorCode[] = ['VALIDATION_FAILED', 'RATE_LIMITED', 'INTERNAL', 'SERVICE_UNAVAILABLE'];
const EVERY_KEYED_ROUTE: ErrorCode[] = ['UNAUTHENTICATED', 'FORBIDDEN'];
/** Every POST takes a JSON body and an Idempotency-Key (the idempotency interceptor). */
const EVERY_POST: ErrorCode[] = [
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_IN_PROGRESS',
  'IDEMPOTENCY_ANSWER_UNPROVEN',
];

export const IDEMPOTENCY_KEY_DOC =
  'Makes a retry safe: the first answer for this key (per API key) is stored with the change and replayed to any retry with the same body; ' +
  'the same key with a different body is refused (IDEMPOTENCY_KEY_REUSED), and a stored answer that does not verify under the audit key is never replayed (IDEMPOTENCY_ANSWER_UNPROVEN). ' +
  '1 to 255 visible ASCII characters; a terminal typically sends table-shoe-coup.';

const ROLE_SCOPE: Record<Role, string> = {
  TERMINAL: 'TERMINAL (on its own table only)',
  SUPERVISOR: 'SUPERVISOR',
  FINANCE: 'FINANCE',
  AUDITOR: 'AUDITOR',
  ADMIN: 'ADMIN',
  SURVEILLANCE: 'SURVEILLANCE',
  HOST: 'HOST',
  COMPLIANCE: 'COMPLIANCE',
  CASHIER: 'CASHIER',
  DISPLAY: 'DISPLAY (its own table only)',
  CASINO_MANAGER: 'CASINO_MANAGER',
  DEVICE: 'DEVICE (its own table only)',
};

/** The operation's description: what it does, who may call it, what it writes, and every error it can answer. */
function describe(o: EndpointOptions, codes: ErrorCode[], post: boolean): string {
  const who = o.roles ? o.roles.map((r) => ROLE_SCOPE[r]).join(', ') : 'anyone: no API key needed';
  const lines = [o.description, '', `**Who may call:** ${who}.`, '', `**Writes:** ${o.writes ?? 'nothing (a read).'}`];
  if (post) lines.push('', '**Retries:** send an `Idempotency-Key`; a request refused with an error wrote nothing and may be sent again.');
  lines.push('', '**Errors** (body: ErrorResponse):', '', '| code | status | meaning |', '|---|---|---|');
  for (const c of codes) lines.push(`| \`${c}\` | ${ERROR_STATUS[c]} | ${ERROR_MEANING[c]} |`);
  return lines.join('\n');
}

/** The headers of an answer read from the replica or the primary. */
const READ_HEADERS = {
  [READ_FROM_HEADER]: { description: 'Which database answered: `replica` or `primary`', schema: { type: 'string', enum: ['replica', 'primary'] } },
  [REPLICA_LAG_HEADER]: {
    description:
      'When the replica answered: how far behind the primary it was found, in milliseconds (at most READ_MAX_LAG_MS; 0: it held every write committed before the request)',
    schema: { type: 'integer', minimum: 0 },
  },
};

/** A report's success: its JSON schema, or the same figures as CSV. */
function csvOrJson(status: number, type: new () => object, o: EndpointOptions) {
  const json = { $ref: getSchemaPath(type) };
  return applyDecorators(
    ApiExtraModels(type),
    ApiResponse({
      status,
      description: 'Success (CSV with `Accept: text/csv`: the same figures, one row per line)',
      ...(o.readsReplica ? { headers: READ_HEADERS } : {}),
      content: {
        'application/json': { schema: o.isArray ? { type: 'array', items: json } : json, ...(o.responseExample ? { example: o.responseExample } : {}) },
        'text/csv': { schema: { type: 'string' } },
      },
    }),
  );
}

/**
 * One decorator per route: its method and path, its OpenAPI operation (id, summary, a description
 * with roles, writes and errors, success and error responses, examples, the Idempotency-Key header
 * of a POST, UUID path parameters), its success status and who may call it.
 */
export function Endpoint(method: 'GET' | 'POST', path: string, o: EndpointOptions) {
  const post = method === 'POST';
  const status = o.status ?? 200;
  const codes = [
    ...new Set<ErrorCode>([
      ...EVERY_ROUTE,
      ...(o.roles ? EVERY_KEYED_ROUTE : []),
      ...(post ? EVERY_POST : []),
      ...(o.readsReplica ? (['REPLICA_BEHIND'] as const) : []),
      ...(o.errors ?? []),
    ]),
  ].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b] || a.localeCompare(b));
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of codes) byStatus.set(ERROR_STATUS[c], [...(byStatus.get(ERROR_STATUS[c]) ?? []), c]);
  // A path id is named by the segment before it: shoes/:id is the shoe's id.
  const params = [...path.matchAll(/(?:([a-z-]+)\/)?:(\w+)/g)].map((m) => ({ name: m[2], of: m[1] ? m[1].replace(/s$/, '').replace(/-/g, ' ') : 'record' }));
  const type = o.type as new () => object;
  const success = o.eventStream
    ? ApiResponse({ status, description: o.eventStream, content: { 'text/event-stream': { schema: { type: 'string' } } } })
    : o.csv
      ? csvOrJson(status, type, o)
      : ApiResponse({
          status,
          description: 'Success',
          type,
          isArray: o.isArray,
          ...(o.responseExample ? { example: o.responseExample } : {}),
          ...(o.readsReplica ? { headers: READ_HEADERS } : {}),
        });
  const decorators = [
    post ? Post(path) : Get(path),
    ApiOperation({ operationId: o.operationId, summary: o.summary, description: describe(o, codes, post) }),
    HttpCode(status),
    success,
    ...[...byStatus].map(([s, cs]) => ApiResponse({ status: s, description: cs.map((c) => `${c}: ${ERROR_MEANING[c]}`).join('. '), type: ErrorResponseDto })),
    ...params.map((p) =>
      p.name === 'card'
        ? ApiParam({
            name: 'card',
            type: 'string',
            description: "The patron's player-card number",
            schema: { type: 'string', maxLength: PATRON_MAX_LENGTH, pattern: PATRON_PATTERN.source },
          })
        : ApiParam({ name: p.name, format: 'uuid', type: 'string', description: `The ${p.of}'s id (a UUID)` }),
    ),
  ];
  if (post)
    decorators.push(
      ApiHeader({
        name: 'Idempotency-Key',
        required: false,
        description: IDEMPOTENCY_KEY_DOC,
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
      }),
    );
  if (o.readsReplica)
    decorators.push(
      ApiHeader({ name: READ_FROM_HEADER, required: false, description: READ_FROM_DOC, schema: { type: 'string', enum: ['any', 'primary'], default: 'any' } }),
    );
  if (o.body) decorators.push(ApiBody({ type: o.body.type, examples: o.body.examples }));
  // x-roles: the roles, machine-readable (the screens build their navigation from it).
  if (o.roles) decorators.push(SetMetadata(ROLES_KEY, o.roles), ApiBearerAuth('apiKey'), ApiExtension('x-roles', o.roles));
  else decorators.push(SetMetadata(PUBLIC_KEY, true));
  return applyDecorators(...decorators);
}
