import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedDatabase } from '../../src/platform/database/embedded';
import { migrate } from '../../src/platform/database/migrate';
import { ensureServiceRole } from '../../src/platform/database/roles';
import { adminQuery, assertTestDatabase, DEFAULT_TEST_URL, serviceUrl, withDatabase } from './database';

/**
 * Once per run: find a PostgreSQL (TEST_DATABASE_URL, else the machine's 15 at 127.0.0.1:5432
 * database "test", else an embedded one under data/test-postgres), build the migrated template.
 */
async function reachable(url: string): Promise<boolean> {
  const c = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

export default async function globalSetup(): Promise<void> {
  let adminUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_URL;
  if (!(await reachable(adminUrl))) {
    if (process.env.TEST_DATABASE_URL) throw new Error(`TEST_DATABASE_URL ${adminUrl} does not answer`);
    const db = await startEmbeddedDatabase(path.join(process.cwd(), 'data', 'test-postgres'), 54331, 'test');
    (globalThis as { __sabotEmbedded?: { stop(): Promise<void> } }).__sabotEmbedded = db;
    adminUrl = db.url;
  }
  assertTestDatabase(adminUrl);
  const TEMPLATE = `sabot_test_template_${randomBytes(4).toString('hex')}`;
  process.env.SABOT_TEST_TEMPLATE = TEMPLATE;
  await adminQuery(adminUrl, async (c) => {
    await c.query(`CREATE DATABASE "${TEMPLATE}"`);
  });
  await migrate(withDatabase(adminUrl, TEMPLATE));
  // The service under test runs as a sabot_app member, as in production (roles span the cluster).
  await ensureServiceRole(withDatabase(adminUrl, TEMPLATE), serviceUrl(withDatabase(adminUrl, TEMPLATE)));
  process.env.SABOT_TEST_ADMIN_URL = adminUrl;
}
