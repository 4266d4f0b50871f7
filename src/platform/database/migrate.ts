import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { inCheckout } from '../config/checkout';
import { Client } from 'pg';

/**
 * Applies prisma/migrations/<name>/migration.sql in name order, recording each in
 * `_prisma_migrations` exactly as `prisma migrate deploy` does (checksum = SHA-256 of the file),
 * so either tool can take over from the other. Prisma's CLI cannot run migrations on machines
 * without its native schema engine; this runner needs only `pg`.
 * Idempotent; an advisory lock keeps concurrent starts from racing.
 */
/** prisma/migrations of this checkout, found from src/ (tests) or dist/src/ (built) alike. */
export const MIGRATIONS_DIR = inCheckout(__dirname, path.join('prisma', 'migrations'));

const LOCK_ID = 72_707_369; // same key as Prisma's migrate advisory lock

const CREATE_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

export function listMigrations(dir = MIGRATIONS_DIR): { name: string; sql: string; checksum: string }[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export async function migrate(databaseUrl: string, dir = MIGRATIONS_DIR): Promise<MigrationResult> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const result: MigrationResult = { applied: [], alreadyApplied: [] };
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
    await client.query(CREATE_TABLE);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const applied = new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
    for (const m of listMigrations(dir)) {
      const previous = applied.get(m.name);
      if (previous !== undefined) {
        if (previous !== m.checksum) {
          throw new Error(`Migration ${m.name} was changed after it was applied (checksum differs): add a new migration instead`);
        }
        result.alreadyApplied.push(m.name);
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count, started_at)
           VALUES ($1, $2, now(), $3, 1, now())`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${m.name} failed: ${(e as Error).message}`);
      }
      result.applied.push(m.name);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]).catch(() => undefined);
    await client.end();
  }
  return result;
}
