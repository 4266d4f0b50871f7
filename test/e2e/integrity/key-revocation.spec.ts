import { ADMIN_KEY, databaseSnapshot, startTestApp, TestContext } from '../../support/app';

/**
 * No administrator takes another's power away alone (issue 49). An administrator's key is revoked
 * by one administrator's proposal and another's approval, never below two active administrators
 * holding a key of their own; and the bootstrap key, once it has set the casino up, stays retired
 * whatever happens to the keys since. A database of its own per test: the register starts empty,
 * as at a new casino.
 */
let ctx: TestContext;
beforeEach(async () => {
  ctx = await startTestApp();
});
afterEach(() => ctx.close());

const propose = (by: string, staffId: string, roles: string[], active = true) =>
  ctx.as(by).post('/v1/staff', { staffId, name: `Person ${staffId}`, roles, active, reason: 'a change' });
const approve = (by: string, change: string) => ctx.as(by).post(`/v1/staff/changes/${change}/approve`, {});
const mint = async (by: string, role: string, staffId: string) =>
  (
    await ctx
      .as(by)
      .post('/v1/api-keys', { name: `${staffId} ${role}`, role, staffId })
      .expect(201)
  ).body as { id: string; key: string };
const state = async () => JSON.stringify(await databaseSnapshot(ctx.prisma));

/** The first two administrators, as the bootstrap key sets them up: registered alone, their keys minted by it. */
async function setUp(): Promise<{ a: { id: string; key: string }; b: { id: string; key: string } }> {
  for (const staffId of ['E-A', 'E-B']) await propose(ADMIN_KEY, staffId, ['ADMIN']).expect(202);
  return { a: await mint(ADMIN_KEY, 'ADMIN', 'E-A'), b: await mint(ADMIN_KEY, 'ADMIN', 'E-B') };
}

