import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listMigrations, migrate } from '../../src/platform/database/migrate';

/**
 * Databases as earlier releases left them: migrated only through a given migration, as a release
 * of that day shipped its migrations, so that a test can write rows in that schema and then take
 * the database (or a group of them) through the upgrade.
 */
const MIGRATIONS = path.join(__dirname, '../../prisma/migrations');

export async function migrateThrough(url: string, last: string): Promise<void> {
  const names = listMigrations(MIGRATIONS).map((m) => m.name);
  if (!names.includes(last)) throw new Error(`No migration ${last}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-migrations-'));
  try {
    for (const m of listMigrations(MIGRATIONS).filter((m) => m.name <= last)) {
      fs.mkdirSync(path.join(dir, m.name));
      fs.writeFileSync(path.join(dir, m.name, 'migration.sql'), m.sql);
    }
    await migrate(url, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
