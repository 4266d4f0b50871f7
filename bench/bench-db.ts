import { Client } from 'pg';
import { migrate } from '../src/platform/database/migrate';
import { seedQuarter } from './seed-quarter';

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

/**
 * A quarter of rated play kept between runs (seeding 10 M wagers takes minutes): the database
 * sabot_bench_<name>_<size> on BENCH_DATABASE_URL's server, seeded by seed-quarter (200 tables, 2026
 * Q3, `patrons` patrons and the whales) unless it already holds that many patrons, then migrated.
 */
export async function keptRatedQuarter(name: string, size: number, patrons: number): Promise<string> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const db = `sabot_bench_${name}_${size >= 1e6 ? `${size / 1e6}m` : size}`;
  const u = new URL(adminUrl);
  u.pathname = `/${db}`;
  const url = u.toString();
  await withClient(adminUrl, async (admin) => {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db])).rowCount === 1;
    const rated = exists
      ? await withClient(url, async (c) =>
          Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM patrons').catch(() => ({ rows: [{ n: '0' }] }))).rows[0].n),
        )
      : 0;
    if (rated >= patrons) return;
    await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${db}"`);
    console.log(`Seeding ${db} with ${size} wagers and ${patrons} patrons…`);
    const r = await seedQuarter(url, { wagers: size, tables: 200, year: 2026, quarter: 3, maxMinutes: 40, progress: process.stdout.isTTY, patrons });
    console.log(`  ${r.wagers} wagers, ${r.coups} coups in ${r.seconds.toFixed(0)} s`);
  });
  await migrate(url);
  return url;
}
