import { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { PrismaService } from '../../src/database/prisma.service';
import { cloneTestDatabase } from './database';

export const ADMIN_KEY = 'test-admin-key-0123456789abcdef0123456789';

export interface TestContext {
  app: INestApplication;
  prisma: PrismaService;
  databaseUrl: string;
  /** A supertest agent sending this API key. */
  as(key: string): Agent;
  admin: Agent;
  close(): Promise<void>;
}

type Method = 'get' | 'post';
export interface Agent {
  get(path: string): request.Test;
  post(path: string, body?: unknown): request.Test;
}

/** The real application on its own database, cloned from the migrated template. */
export async function startTestApp(env: NodeJS.ProcessEnv = {}): Promise<TestContext> {
  const db = await cloneTestDatabase();
  const config = loadConfig({ DATABASE_URL: db.url, ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'error', DB_POOL_SIZE: '5', ...env });
  const app = await createApp(config, db.url, ADMIN_KEY);
  await app.init();
  const server = app.getHttpServer() as App;
  const as = (key: string): Agent => {
    const call = (method: Method, path: string, body?: unknown) => {
      const r = request(server)[method](path).set('Authorization', `Bearer ${key}`);
      return body === undefined ? r : r.send(body as object);
    };
    return { get: (p) => call('get', p), post: (p, b) => call('post', p, b) };
  };
  return {
    app,
    prisma: app.get(PrismaService),
    databaseUrl: db.url,
    as,
    admin: as(ADMIN_KEY),
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

/** Row counts of every table: compare before and after a rejected request. */
export async function rowCounts(prisma: PrismaService): Promise<Record<string, number>> {
  const rows = await prisma.$queryRaw<{ t: string; n: bigint }[]>`
    SELECT 'properties' AS t, count(*) AS n FROM properties UNION ALL
    SELECT 'casino_tables', count(*) FROM casino_tables UNION ALL
    SELECT 'shoes', count(*) FROM shoes UNION ALL
    SELECT 'coups', count(*) FROM coups UNION ALL
    SELECT 'coup_voids', count(*) FROM coup_voids UNION ALL
    SELECT 'wagers', count(*) FROM wagers UNION ALL
    SELECT 'commission_entries', count(*) FROM commission_entries UNION ALL
    SELECT 'api_keys', count(*) FROM api_keys UNION ALL
    SELECT 'idempotency_records', count(*) FROM idempotency_records UNION ALL
    SELECT 'audit_log', count(*) FROM audit_log UNION ALL
    SELECT 'void_requests', count(*) FROM void_requests UNION ALL
    SELECT 'wager_rollups', count(*) FROM wager_rollups UNION ALL
    SELECT 'table_day_rollups', count(*) FROM table_day_rollups UNION ALL
    SELECT 'table_sessions', count(*) FROM table_sessions UNION ALL
    SELECT 'table_slips', count(*) FROM table_slips UNION ALL
    SELECT 'banks', count(*) FROM banks UNION ALL
    SELECT 'bank_coups', count(*) FROM bank_coups`;
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
}

/** Everything mutable about shoes (composition, counters) as one comparable value. */
export async function shoeState(prisma: PrismaService): Promise<string> {
  const shoes = await prisma.shoe.findMany({ orderBy: { id: 'asc' } });
  const wagers = await prisma.wager.findMany({ orderBy: { id: 'asc' }, select: { id: true, status: true, coupId: true } });
  return JSON.stringify({ shoes, wagers }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

/**
 * Every row of every table of the schema, as one digest per table (its rows as text, sorted):
 * equal before and after a refused request means nothing anywhere was written or changed.
 */
export async function databaseSnapshot(prisma: PrismaService): Promise<Record<string, string>> {
  const tables = await prisma.$queryRaw<{ name: string }[]>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`;
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await prisma.$queryRawUnsafe<{ rows: bigint; digest: string }[]>(
      `SELECT count(*) AS rows, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS digest FROM "${name}" t`,
    );
    out[name] = `${row.rows} rows, ${row.digest}`;
  }
  return out;
}
