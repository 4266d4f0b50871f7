import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppConfig } from '../config/config';
import { startEmbeddedDatabase } from './embedded';
import { ensureServiceRole, withUser } from './roles';

export interface ResolvedDatabase {
  /** The service's connection: a member of sabot_app, unless it was given no owner. */
  readonly url: string;
  /** The owner's connection: migrations and setting up the service's role. */
  readonly ownerUrl: string;
  readonly embedded: boolean;
  stop(): Promise<void>;
}

/**
 * DATABASE_URL (with DATABASE_OWNER_URL for migrations) when given; otherwise the embedded
 * PostgreSQL under the data folder, where the service gets a login role of its own in sabot_app.
 */
export async function resolveDatabase(config: AppConfig): Promise<ResolvedDatabase> {
  if (config.databaseUrl) {
    if (!config.databaseOwnerUrl) {
      new Logger('Database').warn(
        'No DATABASE_OWNER_URL: the service migrates and runs as one role; give it a sabot_app role of its own (docs/decisions.md, "Least privilege")',
      );
    }
    return { url: config.databaseUrl, ownerUrl: config.databaseOwnerUrl ?? config.databaseUrl, embedded: false, stop: () => Promise.resolve() };
  }
  const db = await startEmbeddedDatabase(config.dataDir, config.embeddedPgPort, 'sabot', { home: config.embeddedHome });
  const file = path.join(config.dataDir, 'service-db-password');
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(24).toString('base64url') + '\n', { mode: 0o600 });
  const url = withUser(db.url, 'sabot_service', fs.readFileSync(file, 'utf8').trim());
  return { url, ownerUrl: db.url, embedded: true, stop: () => db.stop() };
}

/** Migrations as the owner, then the service's role set up: what every start does first. */
export async function prepareDatabase(db: ResolvedDatabase, migrate: (url: string) => Promise<{ applied: string[] }>): Promise<string[]> {
  const { applied } = await migrate(db.ownerUrl);
  if (db.url !== db.ownerUrl) await ensureServiceRole(db.ownerUrl, db.url);
  return applied;
}
