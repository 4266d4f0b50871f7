import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listMigrations } from '../../src/platform/database/migrate';

/**
 * A migration, once released, is never edited, not even a comment: every database that applied it
 * keeps its SHA-256 in _prisma_migrations, and the service refuses to start on one whose file no
 * longer matches (src/platform/database/migrate.ts). released-migrations.sha256 beside this spec
 * pins each migration's checksum as released; a new migration is added to it in the commit that
 * adds the migration (`sha256sum prisma/migrations/<name>/migration.sql`), and never changed after.
 */
const PINNED = fs
  .readFileSync(path.join(__dirname, 'released-migrations.sha256'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => {
    const [checksum, name] = line.split(/\s+/);
    return { name, checksum };
  });

it('every released migration is byte for byte as released, and every migration is pinned', () => {
  expect(PINNED.length).toBeGreaterThan(40);
  expect(listMigrations().map(({ name, checksum }) => ({ name, checksum }))).toEqual(PINNED);
});

it('a comment changed in a released migration breaks the pin, as it would break every database that applied it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-migrations-'));
  try {
    fs.cpSync(path.join(__dirname, '..', '..', 'prisma', 'migrations'), dir, { recursive: true });
    const file = path.join(dir, PINNED[0].name, 'migration.sql');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('--', '-- a path renamed in a comment;'));
    const copy = listMigrations(dir);
    expect(copy.map((m) => m.name)).toEqual(PINNED.map((m) => m.name));
    expect(copy[0].checksum).not.toBe(PINNED[0].checksum);
    expect(copy.slice(1).map((m) => m.checksum)).toEqual(PINNED.slice(1).map((m) => m.checksum));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
