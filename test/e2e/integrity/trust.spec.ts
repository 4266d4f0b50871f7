import { ADMIN_KEY, databaseSnapshot, startTestApp, TestContext } from '../../support/app';
import { givenAdministrators, givenKey, givenPit, givenShoe, givenStaff, givenTable, givenVoid } from '../../support/builders';

let ctx: TestContext;
let auditor: string;
beforeAll(async () => {
  ctx = await startTestApp();
  auditor = await givenKey(ctx, 'AUDITOR');
});
afterAll(() => ctx.close());

const BANKER_7 = { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] };
const PLAYER_9 = { player: ['9S', 'KD'], banker: ['8H', 'KC'] };

describe('the audit trail', () => {
  it('records who, what, when and the correlation id of every change, in the same transaction', async () => {
    const { terminal, shoe, table } = await givenPit(ctx);
    const res = await ctx
      .as(terminal)
      .post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 2, betType: 'BANKER', amount: 1000 }] })
      .set('X-Correlation-Id', 'term-7-coup-1');
    const entries = (await ctx.as(auditor).get(`/v1/audit?entityType=coup&entityId=${res.body.id}`)).body;
    expect(entries).toHaveLength(1);
    const e = entries[0];
    expect(e).toMatchObject({ stream: table.id, action: 'coup.settle', role: 'TERMINAL', correlationId: 'term-7-coup-1' });
    expect(e.entry).toMatchObject({
      route: `POST /v1/shoes/${shoe.id}/coups`,
      correlationId: 'term-7-coup-1',
      data: { number: 1, winner: 'BANKER', cards: BANKER_7 },
    });
    expect(e.entry.data.wagers).toEqual([
      { id: res.body.wagers[0].id, seat: 2, betType: 'BANKER', amount: '1000', result: 'WIN', payout: '1000', commission: '50', net: '950' },
    ]);
    // A rejected request leaves no entry.
    const before = (await ctx.as(auditor).get(`/v1/audit?stream=${table.id}`)).body.length;
    expect((await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: { player: ['2S', '3D'], banker: ['7H', 'KC'] } })).status).toBe(422);
    expect((await ctx.as(auditor).get(`/v1/audit?stream=${table.id}`)).body.length).toBe(before);
  });

  it('covers keys, tables, shoes, collections and both halves of a void', async () => {
    const { terminal, supervisor, shoe, table } = await givenPit(ctx);
    const second = await givenKey(ctx, 'SUPERVISOR');
    const coup = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] });
    await ctx.as(supervisor).post(`/v1/shoes/${shoe.id}/commissions/collections`, { seat: 1 });
    await givenVoid(ctx, 'coups', coup.body.id, 'audit me', supervisor, second);
    const actions = (await ctx.as(auditor).get(`/v1/audit?stream=${table.id}`)).body.map((e: { action: string }) => e.action);
    expect(actions).toEqual(['shoe.open', 'coup.settle', 'commission.collect', 'void.request', 'coup.void', 'void.approve']);
    const admin = (await ctx.as(auditor).get('/v1/audit?stream=admin&entityType=table')).body;
    expect(admin.some((e: { entityId: string; action: string }) => e.entityId === table.id && e.action === 'table.create')).toBe(true);
    const keys = (await ctx.as(auditor).get('/v1/audit?stream=admin&action=apiKey.create')).body;
    expect(JSON.stringify(keys)).not.toContain('sab_'); // the keys themselves are never written down
  });

  it('only auditors and admins read it', async () => {
    const { terminal } = await givenPit(ctx);
    expect((await ctx.as(terminal).get('/v1/audit')).status).toBe(403);
    expect((await ctx.as(await givenKey(ctx, 'FINANCE')).get('/v1/audit/verify')).status).toBe(403);
  });

  it('the hash chain verifies, and a rewritten or a removed entry is found', async () => {
    const ok = await ctx.as(auditor).get('/v1/audit/verify');
    expect(ok.body).toMatchObject({ ok: true, firstBroken: null });
    expect(ok.body.entriesChecked).toBeGreaterThan(10);

    // Someone with the database's owner rights bypasses the trigger and edits an entry.
    const [victim] = await ctx.prisma.$queryRaw<
      { id: bigint; stream: string; seq: bigint }[]
    >`SELECT id, stream, seq FROM audit_log WHERE action = 'coup.settle' ORDER BY id LIMIT 1`;
    await ctx.prisma.$executeRawUnsafe('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
    await ctx.prisma.$executeRaw`UPDATE audit_log SET payload = replace(payload, '"net":"950"', '"net":"9500"') WHERE id = ${victim.id}`;
    const broken = await ctx.as(auditor).get('/v1/audit/verify');
    expect(broken.body).toMatchObject({ ok: false, firstBroken: { stream: victim.stream, seq: Number(victim.seq), id: victim.id.toString() } });
    expect(broken.body.firstBroken.reason).toContain('changed after it was written');
    await ctx.prisma.$executeRaw`UPDATE audit_log SET payload = replace(payload, '"net":"9500"', '"net":"950"') WHERE id = ${victim.id}`;

    // … or deletes the last entry of a chain.
    const [last] = await ctx.prisma.$queryRaw<{ id: bigint; stream: string; seq: bigint }[]>`SELECT id, stream, seq FROM audit_log ORDER BY id DESC LIMIT 1`;
    const saved = await ctx.prisma.$queryRaw<Record<string, unknown>[]>`SELECT * FROM audit_log WHERE id = ${last.id}`;
    await ctx.prisma.$executeRaw`DELETE FROM audit_log WHERE id = ${last.id}`;
    const truncated = await ctx.as(auditor).get('/v1/audit/verify');
    expect(truncated.body).toMatchObject({ ok: false, firstBroken: { stream: last.stream, seq: Number(last.seq) } });
    const r = saved[0];
    await ctx.prisma
      .$executeRaw`INSERT INTO audit_log (id, stream, seq, hash, payload, at, key_id, role, action, entity_type, entity_id, correlation_id, mac, mac_key)
      VALUES (${r.id}, ${r.stream}, ${r.seq}, ${r.hash}, ${r.payload}, ${r.at}, ${r.key_id}, ${r.role}, ${r.action}, ${r.entity_type}, ${r.entity_id}, ${r.correlation_id}, ${r.mac}, ${r.mac_key})`;
    await ctx.prisma.$executeRawUnsafe('ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only');
    expect((await ctx.as(auditor).get('/v1/audit/verify')).body.ok).toBe(true);
  });
});

