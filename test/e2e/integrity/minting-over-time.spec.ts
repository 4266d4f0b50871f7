import { ADMIN_KEY, startTestApp, TestContext } from '../../support/app';
import { givenShoe, givenTable } from '../../support/builders';

/**
 * Who could hold a key is fixed when it is minted (src/domain/integrity/two-person.ts). An
 * administrator who mints a second administrator's key knows its secret until that person claims it
 * in front of a witness; whatever the key minted before the witness, its minter could have minted.
 * A witness afterwards must not launder those keys: the chain of minting stops only at a minter
 * whose claim was witnessed before it minted. A database of its own: the register starts empty, as
 * at a new casino.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const BANKER_7 = { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] };

it('a key minted with an administrator key before its claim was witnessed stays its minter’s too; one minted after, its own person’s', async () => {
  const propose = (by: string, staffId: string, roles: string[]) =>
    ctx
      .as(by)
      .post('/v1/staff', { staffId, name: `Person ${staffId}`, roles, active: true, reason: 'hired' })
      .expect(202);
  const approve = (by: string, change: string) => ctx.as(by).post(`/v1/staff/changes/${change}/approve`, {}).expect(200);
  const minted = async (by: string, role: string, staffId: string) =>
    (await ctx.as(by).post('/v1/api-keys', { name: staffId, role, staffId }).expect(201)).body as { id: string; key: string };

  // The bootstrap key registers A1 and A2 and mints their keys; A1 and A2 register A3 and the supervisors.
  for (const a of ['E-A1', 'E-A2']) await propose(ADMIN_KEY, a, ['ADMIN']);
  const a1 = (await minted(ADMIN_KEY, 'ADMIN', 'E-A1')).key;
  const a2 = (await minted(ADMIN_KEY, 'ADMIN', 'E-A2')).key;
  for (const [staffId, role] of [
    ['E-A3', 'ADMIN'],
    ['E-Q', 'SUPERVISOR'],
    ['E-Z', 'SUPERVISOR'],
  ])
    await approve(a2, (await propose(a1, staffId, [role])).body.id);

  // A1 mints A3's key (so A1 knows it) and at once mints a supervisor key for Z with it.
  const a3ByA1 = await minted(a1, 'ADMIN', 'E-A3');
  const zBefore = await minted(a3ByA1.key, 'SUPERVISOR', 'E-Z');
  // Then hands it over: A3 claims it and A2 witnesses the claim, as routine.
  const a3 = (await ctx.as(a3ByA1.key).post('/v1/api-keys/claim', {}).expect(201)).body.key as string;
  await ctx.as(a2).post(`/v1/api-keys/${a3ByA1.id}/witness`, {}).expect(200);
  // A key A3 mints from now on is A3's word, not A1's.
  const zAfter = await minted(a3, 'SUPERVISOR', 'E-Z');
  const q = (await minted(a1, 'SUPERVISOR', 'E-Q')).key;

  const table = await givenTable(ctx, { code: 'MINT-1' });
  const terminal = (await ctx.as(a1).post('/v1/api-keys', { name: 'terminal', role: 'TERMINAL', tableId: table.id }).expect(201)).body.key as string;
  const shoe = await givenShoe(ctx, terminal, table.id);
  const voidAsked = async () => {
    const coup = (
      await ctx
        .as(terminal)
        .post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] })
        .expect(201)
    ).body;
    // Asked with Q's key, which A1 minted and nobody witnessed: Q's or A1's.
    return (await ctx.as(q).post(`/v1/coups/${coup.id}/void`, { reason: 'keyed twice' }).expect(202)).body.voidRequestId as string;
  };

  // A1 asks with Q's key and approves with the Z key minted before the witness: one person, refused.
  const first = await voidAsked();
  const refused = await ctx.as(zBefore.key).post(`/v1/void-requests/${first}/approve`, { note: 'n' });
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({ code: 'SAME_PERSON', message: expect.stringContaining('E-A1 could hold both keys') });
  // Claiming it does not change that: a claim proves nothing of who minted what before.
  const zBeforeClaimed = (await ctx.as(zBefore.key).post('/v1/api-keys/claim', {}).expect(201)).body.key as string;
  expect((await ctx.as(zBeforeClaimed).post(`/v1/void-requests/${first}/approve`, { note: 'n' })).body.message).toContain('E-A1 could hold both keys');
  // The Z key A3 minted after the witness is Z's and A3's: a second person approves.
  expect((await ctx.as(zAfter.key).post(`/v1/void-requests/${first}/approve`, { note: 'n' }).expect(200)).body.status).toBe('APPROVED');

  // And the register sees it the same way: the key minted before the witness, claimed and witnessed
  // in turn, is Z's alone from then on.
  await ctx.as(a2).post(`/v1/api-keys/${zBefore.id}/witness`, {}).expect(200);
  const second = await voidAsked();
  expect((await ctx.as(zBeforeClaimed).post(`/v1/void-requests/${second}/approve`, { note: 'n' }).expect(200)).body.status).toBe('APPROVED');
});
