import path from 'node:path';
import { parseAuditKeys } from './keyring';

/** The service's configuration, read from the environment once and validated at boot. */
export interface AppConfig {
  readonly port: number;
  /**
   * METRICS_PORT: where /metrics (Prometheus text) is served, on a port of its own that a deployment
   * keeps inside its network (9464 by default; 0 any free port; off: not served).
   */
  readonly metricsPort: number | null;
  /** METRICS_HOST: the address /metrics listens on (0.0.0.0 in production, where Prometheus is another host; 127.0.0.1 otherwise). */
  readonly metricsHost: string;
  /** SHUTDOWN_GRACE_MS: on SIGTERM, how long requests in flight may take to finish before their connections are closed. */
  readonly shutdownGraceMs: number;
  /** null: start the embedded PostgreSQL under `dataDir`. */
  readonly databaseUrl: string | null;
  /** The owner's connection, for migrations; null: migrate with databaseUrl (the service then runs as the owner). */
  readonly databaseOwnerUrl: string | null;
  /** DATABASE_READ_URL: a streaming replica of DATABASE_URL for reports, exports and the reconciliation; null: they read the primary. */
  readonly databaseReadUrl: string | null;
  /** READ_MAX_LAG_MS: the most a replica may be behind the primary for a read to be answered from it. */
  readonly readMaxLagMs: number;
  /** READ_WHEN_BEHIND: a replica further behind, or not answering: read the primary, or refuse with 503 (REPLICA_BEHIND). */
  readonly readWhenBehind: 'primary' | 'refuse';
  readonly dataDir: string;
  readonly embeddedPgPort: number;
  /**
   * SABOT_EMBEDDED_HOME: where the embedded PostgreSQL runs from when the checkout is closed to the
   * OS user postgres (running as root in a private folder): /var/lib/sabot.
   */
  readonly embeddedHome: string;
  /** Bootstrap key with the ADMIN role; null outside production: one is generated into dataDir. */
  readonly adminApiKey: string | null;
  readonly production: boolean;
  readonly logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  readonly dbPoolSize: number;
  readonly bodyLimit: string;
  /** Requests per minute per API key. */
  readonly rateLimitPerMinute: number;
  /** PostgreSQL statement_timeout for the service's connections. */
  readonly statementTimeoutMs: number;
  /** AUDIT_KEYS as given (id:secret,…), or null. */
  readonly auditKeys: string | null;
  /** AUDIT_KEYS_FILE, or null: then (outside production) `dataDir/audit-keys`, created on first start. */
  readonly auditKeysFile: string | null;
  /** AUDIT_SIGNING_KEY (Ed25519 PKCS#8 DER, base64url), or null. */
  readonly auditSigningKey: string | null;
  /** AUDIT_SIGNING_KEY_FILE (PEM), or null: then (outside production) `dataDir/audit-signing-key.pem`. */
  readonly auditSigningKeyFile: string | null;
  /** Minutes between signed checkpoints; 0: only on demand. */
  readonly checkpointMinutes: number;
  /** NATS_URL (nats://host:port), or null: no events are published; they wait in the audit log. */
  readonly natsUrl: string | null;
  /** EVENTS_STREAM: the JetStream stream the events go to (subjects `<stream, lower case>.>`). */
  readonly eventsStream: string;
  /** EVENTS_POLL_MS: how often the relay looks for new entries when it has found none. */
  readonly eventsPollMs: number;
  /** EVENTS_GATHER_MS: when busy, the least time between the starts of two relay passes (batches). */
  readonly eventsGatherMs: number;
  /** SURVEILLANCE=off stops this instance's surveillance worker (another instance's, or none, does the work). */
  readonly surveillance: boolean;
  /**
   * SURVEILLANCE=only: this process is a surveyor and nothing else (no API): a deployment runs it
   * beside pit instances started with SURVEILLANCE=off (docker-compose.yml).
   */
  readonly surveillanceOnly: boolean;
  /** SURVEILLANCE_POLL_MS: how often the surveillance worker looks for new coups when it has found none. */
  readonly surveillancePollMs: number;
  /** SURVEILLANCE_SHARE: the most of the time the surveillance thread may be at work (it rests between passes). */
  readonly surveillanceShare: number;
  /**
   * SURVEILLANCE_RECORD_DAYS: how many gaming days of a patron's (or a seat's) play the detectors
   * read at each shoe close (a rolling window; 30 by default).
   */
  readonly surveillanceRecordDays: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }
  return n;
}