it("one administrator cannot revoke another's key alone: a second approves, never below two administrators holding a key of their own", async () => {
  const { a, b } = await setUp();
  const revoke = (by: string, keyId: string) => ctx.as(by).post(`/v1/api-keys/${keyId}/revoke`, {});
  const proposeRevocation = (by: string, keyId: string) => ctx.as(by).post(`/v1/api-keys/${keyId}/revocations`, { reason: 'left the company' });
  const decide = (by: string, revocation: string, decision: 'approve' | 'reject') =>
    ctx.as(by).post(`/v1/api-keys/revocations/${revocation}/${decision}`, { note: 'checked' });

  // E-A revokes E-B's key alone: refused, nothing changes, E-B's key still works.
  let before = await state();
  const alone = await revoke(a.key, b.id);
  expect([alone.status, alone.body.code]).toEqual([403, 'SECOND_ADMINISTRATOR_NEEDED']);
  expect(alone.body.message).toContain(`POST /v1/api-keys/${b.id}/revocations`);
  expect(await state()).toEqual(before);
  await ctx.as(b.key).get('/v1/api-keys/me').expect(200);

  // With two administrators holding keys, neither's key may go at all: proposed or revoked by its own holder.
  for (const refused of [await proposeRevocation(a.key, b.id), await revoke(a.key, a.id)]) {
    expect([refused.status, refused.body.code]).toEqual([409, 'TOO_FEW_ADMINISTRATORS']);
    expect(refused.body.message).toContain('at least 2');
  }
  expect(await state()).toEqual(before);

  // A third administrator, E-C: registered, their key minted by E-A, claimed in front of E-B.
  await approve(b.key, (await propose(a.key, 'E-C', ['ADMIN']).expect(202)).body.id).expect(200);
  const cMinted = await mint(a.key, 'ADMIN', 'E-C');
  const c = (await ctx.as(cMinted.key).post('/v1/api-keys/claim', {}).expect(201)).body.key as string;
  await ctx.as(b.key).post(`/v1/api-keys/${cMinted.id}/witness`, {}).expect(200);

  // E-A proposes revoking E-B's key. Neither E-A nor E-B decides it; E-A may withdraw it, E-B may not reject it.
  const proposed = (await proposeRevocation(a.key, b.id).expect(202)).body;
  expect(proposed).toMatchObject({ keyId: b.id, keyStaffId: 'E-B', keyRole: 'ADMIN', status: 'PENDING' });
  expect((await proposeRevocation(c, b.id)).body.code).toBe('KEY_REVOCATION_PENDING');
  before = await state();
  expect((await decide(a.key, proposed.id, 'approve')).body).toMatchObject({ code: 'SAME_PERSON', message: expect.stringContaining('second person') });
  expect((await decide(b.key, proposed.id, 'approve')).body).toMatchObject({ code: 'SAME_PERSON', message: expect.stringContaining('their own key') });
  expect((await decide(b.key, proposed.id, 'reject')).body).toMatchObject({ code: 'SAME_PERSON', message: expect.stringContaining('their own key') });
  expect(await state()).toEqual(before);
  await ctx.as(b.key).get('/v1/api-keys/me').expect(200);
  // E-C approves: E-B's key stops at once, and the audit entry names the proposal and both persons.
  expect((await decide(c, proposed.id, 'approve').expect(200)).body).toMatchObject({ status: 'APPROVED' });
  expect((await ctx.as(b.key).get('/v1/api-keys/me')).status).toBe(401);
  expect((await decide(c, proposed.id, 'reject')).body.code).toBe('KEY_REVOCATION_DECIDED');
  expect((await proposeRevocation(c, b.id)).body.code).toBe('KEY_REVOKED');
  const [entry] = (await ctx.as(a.key).get(`/v1/audit?action=apiKey.revoke&entityId=${b.id}`).expect(200)).body;
  expect(entry.entry.data).toMatchObject({ revocationId: proposed.id, proposedBy: { persons: ['E-A'] }, approvedBy: { persons: ['E-C'] } });

  // Two left holding keys (E-A, E-C): neither key may go, by a proposal approved or by its holder.
  const last = await ctx.prisma.keyRevocation.count();
  expect((await proposeRevocation(c, a.id)).body.code).toBe('TOO_FEW_ADMINISTRATORS');
  expect((await revoke(c, cMinted.id)).body.code).toBe('TOO_FEW_ADMINISTRATORS');
  expect(await ctx.prisma.keyRevocation.count()).toBe(last);

  // A key that takes nobody's power away goes at once with one administrator: a supervisor's, or a
  // second key of E-A's that E-C minted (E-C could hold it too: it never counted), revoked by E-A with their own.
  await approve(c, (await propose(a.key, 'E-S', ['SUPERVISOR']).expect(202)).body.id).expect(200);
  const supervisor = await mint(a.key, 'SUPERVISOR', 'E-S');
  expect((await revoke(a.key, supervisor.id).expect(200)).body.revokedAt).toEqual(expect.any(String));
  const second = await mint(c, 'ADMIN', 'E-A');
  expect((await revoke(a.key, second.id).expect(200)).body.revokedAt).toEqual(expect.any(String));

  // Nor does the register lose them another way: an administrator without a key (E-D) does not
  // count, so E-C may not be taken off while E-A and E-D stand.
  await approve(c, (await propose(a.key, 'E-D', ['ADMIN']).expect(202)).body.id).expect(200);
  const off = await propose(a.key, 'E-C', [], false);
  expect([off.status, off.body.code]).toEqual([409, 'TOO_FEW_ADMINISTRATORS']);
  expect(off.body.message).toContain('holding a key of their own');

  // Every change above went through the API: the records verify.
  expect((await ctx.as(a.key).get('/v1/audit/verify').expect(200)).body.ok).toBe(true);
});

it('the bootstrap key, retired once two administrators held keys, stays retired when their keys are revoked', async () => {
  const { b } = await setUp();
  // E-B's key is revoked (here behind the service's back, as any path the register may not prevent:
  // an expiry, a second server): one administrator holds a key now.
  await ctx.prisma.$executeRaw`UPDATE api_keys SET revoked_at = now() WHERE id = ${b.id}::uuid`;
  const before = await state();
  for (const refused of [
    await ctx.admin.post('/v1/api-keys', { name: 'E-B again', role: 'ADMIN', staffId: 'E-B' }),
    await ctx.admin.post('/v1/api-keys', { name: 'E-A, by the bootstrap', role: 'ADMIN', staffId: 'E-A' }),
    await propose(ADMIN_KEY, 'E-X', ['ADMIN']),
  ]) {
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(refused.body.message).toContain('retired');
  }
  expect(await state()).toEqual(before);
});
