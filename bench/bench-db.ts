import { Client } from 'pg';
import { migrate } from '../src/database/migrate';

/** `fn` on a connection of its own to `url`, closed after. */
export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * A fresh, migrated database for a benchmark run: on BENCH_DATABASE_URL's server (default: the
 * machine's PostgreSQL at 127.0.0.1:5432, database "test"), named sabot_bench_<name>.
 */
export async function benchDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const db = `sabot_bench_${name}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${db}"`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${db}`;
  await migrate(u.toString());
  return {
    url: u.toString(),
    drop: async () => {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
      await c.end();
    },
  };
}
