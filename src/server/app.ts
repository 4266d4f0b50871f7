import { INestApplication, Logger as NestLogger } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { KeyObject, randomBytes } from 'node:crypto';
import swaggerUi from 'swagger-ui-express';
import { AppModule } from './app.module';
import { AuditSecrets } from '../foundation/ledger/audit-log';
import { signingKeyFrom } from '../integrity/audit/checkpoint';
import { AuditKeyring, auditKeyringFromFile, parseAuditKeys } from '../platform/config/keyring';
import { correlationMiddleware } from '../platform/common/correlation';
import { Metrics, requestMetrics } from '../platform/common/metrics';
import { ShutdownState } from '../platform/common/shutdown';
import { exactJsonResponses } from '../platform/common/exact-json';
import { checkBodyShape, checkQueryText, requireJson, securityHeaders } from '../platform/common/hardening';
import { ErrorResponseDto, ValidationProblemDto } from '../platform/common/error-response.dto';
import { validationPipe } from '../platform/common/validation';
import { AppConfig } from '../platform/config/config';
import { inCheckout } from '../platform/config/checkout';

/** Builds the Nest application (not listening): middleware, validation, errors, OpenAPI. */
export async function createApp(
  config: AppConfig,
  databaseUrl: string,
  adminKey: string,
  keyring: AuditKeyring = auditKeyringFor(config),
): Promise<INestApplication> {
  const audit: AuditSecrets = { keyring, signingKey: signingKeyFor(config), checkpointMinutes: config.checkpointMinutes };
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, databaseUrl, adminKey, audit), {
    bufferLogs: true,
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  // No ETag: answers are built fresh for every request, and hashing a multi-megabyte report costs more than it saves.
  app.set('etag', false);
  app.use(requestMetrics(app.get(Metrics)));
  const shutdown = app.get(ShutdownState);
  // Draining (SIGTERM): every answer closes its connection, so that keep-alive clients go elsewhere.
  app.use((_req: unknown, res: ServerResponse, next: () => void) => {
    if (shutdown.draining) res.setHeader('Connection', 'close');
    next();
  });
  app.use(correlationMiddleware);
  app.use(exactJsonResponses);
  app.use(securityHeaders);
  app.use(requireJson);
  app.useBodyParser('json', { limit: config.bodyLimit, strict: true });
  app.use(checkBodyShape);
  app.use(checkQueryText);
  app.useGlobalPipes(validationPipe());
  const document = openApiDocument(app);
  documents.set(app, document);
  app.use(csvPaths(document));
  app.use('/docs', swaggerUi.serve, swaggerUi.setup(document, { customSiteTitle: 'Sabot API' }));
  const http = app.getHttpAdapter();
  http.get('/docs-json', (_req: unknown, res: unknown) => {
    http.reply(res, document, 200);
  });
  serveScreens(app);
  return app;
}

/** The screens' static build (app/, built by `npm run build` into app/dist). */
export const SCREENS_DIR = inCheckout(__dirname, path.join('app', 'dist'));

/**
 * The screens under /app: the page itself is never cached (a new build is seen at once), its
 * assets, whose names carry their content's hash, for a year. Without a build, /app is a 404 and
 * the start says why.
 */
function serveScreens(app: NestExpressApplication): void {
  if (!fs.existsSync(path.join(SCREENS_DIR, 'index.html'))) {
    new NestLogger('Screens').warn(`The screens are not built (no ${SCREENS_DIR}): npm run build makes them`);
    return;
  }
  app.useStaticAssets(SCREENS_DIR, {
    prefix: '/app/',
    index: 'index.html',
    setHeaders: (res: ServerResponse, file: string) => {
      res.setHeader('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

const documents = new WeakMap<INestApplication, OpenAPIObject>();

/** The document an app serves at /docs-json, as the text kept in openapi.json. */
export function openApiJson(app: INestApplication): string {
  return JSON.stringify(documents.get(app), null, 2) + '\n';
}

export function openApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Sabot')
    .setDescription(
      'The back office for casino baccarat tables: tables, shoes, coups and wagers recorded and settled, commission tracked per seat, ' +
        'player-banked games, two-person voids, finance reports and a hash-chained audit log.\n\n' +
        '- **Amounts** are integer minor units (cents of the table currency), never fractions: JSON numbers (`integer`, `int64`) written with every digit. Amounts of one wager, coup or bank stay below 2^53 in practice; a sum in a report (or a chemin de fer bank doubled many times) may pass 2^53 = 9,007,199,254,740,992 and is still written as an exact JSON number, never rounded and never a string: read amounts as 64-bit integers (in JavaScript, a parser that keeps big integers, e.g. lossless-json).\n' +
        '- **Errors** all have the body `ErrorResponse` `{ statusCode, code, message, details?, correlationId }` with a stable `code`; each operation lists its codes.\n' +
        '- **Retries**: every POST takes an `Idempotency-Key` header; a refused request writes nothing.\n' +
        '- **Nothing recorded is edited**: mistakes are voided by new records approved by a second supervisor.',
    )
    .setVersion('1')
    .addServer('/', 'This service (paths are relative to the host serving this document)')
    .addSecurity('apiKey', {
      type: 'http',
      scheme: 'bearer',
      description:
        'An API key, sent as `Authorization: Bearer <key>`. Keys are opaque strings made by an ADMIN (`POST /v1/api-keys`) for one role ' +
        '(TERMINAL, SUPERVISOR, FINANCE, AUDITOR, ADMIN, SURVEILLANCE, HOST, COMPLIANCE, CASHIER, DISPLAY); a TERMINAL or DISPLAY key is bound to one table. The service keeps only their SHA-256 hash; ' +
        'a key can expire and is revoked at once.',
    })
    .build();
  return tidy(SwaggerModule.createDocument(app, config, { extraModels: [ErrorResponseDto, ValidationProblemDto] }));
}

/**
 * What @nestjs/swagger leaves for a reader to trip on: every operation states its security (a
 * public one an empty list), and a lone `allOf` around a reference is the reference itself.
 */
function tidy(doc: OpenAPIObject): OpenAPIObject {
  doc.info.license = { name: 'Proprietary: all rights reserved' };
  for (const item of Object.values(doc.paths)) {
    for (const op of [item.get, item.post]) if (op && !op.security) op.security = [];
    // A body whose every field may be left out need not be sent: a generated client then asks for none.
    for (const op of [item.post]) {
      const schema = (op?.requestBody as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined)?.content?.['application/json']?.schema;
      const named = schema?.$ref ? (doc.components?.schemas?.[schema.$ref.split('/').pop()!] as { required?: string[] } | undefined) : undefined;
      if (op?.requestBody && named && !(named.required ?? []).length) (op.requestBody as { required?: boolean }).required = false;
    }
  }
  splitCsv(doc);
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const o = node as Record<string, unknown>;
    if (Array.isArray(o.allOf) && o.allOf.length === 1 && Object.keys(o).length === 1) return walk(o.allOf[0]);
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, walk(v)]));
  };
  return walk(doc) as OpenAPIObject;
}