describe('the database refuses to rewrite history', () => {
  it.each([
    ['UPDATE audit_log SET action = $$x$$', 'UPDATE on audit_log'],
    ['DELETE FROM audit_log', 'DELETE on audit_log'],
    ["UPDATE coups SET winner = 'PLAYER' WHERE status = 'SETTLED'", 'UPDATE on coups'],
    ['DELETE FROM coups', 'DELETE on coups'],
    ["UPDATE wagers SET net = 0 WHERE status = 'SETTLED'", 'UPDATE on wagers'],
    ['DELETE FROM wagers', 'DELETE on wagers'],
    ['DELETE FROM coup_voids', 'DELETE on coup_voids'],
    ['UPDATE commission_entries SET amount = 1', 'UPDATE on commission_entries'],
  ])('%s', async (sql, message) => {
    await expect(ctx.prisma.$executeRawUnsafe(sql)).rejects.toThrow(message);
  });
});

describe('who may do what', () => {
  it("a terminal acts only on its own table: every id of another table's is FORBIDDEN", async () => {
    const mine = await givenPit(ctx, { tieBetsStay: true });
    const theirs = await givenPit(ctx, { tieBetsStay: true });
    const tie = await ctx.as(theirs.terminal).post(`/v1/shoes/${theirs.shoe.id}/coups`, {
      cards: { player: ['KS', '6D'], banker: ['3H', '2C', 'AS'] },
      wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }],
    });
    const open = await ctx.as(theirs.terminal).post(`/v1/shoes/${theirs.shoe.id}/coups`, {});
    const session = await ctx.as(theirs.supervisor).post(`/v1/tables/${theirs.table.id}/sessions`, { opener: [] });
    const t = ctx.as(mine.terminal);
    const attempts = [
      t.get(`/v1/tables/${theirs.table.id}`),
      t.get(`/v1/tables/${theirs.table.id}/shoes`),
      t.post(`/v1/tables/${theirs.table.id}/shoes`, {}),
      t.get(`/v1/shoes/${theirs.shoe.id}`),
      t.post(`/v1/shoes/${theirs.shoe.id}/coups`, { cards: PLAYER_9 }),
      t.get(`/v1/shoes/${theirs.shoe.id}/coups`),
      t.post(`/v1/shoes/${theirs.shoe.id}/close`),
      t.get(`/v1/shoes/${theirs.shoe.id}/commissions`),
      t.get(`/v1/coups/${tie.body.id}`),
      t.post(`/v1/coups/${open.body.id}/wagers`, { wagers: [{ seat: 1, betType: 'PLAYER', amount: 100 }] }),
      t.post(`/v1/coups/${open.body.id}/cards`, PLAYER_9),
      t.post(`/v1/wagers/${tie.body.carriedForward[0].id}/withdraw`),
      t.get(`/v1/table-sessions/${session.body.id}`),
    ];
    for (const res of await Promise.all(attempts)) {
      const path = (res as unknown as { req: { path: string } }).req.path;
      expect([path, res.status, res.body.code]).toEqual([path, 403, 'FORBIDDEN']);
    }
  });

  it('finance and auditors cannot write anything', async () => {
    const { shoe, table } = await givenPit(ctx);
    for (const role of ['FINANCE', 'AUDITOR']) {
      const k = ctx.as(await givenKey(ctx, role));
      for (const res of await Promise.all([
        k.post(`/v1/shoes/${shoe.id}/coups`, { cards: PLAYER_9 }),
        k.post(`/v1/tables/${table.id}/shoes`, {}),
        k.post(`/v1/tables/${table.id}/close`),
        k.post('/v1/tables', { code: 'X', variant: 'EZ', currency: 'EUR', minBet: 1, maxBet: 2 }),
        k.post('/v1/api-keys', { name: 'x', role: 'ADMIN' }),
        k.post('/v1/properties', { name: 'x', timeZone: 'UTC', gamingDayStartHour: 6 }),
        k.post(`/v1/tables/${table.id}/sessions`, { opener: [] }),
      ]))
        expect(res.status).toBe(403);
    }
  });

  it('a revoked key stops working at once; an expired one too', async () => {
    const key = await givenKey(ctx, 'AUDITOR');
    expect((await ctx.as(key).get('/v1/audit/verify')).status).toBe(200);
    const id = (await ctx.admin.get('/v1/api-keys')).body.find((k: { keyPrefix: string }) => key.startsWith(k.keyPrefix)).id;
    expect((await ctx.as((await givenAdministrators(ctx)).first).post(`/v1/api-keys/${id}/revoke`)).body.revokedAt).toEqual(expect.any(String));
    expect((await ctx.as(key).get('/v1/audit/verify')).status).toBe(401);

    await givenStaff(ctx, 'E-short', 'FINANCE');
    const soon = await ctx.as((await givenAdministrators(ctx)).first).post('/v1/api-keys', {
      name: 'short-lived',
      role: 'FINANCE',
      staffId: 'E-short',
      expiresAt: new Date(Date.now() + 1500).toISOString(),
    });
    expect((await ctx.as(soon.body.key).get('/v1/properties')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    const expired = await ctx.as(soon.body.key).get('/v1/properties');
    expect([expired.status, expired.body.code]).toEqual([401, 'UNAUTHENTICATED']);
  });

  // The whole-coup route may recognise a terminal's key from the service's memory; its one write
  // then checks the key itself. Revoked elsewhere (straight in the database, as another service
  // process would) or expired, the key must still record nothing, whatever the request.
  it('a key claimed on another instance: the old secret records no coup here, not even through the fast path that remembers it', async () => {
    const pit = await givenPit(ctx);
    const id = (await ctx.admin.get('/v1/api-keys')).body.find((k: { keyPrefix: string }) => pit.terminal.startsWith(k.keyPrefix)).id;
    expect(
      (await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] })).status,
    ).toBe(201);
    // What another instance's POST /v1/api-keys/claim writes: a new secret's hash; this instance still remembers the old one.
    await ctx.prisma.$executeRaw`UPDATE api_keys SET key_hash = encode(sha256('another secret'::bytea), 'hex'), claimed_at = now() WHERE id = ${id}::uuid`;
    const coups = await ctx.prisma.coup.count();
    const res = await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: PLAYER_9, wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }] });
    expect([res.status, res.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect(await ctx.prisma.coup.count()).toBe(coups);
  });

  it("a terminal key revoked or expired behind the service's back records no coup, not even through its fast path", async () => {
    const pit = await givenPit(ctx);
    const other = await givenPit(ctx);
    const id = (await ctx.admin.get('/v1/api-keys')).body.find((k: { keyPrefix: string }) => pit.terminal.startsWith(k.keyPrefix)).id;
    expect(
      (await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] })).status,
    ).toBe(201);
    await ctx.prisma.$executeRaw`UPDATE api_keys SET revoked_at = now() WHERE id = ${id}::uuid`;
    const state = async () => JSON.stringify(await databaseSnapshot(ctx.prisma));
    const before = await state();
    for (const [path, body] of [
      [`/v1/shoes/${pit.shoe.id}/coups`, { cards: PLAYER_9, wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }] }], // the fast path
      [`/v1/shoes/${pit.shoe.id}/coups`, { wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }] }], // opening a coup for betting
      [`/v1/shoes/${pit.shoe.id}/coups`, { cards: { player: ['2S', '3D'], banker: ['7H', 'KC'] } }], // a misdeal
      [`/v1/shoes/${other.shoe.id}/coups`, { cards: PLAYER_9 }], // another table's shoe
    ] as const) {
      const res = await ctx.as(pit.terminal).post(path, body);
      expect([path, res.status, res.body.code]).toEqual([path, 401, 'UNAUTHENTICATED']);
    }
    expect(await state()).toEqual(before);

    const soon = await ctx.admin.post('/v1/api-keys', {
      name: 'short-lived terminal',
      role: 'TERMINAL',
      tableId: other.table.id,
      expiresAt: new Date(Date.now() + 1500).toISOString(),
    });
    expect((await ctx.as(soon.body.key).post(`/v1/shoes/${other.shoe.id}/coups`, { cards: BANKER_7 })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 1600));
    const late = await ctx.as(soon.body.key).post(`/v1/shoes/${other.shoe.id}/coups`, { cards: PLAYER_9 });
    expect([late.status, late.body.code]).toEqual([401, 'UNAUTHENTICATED']);
  });
});

