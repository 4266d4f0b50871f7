import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger, LoggerModule, Params, PinoLogger } from 'nestjs-pino';
import type { DynamicModule, LoggerService } from '@nestjs/common';
import type { Level } from 'pino';
import type { Actor } from './actor';
import type { AppConfig } from '../config/config';
import { correlationIdOf } from './correlation';

/** LOG_LEVEL keeps Nest's names (what operators already set); pino's names for the same levels. */
const PINO_LEVEL: Record<AppConfig['logLevel'], Level> = { error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' };

type LoggedRequest = IncomingMessage & { actor?: Actor };

/**
 * Structured logs: one JSON object a line (pino), every line of a request carrying its correlation
 * id (`correlationId`, the X-Correlation-Id the client sees) and, once the key is checked, the caller
 * (`actor`, `role`). Each request ends with one line: method, path, status, time taken; at `info`
 * when it succeeded, `warn` when it was refused (4xx) or the database was unavailable (503), `error`
 * for a fault of ours (500).
 * Nothing of a request's headers or body is written: an API key never reaches the log.
 */
export function loggingParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: PINO_LEVEL[config.logLevel],
      genReqId: (req) => correlationIdOf(req),
      // Lines logged during a request carry only its id; its last line also says what it was.
      quietReqLogger: true,
      customAttributeKeys: { reqId: 'correlationId' },
      customProps: (req: LoggedRequest) => (req.actor ? { actor: req.actor.keyId, role: req.actor.role } : {}),
      customLogLevel: (_req, res, err) => (err || res.statusCode === 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      // A fault's stack is logged once, by the error filter; the request's line says only how it ended.
      customErrorObject: (_req, _res, _err, line: Record<string, unknown>) => ({ ...line, err: undefined }),
      // pino-http hands these its summary of the request; only the method and URL are kept.
      serializers: {
        req: (req: { method?: string; url?: string }) => ({ method: req.method, url: req.url }),
        res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
      },
    },
    // Later lines of a request (a warning, a fault) carry the caller too: see ApiKeyGuard.
    assignResponse: true,
  };
}

export function loggingModule(config: AppConfig): DynamicModule {
  return LoggerModule.forRoot(loggingParams(config));
}

/** The same logger for what the service says before its application exists (database, migrations). */
export function startupLogger(config: AppConfig): LoggerService {
  const params = loggingParams(config);
  return new Logger(new PinoLogger(params), params);
}
