/** npm run db:migrate — applies pending migrations to DATABASE_URL (or the embedded database). */
import { loadConfig } from '../platform/config/config';
import { prepareDatabase, resolveDatabase } from '../platform/database/resolve-database';
import { migrate } from '../platform/database/migrate';

async function main() {
  const config = loadConfig();
  const db = await resolveDatabase(config);
  try {
    const applied = await prepareDatabase(db, migrate);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Nothing to apply: the database is up to date');
  } finally {
    await db.stop();
  }
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