describe('two persons are two people', () => {
  // A database of its own: the register starts empty, as at a new casino.
  let shared: TestContext;
  beforeEach(async () => {
    shared = ctx;
    ctx = await startTestApp();
  });
  afterEach(async () => {
    await ctx.close();
    ctx = shared;
  });

  it("one administrator cannot invent a second person: the register needs two, keys name registered people, a key counts as its minter's until its claim is witnessed, and the bootstrap key retires after setup", async () => {
    const mint = (by: string, body: Record<string, unknown>) =>
      ctx.as(by).post('/v1/api-keys', { name: typeof body.staffId === 'string' ? body.staffId : 'terminal', ...body });
    const propose = (by: string, staffId: string, roles: string[], active = true) =>
      ctx.as(by).post('/v1/staff', { staffId, name: `Person ${staffId}`, roles, active, reason: 'hired' });
    const approve = (by: string, change: string) => ctx.as(by).post(`/v1/staff/changes/${change}/approve`, {});
    const claim = async (key: string) => (await ctx.as(key).post('/v1/api-keys/claim', {}).expect(201)).body.key as string;
    const minted = async (by: string, body: Record<string, unknown>) => (await mint(by, body).expect(201)).body as { id: string; key: string };

    // Setup: the bootstrap key registers the first two administrators alone and mints their keys.
    for (const a of ['E-A', 'E-B'])
      expect((await propose(ADMIN_KEY, a, ['ADMIN']).expect(202)).body).toMatchObject({ status: 'APPROVED', decidedByKeyId: 'setup' });
    const adminA = (await minted(ADMIN_KEY, { role: 'ADMIN', staffId: 'E-A' })).key;
    const adminB = (await minted(ADMIN_KEY, { role: 'ADMIN', staffId: 'E-B' })).key;
    // Then it is retired from persons: it proposes, approves and mints for no one (terminals and tables it still may).
    expect((await propose(ADMIN_KEY, 'E-C', ['ADMIN'])).body).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('retired') });
    expect((await mint(ADMIN_KEY, { role: 'ADMIN', staffId: 'E-A' })).body).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('retired') });

    // The attack: an administrator mints a key for a staff number nobody registered.
    expect((await mint(adminA, { role: 'ADMIN', staffId: 'E-GHOST' })).body).toMatchObject({ statusCode: 422, code: 'STAFF_NOT_REGISTERED' });
    // Registering the ghost takes a second person; nobody approves their own proposal or record.
    const ghost = (await propose(adminA, 'E-GHOST', ['ADMIN']).expect(202)).body;
    expect((await approve(adminA, ghost.id)).body).toMatchObject({ code: 'SAME_PERSON', message: expect.stringContaining('needs a second person') });
    expect((await propose(adminA, 'E-A', ['ADMIN', 'SUPERVISOR'])).body).toMatchObject({
      code: 'SAME_PERSON',
      message: expect.stringContaining('their own record'),
    });
    expect((await propose(adminA, 'E-GHOST', ['ADMIN'])).body.code).toBe('STAFF_CHANGE_PENDING');
    expect((await ctx.as(adminA).post(`/v1/staff/changes/${ghost.id}/reject`, { note: 'withdrawn' }).expect(200)).body.status).toBe('REJECTED');
    expect((await approve(adminB, ghost.id)).body.code).toBe('STAFF_CHANGE_DECIDED');

    for (const [staffId, role] of [
      ['E-1', 'SUPERVISOR'],
      ['E-2', 'SUPERVISOR'],
      ['E-AUD', 'AUDITOR'],
    ])
      await approve(adminB, (await propose(adminA, staffId, [role]).expect(202)).body.id).expect(200);
    const auditor = (await minted(adminA, { role: 'AUDITOR', staffId: 'E-AUD' })).key;
    // A supervisor's key must name its holder; a terminal's must not; an admin never mints their own; nor a role the person does not hold.
    expect((await mint(adminA, { role: 'SUPERVISOR' })).body.code).toBe('VALIDATION_FAILED');
    expect((await mint(adminA, { role: 'ADMIN', staffId: 'E-A' })).body).toMatchObject({
      statusCode: 403,
      code: 'SAME_PERSON',
      message: expect.stringContaining('cannot mint a key for themselves'),
    });
    expect((await mint(adminA, { role: 'SUPERVISOR', staffId: 'E-B' })).body.code).toBe('STAFF_NOT_REGISTERED');

    // A claim proves nothing alone: E-A mints an admin key for the real E-B, claims it (E-A knows its
    // secret) and approves a ghost of their own with it.
    const bByA = await minted(adminA, { role: 'ADMIN', staffId: 'E-B' });
    const bByAClaimed = await claim(bByA.key);
    const ghost2 = (await propose(adminA, 'E-GHOST-2', ['ADMIN']).expect(202)).body;
    expect((await approve(bByAClaimed, ghost2.id)).body).toMatchObject({ code: 'SAME_PERSON', message: expect.stringContaining('E-A could hold both keys') });
    // Nor may E-A, or the key itself, witness that claim.
    expect((await ctx.as(adminA).post(`/v1/api-keys/${bByA.id}/witness`, {})).body).toMatchObject({
      code: 'SAME_PERSON',
      message: expect.stringContaining('E-A'),
    });
    expect((await ctx.as(bByAClaimed).post(`/v1/api-keys/${bByA.id}/witness`, {})).body).toMatchObject({
      code: 'SAME_PERSON',
      message: expect.stringContaining('their own key'),
    });
    expect((await ctx.as(ADMIN_KEY).post(`/v1/api-keys/${bByA.id}/witness`, {})).body.code).toBe('FORBIDDEN');

    const s1 = (await minted(adminA, { role: 'SUPERVISOR', staffId: 'E-1' })).key;
    const s1Again = (await minted(adminA, { role: 'SUPERVISOR', staffId: 'E-1' })).key;
    const s2ByA = await minted(adminA, { role: 'SUPERVISOR', staffId: 'E-2' });
    // Through a chain: E-A mints with the admin key of E-B's that nobody witnessed.
    const s2ViaB = (await minted(bByAClaimed, { role: 'SUPERVISOR', staffId: 'E-2' })).key;
    expect((await ctx.as(adminB).post(`/v1/api-keys/${s2ByA.id}/witness`, {})).body.code).toBe('KEY_NOT_CLAIMED');

    const table = await givenTable(ctx, { code: 'TWO-1' });
    const terminal = (await mint(ADMIN_KEY, { role: 'TERMINAL', tableId: table.id }).expect(201)).body.key as string;
    const pit = { terminal, shoe: await givenShoe(ctx, terminal, table.id) };
    const coup = (
      await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] })
    ).body;
    const asked = (await ctx.as(s1).post(`/v1/coups/${coup.id}/void`, { reason: 'keyed twice' }).expect(202)).body.voidRequestId;
    const refusedBy = async (key: string, decision: 'approve' | 'reject') =>
      (await ctx.as(key).post(`/v1/void-requests/${asked}/${decision}`, { note: 'n' })).body;
    expect(await refusedBy(s1Again, 'approve')).toMatchObject({
      code: 'SAME_PERSON',
      message: expect.stringContaining('Staff member E-1 asked for this void with another key'),
    });
    expect(await refusedBy(s2ByA.key, 'approve')).toMatchObject({ code: 'SAME_PERSON', message: expect.stringContaining('E-A could hold both keys') });
    expect(await refusedBy(s2ViaB, 'approve')).toMatchObject({ code: 'SAME_PERSON', message: expect.stringContaining('E-A could hold both keys') });
    expect(await refusedBy(s1, 'reject')).toMatchObject({ code: 'SAME_PERSON', message: expect.stringContaining('Nobody rejects their own void request') });
    expect(await refusedBy(s1Again, 'reject')).toMatchObject({ code: 'SAME_PERSON' });
    // Claimed (E-A could do that too: still theirs) ...
    const s2 = await claim(s2ByA.key);
    expect((await ctx.as(s2ByA.key).get('/v1/void-requests')).status).toBe(401);
    expect(await refusedBy(s2, 'approve')).toMatchObject({ code: 'SAME_PERSON', message: expect.stringContaining('E-A could hold both keys') });
    // ... and the claim witnessed by E-B, who minted neither: the key is E-2's alone, and E-1's request, asked with
    // a key E-A could hold, is approved by a second person.
    expect((await ctx.as(adminB).post(`/v1/api-keys/${s2ByA.id}/witness`, {}).expect(200)).body).toMatchObject({ claimWitnessedAt: expect.any(String) });
    expect((await ctx.as(s2).post(`/v1/void-requests/${asked}/approve`, {}).expect(200)).body.status).toBe('APPROVED');
    const [entry] = (await ctx.as(auditor).get(`/v1/audit?action=void.approve&entityId=${coup.id}`)).body;
    expect(entry.entry.data).toMatchObject({ askedBy: { staffId: 'E-1', persons: ['E-1', 'E-A'] }, approvedBy: { staffId: 'E-2', persons: ['E-2'] } });

    // A person taken off the register: every key of theirs stops at once.
    expect((await ctx.as(s1Again).get('/v1/void-requests')).status).toBe(200);
    await approve(adminB, (await propose(adminA, 'E-1', [], false).expect(202)).body.id).expect(200);
    expect((await ctx.as(s1Again).get('/v1/void-requests')).status).toBe(401);
    const register = (await ctx.admin.get('/v1/staff').expect(200)).body as {
      staffId: string;
      active: boolean;
      history: { roles: string[]; active: boolean }[];
    }[];
    expect(register.find((p) => p.staffId === 'E-1')).toMatchObject({
      active: false,
      history: [
        { roles: ['SUPERVISOR'], active: true },
        { roles: [], active: false },
      ],
    });
    expect(register.map((p) => p.staffId)).not.toContain('E-GHOST');

    // The register is under the chain: a role written in around the service is found.
    expect((await ctx.as(auditor).get('/v1/audit/verify')).body.ok).toBe(true);
    await ctx.prisma.$executeRaw`UPDATE staff SET roles = '{ADMIN,SUPERVISOR}', active = true WHERE staff_id = 'E-1'`;
    const verdict = (await ctx.as(auditor).get('/v1/audit/verify')).body;
    expect(verdict.ok).toBe(false);
    expect(JSON.stringify(verdict.problems)).toContain('staff E-1: their name, roles or standing differ from the last approved change');
  });
});