/**
 * A report that answers CSV too is documented as two operations: the JSON one, and `<path>.csv`
 * answering text/csv only, so that a client generated from the document types each answer exactly
 * (one media type an operation). The service answers `<path>.csv` by the same route, as if asked
 * with `Accept: text/csv` (csvPaths), which the JSON path also still honours.
 */
function splitCsv(doc: OpenAPIObject): void {
  for (const [p, item] of Object.entries(doc.paths)) {
    const op = item.get;
    const ok = op?.responses?.['200'] as { content?: Record<string, unknown>; description?: string } | undefined;
    if (!op || !ok?.content?.['text/csv'] || !ok.content['application/json']) continue;
    const { 'text/csv': csv, ...json } = ok.content;
    ok.content = json;
    ok.description = 'Success';
    const original = op.description ?? '';
    op.description = `${original}\n\nThe same figures as CSV: \`GET ${p}.csv\` (operation \`${op.operationId}Csv\`).`;
    doc.paths[`${p}.csv`] = {
      get: {
        ...op,
        operationId: `${op.operationId}Csv`,
        summary: `${op.summary} (CSV)`,
        description: `The figures of \`GET ${p}\` (operation \`${op.operationId}\`) as CSV: one row per line, the same columns as the JSON rows' fields.\n\n${original}`,
        responses: { ...op.responses, '200': { ...ok, description: 'Success: text/csv', content: { 'text/csv': csv } } },
      },
    };
  }
}

/** The `.csv` paths of the document, answered by their JSON route as if asked for text/csv. */
export function csvPaths(
  doc: OpenAPIObject,
): (req: { method?: string; url?: string; headers: Record<string, unknown> }, res: unknown, next: () => void) => void {
  const paths = new Set(Object.keys(doc.paths).filter((p) => p.endsWith('.csv')));
  return (req, _res, next) => {
    const [pathname, query] = (req.url ?? '').split(/\?(.*)/s, 2);
    if (req.method === 'GET' && paths.has(pathname)) {
      req.url = pathname.slice(0, -'.csv'.length) + (query !== undefined ? `?${query}` : '');
      req.headers.accept = 'text/csv';
    }
    next();
  };
}

/**
 * The audit log's keys: AUDIT_KEYS, or AUDIT_KEYS_FILE, or (outside production) a file in the data
 * folder made with a fresh key on first start, readable only by its owner. Never in the database.
 */
export function auditKeyringFor(config: AppConfig): AuditKeyring {
  if (config.auditKeys) return parseAuditKeys(config.auditKeys);
  const file = config.auditKeysFile ?? path.join(config.dataDir, 'audit-keys');
  return auditKeyringFromFile(file, config.auditKeysFile === null && !config.production);
}

/** The checkpoint signing key: AUDIT_SIGNING_KEY, AUDIT_SIGNING_KEY_FILE, or (outside production) one made in the data folder. */
export function signingKeyFor(config: AppConfig): KeyObject {
  return signingKeyFrom({
    inline: config.auditSigningKey,
    file: config.auditSigningKeyFile,
    dataDir: config.dataDir,
    create: config.auditSigningKeyFile === null && !config.production,
  });
}

/**
 * The bootstrap admin key: ADMIN_API_KEY, or (outside production) one generated once and kept
 * in the data folder, readable only by its owner.
 */
export function adminKeyFor(config: AppConfig): string {
  if (config.adminApiKey) return config.adminApiKey;
  const file = path.join(config.dataDir, 'admin-api-key');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(config.dataDir, { recursive: true });
  const key = `sab_admin_${randomBytes(24).toString('base64url')}`;
  fs.writeFileSync(file, key + '\n', { mode: 0o600 });
  new NestLogger('Bootstrap').warn(`No ADMIN_API_KEY set: generated one in ${file}`);
  return key;
}
