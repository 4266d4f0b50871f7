import { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createApp } from '../../src/server/app';
import { loadConfig } from '../../src/platform/config/config';
import { PrismaService } from '../../src/platform/database/prisma.service';
import { cloneTestDatabase, serviceUrl } from './database';

export const ADMIN_KEY = 'test-admin-key-0123456789abcdef0123456789';
/** The audit key of every test app (a key kept outside the database, as in production). */
export const AUDIT_KEYS = 'test-2026:dGVzdC1hdWRpdC1rZXktMDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODk';
/** The checkpoint signing key of every test app (Ed25519, PKCS#8 DER, base64url). */
export const AUDIT_SIGNING_KEY = 'MC4CAQAwBQYDK2VwBCIEIKFGlqHesTRg74Y14yBx5LbLmBwexlBXv5Zg7sVPW2pk';

export interface TestContext {
  app: INestApplication;
  /** The database's owner (not the service's role): for inspecting, and for attacks. */
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
  const app = await createTestApp(db.url, env);
  const owner = new PrismaService(db.url, 3);
  await app.init();
  const { as, admin } = agentsOf(app);
  return {
    app,
    prisma: owner,
    databaseUrl: db.url,
    as,
    admin,
    close: async () => {
      await app.close();
      await owner.pool.end();
      await db.drop();
    },
  };
}

/** Supertest agents of an app: one per API key, and the bootstrap administrator's. */
export function agentsOf(app: INestApplication): Pick<TestContext, 'as' | 'admin'> {
  const server = app.getHttpServer() as App;
  const as = (key: string): Agent => {
    const call = (method: Method, path: string, body?: unknown) => {
      const r = request(server)[method](path).set('Authorization', `Bearer ${key}`);
      return body === undefined ? r : r.send(body as object);
    };
    return { get: (p) => call('get', p), post: (p, b) => call('post', p, b) };
  };
  return { as, admin: as(ADMIN_KEY) };
}

/**
 * The application on databases of the test's own making (env names DATABASE_URL and the rest), with
 * the tests' keys, initialised, with its agents.
 */
export async function appOn(env: NodeJS.ProcessEnv): Promise<{ app: INestApplication } & Pick<TestContext, 'as' | 'admin'>> {
  const app = await createTestApp(env.DATABASE_URL!, env);
  await app.init();
  return { app, ...agentsOf(app) };
}

/** The application on a test database (not yet listening), as a sabot_app member, with the tests' keys. */
async function createTestApp(databaseUrl: string, env: NodeJS.ProcessEnv): Promise<INestApplication> {
  // The service connects as a sabot_app member; the tests inspect (and attack) as the owner.
  const config = loadConfig({
    DATABASE_URL: serviceUrl(databaseUrl),
    ADMIN_API_KEY: ADMIN_KEY,
    AUDIT_KEYS,
    AUDIT_SIGNING_KEY,
    AUDIT_CHECKPOINT_MINUTES: '0',
    LOG_LEVEL: 'error',
    DB_POOL_SIZE: '5',
    // The surveillance worker writes in the background as it follows the log; the specs that check
    // "a refused request changes nothing" compare whole databases, so it runs only where a spec asks
    // for it (test/e2e/integrity/surveillance.spec.ts). The service's default is on.
    SURVEILLANCE: 'off',
    ...env,
  });
  return createApp(config, config.databaseUrl!, ADMIN_KEY);
}

/** Another instance of the service on a test app's database, listening on a free port of 127.0.0.1. */
export async function anotherInstance(ctx: TestContext, env: NodeJS.ProcessEnv = {}): Promise<{ url: string; close(): Promise<void> }> {
  const app = await createTestApp(ctx.databaseUrl, env);
  await app.init();
  return { url: await listening(app), close: () => app.close() };
}

/** Makes an app listen on a free port of 127.0.0.1 (if it does not yet) and says where. */
export async function listening(app: INestApplication): Promise<string> {
  const server = app.getHttpServer() as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