/** Reads and checks the environment; every problem is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const production = env.NODE_ENV === 'production';
  const port = int(env, 'PORT', 3000, 0, 65535, problems);
  const metricsPort = (env.METRICS_PORT ?? '').trim().toLowerCase() === 'off' ? null : int(env, 'METRICS_PORT', 9464, 0, 65535, problems);
  const shutdownGraceMs = int(env, 'SHUTDOWN_GRACE_MS', 8_000, 0, 600_000, problems);
  const embeddedPgPort = int(env, 'EMBEDDED_PG_PORT', 54329, 1, 65535, problems);
  const dbPoolSize = int(env, 'DB_POOL_SIZE', 10, 1, 200, problems);
  const rateLimitPerMinute = int(env, 'RATE_LIMIT_PER_MINUTE', 6000, 1, 1_000_000, problems);
  const statementTimeoutMs = int(env, 'DB_STATEMENT_TIMEOUT_MS', 10_000, 1, 600_000, problems);

  let databaseUrl: string | null = env.DATABASE_URL?.trim() || null;
  if (databaseUrl !== null) {
    try {
      const u = new URL(databaseUrl);
      if (!['postgres:', 'postgresql:'].includes(u.protocol)) problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
    } catch {
      problems.push('DATABASE_URL is not a valid URL (expected postgres://user:password@host:5432/database)');
      databaseUrl = null;
    }
  } else if (production) {
    problems.push('DATABASE_URL is required when NODE_ENV=production (the embedded database is for development)');
  }

  /** A second database URL beside DATABASE_URL: a postgres:// URL, and only with DATABASE_URL. */
  const besideDatabaseUrl = (name: string, example: string, needs: string): string | null => {
    const raw = env[name]?.trim() || null;
    if (raw === null) return null;
    try {
      if (!['postgres:', 'postgresql:'].includes(new URL(raw).protocol)) problems.push(`${name} must be a postgres:// or postgresql:// URL`);
    } catch {
      problems.push(`${name} is not a valid URL (expected ${example})`);
    }
    if (databaseUrl === null) problems.push(`${name} needs DATABASE_URL (${needs})`);
    return raw;
  };
  const databaseOwnerUrl = besideDatabaseUrl('DATABASE_OWNER_URL', 'postgres://owner:password@host:5432/database', 'the service role the owner sets up');
  const databaseReadUrl = besideDatabaseUrl('DATABASE_READ_URL', 'postgres://user:password@replica:5432/database', 'the primary the replica follows');
  const readMaxLagMs = int(env, 'READ_MAX_LAG_MS', 5_000, 0, 86_400_000, problems);
  const readWhenBehind = (env.READ_WHEN_BEHIND?.trim().toLowerCase() || 'primary') as AppConfig['readWhenBehind'];
  if (!['primary', 'refuse'].includes(readWhenBehind)) problems.push(`READ_WHEN_BEHIND must be primary or refuse, got "${env.READ_WHEN_BEHIND}"`);

  const adminApiKey = env.ADMIN_API_KEY?.trim() || null;
  if (adminApiKey !== null && adminApiKey.length < 32) problems.push('ADMIN_API_KEY must be at least 32 characters');
  if (adminApiKey === null && production) problems.push('ADMIN_API_KEY is required when NODE_ENV=production');

  const logLevel = (env.LOG_LEVEL ?? 'log') as AppConfig['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);

  const auditKeys = env.AUDIT_KEYS?.trim() || null;
  if (auditKeys !== null) {
    try {
      parseAuditKeys(auditKeys);
    } catch (e) {
      problems.push(`AUDIT_KEYS: ${(e as Error).message}`);
    }
  }
  const auditKeysFile = env.AUDIT_KEYS_FILE?.trim() || null;
  if (auditKeys === null && auditKeysFile === null && production)
    problems.push('AUDIT_KEYS or AUDIT_KEYS_FILE is required when NODE_ENV=production (the audit log is keyed by a secret kept outside the database)');

  const auditSigningKey = env.AUDIT_SIGNING_KEY?.trim() || null;
  const auditSigningKeyFile = env.AUDIT_SIGNING_KEY_FILE?.trim() || null;
  if (auditSigningKey === null && auditSigningKeyFile === null && production)
    problems.push(
      'AUDIT_SIGNING_KEY or AUDIT_SIGNING_KEY_FILE is required when NODE_ENV=production (checkpoints are signed with a key kept outside the database)',
    );
  const checkpointMinutes = int(env, 'AUDIT_CHECKPOINT_MINUTES', 15, 0, 1440, problems);

  const natsUrl = env.NATS_URL?.trim() || null;
  if (natsUrl !== null && !/^(nats|tls):\/\/[^\s]+$/.test(natsUrl)) problems.push(`NATS_URL must be a nats:// or tls:// URL, got "${natsUrl}"`);
  const eventsStream = env.EVENTS_STREAM?.trim() || 'SABOT';
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(eventsStream)) problems.push(`EVENTS_STREAM must be 1 to 32 letters, digits, - or _, got "${eventsStream}"`);
  const eventsPollMs = int(env, 'EVENTS_POLL_MS', 10, 5, 60_000, problems);
  const eventsGatherMs = int(env, 'EVENTS_GATHER_MS', 10, 0, 1_000, problems);
  const surveillanceSetting = (env.SURVEILLANCE ?? 'on').trim().toLowerCase();
  if (!['on', 'off', 'only'].includes(surveillanceSetting)) problems.push(`SURVEILLANCE must be on, off or only, got "${env.SURVEILLANCE}"`);
  const surveillancePollMs = int(env, 'SURVEILLANCE_POLL_MS', 250, 10, 60_000, problems);
  const surveillanceShare = Number(env.SURVEILLANCE_SHARE ?? '0.1');
  const surveillanceRecordDays = int(env, 'SURVEILLANCE_RECORD_DAYS', 30, 1, 3_650, problems);
  if (!(surveillanceShare > 0 && surveillanceShare <= 1))
    problems.push(`SURVEILLANCE_SHARE must be a number above 0 and at most 1, got "${env.SURVEILLANCE_SHARE}"`);

  const bodyLimit = env.BODY_LIMIT ?? '100kb';
  if (!/^\d+(kb|mb)$/i.test(bodyLimit)) problems.push(`BODY_LIMIT must look like 100kb or 1mb, got "${bodyLimit}"`);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    metricsPort,
    metricsHost: env.METRICS_HOST?.trim() || (production ? '0.0.0.0' : '127.0.0.1'),
    shutdownGraceMs,
    databaseUrl,
    databaseOwnerUrl,
    databaseReadUrl,
    readMaxLagMs,
    readWhenBehind,
    dataDir: path.resolve(env.SABOT_DATA_DIR ?? path.join(process.cwd(), 'data')),
    embeddedPgPort,
    embeddedHome: path.resolve(env.SABOT_EMBEDDED_HOME ?? '/var/lib/sabot'),
    adminApiKey,
    production,
    logLevel,
    dbPoolSize,
    bodyLimit,
    rateLimitPerMinute,
    statementTimeoutMs,
    auditKeys,
    auditKeysFile: auditKeysFile === null ? null : path.resolve(auditKeysFile),
    auditSigningKey,
    auditSigningKeyFile: auditSigningKeyFile === null ? null : path.resolve(auditSigningKeyFile),
    checkpointMinutes,
    natsUrl,
    eventsStream,
    eventsPollMs,
    eventsGatherMs,
    surveillance: surveillanceSetting !== 'off',
    surveillanceOnly: surveillanceSetting === 'only',
    surveillancePollMs,
    surveillanceShare,
    surveillanceRecordDays,
  };
}
