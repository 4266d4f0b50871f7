import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import swaggerUi from 'swagger-ui-express';
import { AppModule } from './app.module';
import { correlationMiddleware } from './common/correlation';
import { requireJson, securityHeaders } from './common/hardening';
import { ErrorResponseDto } from './common/error-response.dto';
import { validationPipe } from './common/validation';
import { AppConfig } from './config/config';

/** Builds the Nest application (not listening): middleware, validation, errors, OpenAPI. */
export async function createApp(config: AppConfig, databaseUrl: string, adminKey: string): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, databaseUrl, adminKey), {
    logger: loggerLevels(config.logLevel),
    bodyParser: false,
  });
  app.disable('x-powered-by');
  // No ETag: answers are built fresh for every request, and hashing a multi-megabyte report costs more than it saves.
  app.set('etag', false);
  app.use(correlationMiddleware);
  app.use(securityHeaders);
  app.use(requireJson);
  app.useBodyParser('json', { limit: config.bodyLimit, strict: true });
  app.useGlobalPipes(validationPipe());
  const document = openApiDocument(app);
  app.use('/docs', swaggerUi.serve, swaggerUi.setup(document, { customSiteTitle: 'Sabot API' }));
  const http = app.getHttpAdapter();
  http.get('/docs-json', (_req: unknown, res: unknown) => http.reply(res, document, 200));
  return app;
}

export function openApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Sabot')
    .setDescription(
      'The back office for casino baccarat tables: tables, shoes, coups and wagers recorded and settled, commission tracked per seat, exact odds. ' +
        'Amounts are integer minor units (e.g. cents). Every error has the body { statusCode, code, message, details?, correlationId }. ' +
        'Every POST accepts an Idempotency-Key header for safe retries.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key' })
    .build();
  return SwaggerModule.createDocument(app, config, { extraModels: [ErrorResponseDto] });
}

function loggerLevels(level: AppConfig['logLevel']): ('error' | 'warn' | 'log' | 'debug' | 'verbose')[] {
  const order = ['error', 'warn', 'log', 'debug', 'verbose'] as const;
  return order.slice(0, order.indexOf(level) + 1) as ('error' | 'warn' | 'log' | 'debug' | 'verbose')[];
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
  new Logger('Bootstrap').warn(`No ADMIN_API_KEY set: generated one in ${file}`);
  return key;
}
