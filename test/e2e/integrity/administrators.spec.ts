import { ADMIN_KEY, startTestApp, TestContext } from '../../support/app';

/**
 * The staff register keeps at least two active administrators through the API: every change to it
 * needs a second one, so one administrator taking the other off (or one of two leaving) would leave
 * it unchangeable. A database of its own: the register starts empty, as at a new casino.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

it('a change that would leave fewer than two active administrators is refused when proposed and when approved, and nothing changes', async () => {
  const propose = (by: string, staffId: string, roles: string[], active = true) =>
    ctx.as(by).post('/v1/staff', { staffId, name: `Person ${staffId}`, roles, active, reason: 'a change' });
  const approve = (by: string, change: string) => ctx.as(by).post(`/v1/staff/changes/${change}/approve`, {});
  const minted = async (by: string, staffId: string) =>
    (await ctx.as(by).post('/v1/api-keys', { name: staffId, role: 'ADMIN', staffId }).expect(201)).body.key as string;
  const register = async () =>
    ((await ctx.admin.get('/v1/staff').expect(200)).body as { staffId: string; roles: string[]; active: boolean }[])
      .filter((p) => p.active && p.roles.includes('ADMIN'))
      .map((p) => p.staffId);

  for (const a of ['E-A', 'E-B']) await propose(ADMIN_KEY, a, ['ADMIN']).expect(202);
  const a = await minted(ADMIN_KEY, 'E-A');
  const b = await minted(ADMIN_KEY, 'E-B');

  // With two, neither may take the other off, nor away their role.
  for (const [staffId, roles, active] of [
    ['E-B', [], false],
    ['E-B', ['SUPERVISOR'], true],
  ] as const) {
    const refused = await propose(a, staffId, [...roles], active);
    expect([refused.status, refused.body.code]).toEqual([409, 'TOO_FEW_ADMINISTRATORS']);
    expect(refused.body.message).toContain('at least 2');
  }
  expect((await ctx.as(a).get('/v1/staff/changes?status=PENDING').expect(200)).body).toEqual([]);

  // A third is registered, and claims their key in front of the second.
  await approve(b, (await propose(a, 'E-C', ['ADMIN']).expect(202)).body.id).expect(200);
  const cMinted = (await ctx.as(a).post('/v1/api-keys', { name: 'E-C', role: 'ADMIN', staffId: 'E-C' }).expect(201)).body as { id: string; key: string };
  const c = (await ctx.as(cMinted.key).post('/v1/api-keys/claim', {}).expect(201)).body.key as string;
  await ctx.as(b).post(`/v1/api-keys/${cMinted.id}/witness`, {}).expect(200);
  // With three, each of two changes taking one off is proposed: each leaves two, as things stand.
  const offB = (await propose(c, 'E-B', [], false).expect(202)).body.id as string;
  const offC = (await propose(a, 'E-C', [], false).expect(202)).body.id as string;
  // C leaves first: two remain. B's leaving, proposed by C, would now leave one: refused at its approval.
  await approve(b, offC).expect(200);
  expect(await register()).toEqual(['E-A', 'E-B']);
  const refused = await approve(a, offB);
  expect([refused.status, refused.body.code]).toEqual([409, 'TOO_FEW_ADMINISTRATORS']);
  expect(await register()).toEqual(['E-A', 'E-B']);
  expect((await ctx.as(a).get('/v1/staff/changes?status=PENDING').expect(200)).body.map((x: { id: string }) => x.id)).toEqual([offB]);
});
