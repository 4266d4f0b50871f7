import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { withUser } from '../../src/platform/database/roles';

/**
 * Test databases: a template migrated once by the global setup, cloned per test file with
 * CREATE DATABASE … TEMPLATE. Only databases whose name contains "test" are ever created,
 * migrated or dropped.
 */
export const DEFAULT_TEST_URL = 'postgres://postgres@127.0.0.1:5432/test';
/**
 * The migrated template of this run: each jest run builds its own (global setup names it), so two
 * runs on one server (a developer's and a helper's) never drop each other's template.
 */
export const templateName = () => process.env.SABOT_TEST_TEMPLATE ?? 'sabot_test_template';

export function assertTestDatabase(url: string): void {
  const name = new URL(url).pathname.slice(1);
  if (!/test/i.test(name)) throw new Error(`Refusing to use database "${name}" for tests: its name must contain "test"`);
}

/** The login role the service under test runs as: a member of sabot_app, like production's. */
export const TEST_SERVICE_USER = 'sabot_test_service';
export const serviceUrl = (url: string) => withUser(url, TEST_SERVICE_USER, 'sabot-test-service');

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery<T>(adminUrl: string, fn: (c: Client) => Promise<T>): Promise<T> {
  assertTestDatabase(adminUrl);
  return withClient(adminUrl, fn);
}

/** One connection for `fn`, closed after it. */
export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh database cloned from the migrated template. */
export async function cloneTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.SABOT_TEST_ADMIN_URL;
  if (!adminUrl) throw new Error('SABOT_TEST_ADMIN_URL is not set: run the tests through jest (globalSetup)');
  const name = `sabot_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName()}"`));
  const url = withDatabase(adminUrl, name);
  assertTestDatabase(url);
  return {
    url,
    drop: () => adminQuery(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
