import { createHash } from 'node:crypto';
import request from 'supertest';
import type { App } from 'supertest/types';
import { Client } from 'pg';
import { createApp } from '../../src/server/app';
import { loadConfig } from '../../src/platform/config/config';
import { listMigrations, migrate } from '../../src/platform/database/migrate';
import { ADMIN_KEY, startTestApp, TestContext } from '../support/app';
import { cloneTestDatabase } from '../support/database';

let ctx: TestContext;
beforeAll(async () => (ctx = await startTestApp()));
afterAll(() => ctx.close());

describe('OpenAPI document and Swagger UI', () => {
  it('documents every route with an operationId, a summary, its schemas and its error responses', async () => {
    const doc = (await request(ctx.app.getHttpServer() as App).get('/docs-json')).body;
    expect(doc.openapi).toMatch(/^3\./);
    const operations = Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        path,
        method,
        op: op as { operationId?: string; summary?: string; responses: Record<string, { content?: unknown }>; security?: unknown; requestBody?: unknown },
      })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(20);
    const ids = new Set<string>();
    for (const { path, method, op } of operations) {
      expect({ path, method, operationId: op.operationId && op.operationId.length > 0 }).toEqual({ path, method, operationId: true });
      expect(op.summary?.length).toBeGreaterThan(5);
      ids.add(op.operationId!);
      const codes = Object.keys(op.responses);
      expect(codes).toContain('400');
      if (!path.startsWith('/health')) expect(codes).toEqual(expect.arrayContaining(['401', '403']));
      const error = op.responses['400'].content as Record<string, { schema: { $ref: string } }>;
      expect(error['application/json'].schema.$ref).toBe('#/components/schemas/ErrorResponse');
      if (
        method === 'post' &&
        !path.endsWith('/close') &&
        !path.endsWith('/reopen') &&
        !path.endsWith('/revoke') &&
        !path.endsWith('/withdraw') &&
        !path.endsWith('/end') &&
        path !== '/v1/audit/checkpoints' &&
        path !== '/v1/api-keys/claim' &&
        !path.endsWith('/witness')
      ) {
        expect({ path, hasBody: op.requestBody !== undefined }).toEqual({ path, hasBody: true });
      }
    }
    expect(ids.size).toBe(operations.length);
    expect(doc.components.schemas.RecordCoupDto.properties.wagers).toBeDefined();
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await request(ctx.app.getHttpServer() as App).get('/docs/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger-ui');
  });

  it('echoes a sane correlation id and replaces an unsafe one', async () => {
    const server = ctx.app.getHttpServer() as App;
    expect((await request(server).get('/health').set('X-Correlation-Id', 'pit3-term7-000123')).headers['x-correlation-id']).toBe('pit3-term7-000123');
    expect((await request(server).get('/health').set('X-Correlation-Id', 'bad id <script>')).headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('health and an unreachable database', () => {
  it('200 when the database answers', async () => {
    const res = await request(ctx.app.getHttpServer() as App).get('/health');
    expect(res.status).toBe(200);
    expect(res.body.info.database.status).toBe('up');
  });

  it('503 with Retry-After, never 500, when it does not', async () => {
    const url = 'postgres://postgres@127.0.0.1:1/sabot_test_nowhere';
    const app = await createApp(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'error' }), url, ADMIN_KEY);
    await app.init();
    try {
      const server = app.getHttpServer() as App;
      const health = await request(server).get('/health');
      expect(health.status).toBe(503);
      expect(health.body.code).toBe('SERVICE_UNAVAILABLE');
      const read = await request(server).get('/v1/properties').set('Authorization', `Bearer ${ADMIN_KEY}`);
      expect(read.status).toBe(503);
      expect(read.body.code).toBe('SERVICE_UNAVAILABLE');
      expect(read.headers['retry-after']).toBe('2');
    } finally {
      await app.close();
    }
  });
});

describe('migrations', () => {
  it('apply once, record Prisma-compatible checksums, and re-run as a no-op', async () => {
    const db = await cloneTestDatabase(); // already migrated from the template
    try {
      const again = await migrate(db.url);
      expect(again.applied).toEqual([]);
      expect(again.alreadyApplied).toEqual(listMigrations().map((m) => m.name));
      const c = new Client({ connectionString: db.url });
      await c.connect();
      const rows = (await c.query('SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name')).rows;
      await c.end();
      expect(rows).toEqual(listMigrations().map((m) => ({ migration_name: m.name, checksum: createHash('sha256').update(m.sql).digest('hex') })));
    } finally {
      await db.drop();
    }
  });

  it('the SQL matches schema.prisma: every model can be written and read through Prisma', async () => {
    const p = ctx.prisma;
    const property = await p.property.create({ data: { name: 'Schema check', timeZone: 'Asia/Macau', gamingDayStartHour: 6 } });
    const table = await p.casinoTable.create({
      data: {
        propertyId: property.id,
        code: 'S-1',
        variant: 'EZ',
        currency: 'MOP',
        minBet: 1n,
        maxBet: 2n,
        decks: 8,
        commissionBps: 0,
        tieBetsStay: true,
        sideBets: ['DRAGON_7'],
        pays: { TIE: '9 to 1' },
        betLimits: { TIE: { min: 1, max: 2 } },
        roundingMode: 'FLOOR',
        roundingUnit: 1,
      },
    });
    const shoe = await p.shoe.create({
      data: { tableId: table.id, propertyId: table.propertyId, number: 1, decks: 8, burnCards: ['AS'], remaining: new Array(52).fill(8) },
    });
    const coup = await p.coup.create({
      data: {
        shoeId: shoe.id,
        tableId: table.id,
        propertyId: table.propertyId,
        number: 1,
        status: 'SETTLED',
        playerCards: ['9S', 'KD'],
        bankerCards: ['8H', 'KC'],
        winner: 'PLAYER',
        playerTotal: 9,
        bankerTotal: 8,
        cardCount: 4,
        natural: true,
        settledAt: new Date(),
        gamingDay: new Date('2026-11-21'),
      },
    });
    const wager = await p.wager.create({
      data: {
        coupId: coup.id,
        shoeId: shoe.id,
        propertyId: table.propertyId,
        seat: 1,
        betType: 'DRAGON_7',
        amount: 9_007_199_254_740_993n,
        status: 'SETTLED',
        result: 'LOSE',
        payout: 0n,
        commission: 0n,
        net: -9_007_199_254_740_993n,
        settledAt: new Date(),
        gamingDay: new Date('2026-11-21'),
      },
    });
    await p.coupVoid.create({ data: { coupId: coup.id, propertyId: table.propertyId, reason: 'schema', voidedByKeyId: 'k', voidedByRole: 'SUPERVISOR' } });
    await p.commissionEntry.create({
      data: {
        shoeId: shoe.id,
        tableId: table.id,
        propertyId: table.propertyId,
        seat: 1,
        kind: 'ACCRUAL',
        amount: 5n,
        coupId: coup.id,
        wagerId: wager.id,
        createdByKeyId: 'k',
      },
    });
    await p.apiKey.create({ data: { name: 'k', role: 'AUDITOR', keyHash: 'h'.repeat(64), keyPrefix: 'sab_' } });
    const target = await p.paceTarget.create({ data: { propertyId: property.id, variant: 'EZ', decisionsPerHour: 80, enteredByKeyId: 'k' } });
    expect((await p.property.findUniqueOrThrow({ where: { id: property.id }, include: { paceTargets: true } })).paceTargets).toEqual([target]);
    await p.idempotencyRecord.create({ data: { scope: 's', key: 'k', requestHash: 'x', statusCode: 201, responseBody: '{"ok":true}' } });
    const read = await p.coup.findUniqueOrThrow({
      where: { id: coup.id },
      include: { wagers: true, void: true, shoe: { include: { table: { include: { property: true } } } } },
    });
    expect(read.wagers[0].amount).toBe(9_007_199_254_740_993n);
    expect(read.void?.reason).toBe('schema');
    expect(read.shoe.table.property.timeZone).toBe('Asia/Macau');
    expect(read.gamingDay?.toISOString()).toBe('2026-11-21T00:00:00.000Z');
    // The database refuses what the service must never write.
    await expect(
      p.commissionEntry.create({
        data: { shoeId: shoe.id, tableId: table.id, propertyId: table.propertyId, seat: 1, kind: 'COLLECTION', amount: 5n, createdByKeyId: 'k' },
      }),
    ).rejects.toThrow();
    await expect(p.shoe.create({ data: { tableId: table.id, propertyId: table.propertyId, number: 2, decks: 8, remaining: [] } })).rejects.toThrow(); // a second open shoe
    await expect(p.paceTarget.create({ data: { propertyId: property.id, variant: 'EZ', decisionsPerHour: 0, enteredByKeyId: 'k' } })).rejects.toThrow();
    await expect(p.paceTarget.update({ where: { id: target.id }, data: { decisionsPerHour: 81 } })).rejects.toThrow(); // never changed
    await expect(
      p.wager.create({ data: { shoeId: shoe.id, propertyId: table.propertyId, seat: 1, betType: 'TIE', amount: 0n, status: 'OPEN' } }),
    ).rejects.toThrow();
  });
});
