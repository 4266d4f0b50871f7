import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_KEY, startTestApp, TestContext } from '../../support/app';
import { givenAdministrators, givenKey, givenStaff, givenTable } from '../../support/builders';

/**
 * GET /v1/api-keys/me: the screens ask who is signed in, and build their navigation from its role
 * and the operations' x-roles in the OpenAPI document.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

describe('the calling key', () => {
  it('names its role, its table (a terminal, a display) or its person, and never the key', async () => {
    const table = await givenTable(ctx, { code: 'ME-01' });
    const terminal = await givenKey(ctx, 'TERMINAL', table.id);
    const finance = await givenKey(ctx, 'FINANCE');
    const t = (await ctx.as(terminal).get('/v1/api-keys/me').expect(200)).body as Record<string, unknown>;
    expect(t).toMatchObject({ role: 'TERMINAL', tableId: table.id, staffId: null });
    // A table-side display's key reads who it is too (its screen learns its table from it).
    const display = await givenKey(ctx, 'DISPLAY', table.id);
    const d = (await ctx.as(display).get('/v1/api-keys/me').expect(200)).body as Record<string, unknown>;
    expect(d).toMatchObject({ role: 'DISPLAY', tableId: table.id, staffId: null });
    const f = (await ctx.as(finance).get('/v1/api-keys/me').expect(200)).body as Record<string, unknown>;
    expect(f).toMatchObject({ role: 'FINANCE', tableId: null });
    expect(f.staffId).toEqual(expect.any(String));
    expect(Object.keys(f).sort()).toEqual(['claimWitnessedAt', 'claimedAt', 'expiresAt', 'keyId', 'name', 'role', 'staffId', 'tableId']);
    // A person's key as the register issues it: claimed by its holder, the claim witnessed.
    expect(f).toMatchObject({ claimedAt: expect.any(String), claimWitnessedAt: expect.any(String) });
    expect(t).toMatchObject({ claimedAt: null, claimWitnessedAt: null });
    expect(JSON.stringify(f)).not.toContain(finance);
    const admin = (await ctx.as(ADMIN_KEY).get('/v1/api-keys/me').expect(200)).body as Record<string, unknown>;
    expect(admin).toMatchObject({ keyId: 'bootstrap-admin', role: 'ADMIN', tableId: null });
  });

  it('a revoked key, or none, is UNAUTHENTICATED', async () => {
    const host = await givenKey(ctx, 'HOST');
    const id = ((await ctx.as(host).get('/v1/api-keys/me').expect(200)).body as { keyId: string }).keyId;
    await ctx
      .as((await givenAdministrators(ctx)).first)
      .post(`/v1/api-keys/${id}/revoke`, {})
      .expect(200);
    // Not by the bootstrap key, retired from people's keys once two administrators hold keys.
    const other = await givenKey(ctx, 'HOST');
    const otherId = ((await ctx.as(other).get('/v1/api-keys/me').expect(200)).body as { keyId: string }).keyId;
    expect((await ctx.admin.post(`/v1/api-keys/${otherId}/revoke`, {})).status).toBe(403);
    await ctx.as(other).get('/v1/api-keys/me').expect(200);
    expect((await ctx.as(host).get('/v1/api-keys/me')).body.code).toBe('UNAUTHENTICATED');
    expect((await ctx.as('').get('/v1/api-keys/me')).body.code).toBe('UNAUTHENTICATED');
  });

  it('a table key is not claimed: its secret stays the table one', async () => {
    const table = await givenTable(ctx, { code: 'ME-02' });
    for (const role of ['TERMINAL', 'DISPLAY']) {
      const key = await givenKey(ctx, role, table.id);
      const res = await ctx.as(key).post('/v1/api-keys/claim', {});
      expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
      expect(res.body.message).toContain(role === 'TERMINAL' ? 'belongs to the table' : 'A DISPLAY key may not');
      expect((await ctx.as(key).get('/v1/api-keys/me').expect(200)).body.claimedAt).toBeNull();
    }
  });

  it('a person stops a key of their own at once; another person or a table key is an administrator to revoke', async () => {
    const table = await givenTable(ctx, { code: 'ME-03' });
    const terminal = await givenKey(ctx, 'TERMINAL', table.id);
    const host = await givenKey(ctx, 'HOST');
    const other = await givenKey(ctx, 'CASHIER');
    const idOf = async (key: string) => ((await ctx.as(key).get('/v1/api-keys/me').expect(200)).body as { keyId: string }).keyId;
    for (const target of [terminal, other]) {
      const res = await ctx.as(host).post(`/v1/api-keys/${await idOf(target)}/revoke`, {});
      expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
      await ctx.as(target).get('/v1/api-keys/me').expect(200);
    }
    const stopped = await ctx
      .as(host)
      .post(`/v1/api-keys/${await idOf(host)}/revoke`, {})
      .expect(200);
    expect(stopped.body.revokedAt).toEqual(expect.any(String));
    expect((await ctx.as(host).get('/v1/api-keys/me')).body.code).toBe('UNAUTHENTICATED');
  });

  it('a key its holder has not claimed is not theirs alone to stop', async () => {
    const { first } = await givenAdministrators(ctx);
    await givenStaff(ctx, 'E-UNCLAIMED', 'HOST');
    const minted = (await ctx.as(first).post('/v1/api-keys', { name: 'unclaimed host', role: 'HOST', staffId: 'E-UNCLAIMED' }).expect(201)).body as {
      id: string;
      key: string;
    };
    const res = await ctx.as(minted.key).post(`/v1/api-keys/${minted.id}/revoke`, {});
    expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(res.body.message).toContain('witnessed');
    await ctx.as(minted.key).get('/v1/api-keys/me').expect(200);
  });

  it("every keyed operation's x-roles are the roles its description names", () => {
    const doc = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { operationId: string; description: string; 'x-roles'?: string[] }>>;
    };
    let keyed = 0;
    for (const ops of Object.values(doc.paths))
      for (const op of Object.values(ops)) {
        const who = /\*\*Who may call:\*\* ([^\n]*)\./.exec(op.description)?.[1] ?? '';
        const named = who.startsWith('anyone') ? undefined : [...who.matchAll(/\b([A-Z_]{3,})\b/g)].map((m) => m[1]);
        expect([op.operationId, op['x-roles']]).toEqual([op.operationId, named]);
        if (named) keyed++;
      }
    expect(keyed).toBeGreaterThan(100);
  });
});
