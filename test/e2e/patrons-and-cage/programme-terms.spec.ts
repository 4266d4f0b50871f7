import { Client } from 'pg';
import { gamingDayOf } from '../../../src/domain';
import { databaseSnapshot, startTestApp, TestContext } from '../../support/app';
import { approveCredit, givenCreditOfficers, givenKey, givenPatrons, givenShoe, givenTable } from '../../support/builders';
import { approvedProgrammeRequest, approvedStatementRequest, ProgrammeTerms } from '../../support/credit-acts';
import { asOwner } from '../../support/owner';

/**
 * Issue 49, findings 3 and 4: what one FINANCE key could do with a programme's terms and a junket's
 * statement (docs/domain/rolling-chips.md, docs/domain/junkets.md). It set a programme at 100 %
 * commission, and agreed a statement alone (the junket's signatory free text); a month was agreed
 * with more dead chips lost than bought. Now a programme's terms, within the property's caps, and a
 * statement's agreement are each a credit request one credit officer asks and another approves,
 * recorded quoting it; and no period is agreed while the junket's players would hold fewer than no
 * dead chips at its end. Every refusal changes nothing. Amounts are HK$ cents.
 */
let ctx: TestContext;
let su: Client;
let finance: string;
let officers: { requester: string; approver: string; manager: string };
let propertyId: string;
let today: string;
const P = process.pid;
const HK = (dollars: number) => dollars * 100;
const day = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const record = (body: object) => ctx.as(finance).post(`/v1/properties/${propertyId}/rolling-programmes`, body);
const ask = (body: object, key = officers.requester) =>
  ctx.as(key).post(`/v1/properties/${propertyId}/credit-requests`, { reason: 'terms agreed with the promoter', ...body });

beforeAll(async () => {
  ctx = await startTestApp();
  finance = await givenKey(ctx, 'FINANCE');
  officers = await givenCreditOfficers(ctx);
  propertyId = (
    await ctx.admin.post('/v1/properties', { name: `Terms house ${P}`, timeZone: 'Asia/Macau', gamingDayStartHour: 6, cashCurrency: 'HKD' }).expect(201)
  ).body.id;
  today = gamingDayOf(new Date(), 'Asia/Macau', 6);
  su = new Client({ connectionString: ctx.databaseUrl });
  await su.connect();
}, 120_000);
afterAll(async () => {
  await su?.end();
  await ctx?.close();
});

describe("finding 3: a programme's terms", () => {
  const hundred: ProgrammeTerms = { code: `ALL-${P}`, name: 'Everything back', basis: 'ROLLING', commissionBps: 10_000, effectiveFrom: '' };

  it('one FINANCE key sets no programme alone, and 100 % commission is over the cap when asked for: nothing written', async () => {
    const terms = { ...hundred, effectiveFrom: today };
    const before = await databaseSnapshot(ctx.prisma);
    // As before the control: one key records the terms. Refused: the terms are two persons'.
    const alone = await record(terms);
    expect([alone.status, alone.body.code]).toEqual([409, 'PROGRAMME_NEEDS_APPROVAL']);
    expect(alone.body.message).toMatch(/two persons.*act PROGRAMME.*requestId/);
    // Asked for: over the property's cap (the default policy: 1.50 % of the rolling, 50 % of the win/loss), refused before anyone approves.
    const asked = await ask({ act: 'PROGRAMME', ...terms });
    expect([asked.status, asked.body.code]).toEqual([422, 'COMMISSION_OVER_CAP']);
    expect(asked.body.message).toMatch(/100\.00 %.*over the property's cap of 1\.50 %/);
    const share = await ask({ act: 'PROGRAMME', ...terms, basis: 'WIN_LOSS' });
    expect([share.status, share.body.code, share.body.message]).toEqual([422, 'COMMISSION_OVER_CAP', expect.stringMatching(/100\.00 % of the win\/loss/)]);
    // The allowance is a share of the rolling paid back too: with a rolling commission within their cap together, alone beside a win/loss one.
    const topped = await ask({ act: 'PROGRAMME', ...terms, commissionBps: 150, allowanceBps: 1 });
    expect([topped.status, topped.body.code, topped.body.message]).toEqual([422, 'COMMISSION_OVER_CAP', expect.stringMatching(/1\.51 % of it/)]);
    const allowed = await ask({ act: 'PROGRAMME', ...terms, basis: 'WIN_LOSS', commissionBps: 5_000, allowanceBps: 151 });
    expect([allowed.status, allowed.body.code]).toEqual([422, 'COMMISSION_OVER_CAP']);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
    // At the caps: asked for.
    expect((await ask({ act: 'PROGRAMME', ...terms, commissionBps: 130, allowanceBps: 20 })).status).toBe(201);
    expect((await ask({ act: 'PROGRAMME', ...terms, basis: 'WIN_LOSS', commissionBps: 5_000, allowanceBps: 150 })).status).toBe(201);
  });

  it('recorded only as a second credit officer approved it, each term the same, once: each refusal writes nothing', async () => {
    const terms: ProgrammeTerms = { code: 'JK-ROLL', name: 'Junket rolling 1.25 %', basis: 'ROLLING', commissionBps: 125, effectiveFrom: today };
    const asked = (await ask({ act: 'PROGRAMME', ...terms }).expect(201)).body;
    expect(asked).toMatchObject({ act: 'PROGRAMME', subject: 'JK-ROLL', status: 'PENDING', approvalsNeeded: 1, terms: { ...terms, allowanceBps: 0 } });
    const before = await databaseSnapshot(ctx.prisma);
    // The requester does not approve their own request; until another does, nothing is recorded.
    const own = await ctx.as(officers.requester).post(`/v1/credit-requests/${asked.id}/approve`, {});
    expect([own.status, own.body.code]).toEqual([403, 'SAME_PERSON']);
    const pending = await record({ ...terms, requestId: asked.id });
    expect([pending.status, pending.body.code, pending.body.message]).toEqual([409, 'PROGRAMME_NEEDS_APPROVAL', expect.stringMatching(/waits for a second/)]);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
    expect((await approveCredit(ctx, asked.id)).status).toBe('APPROVED');
    const policy = (
      await ask({ act: 'POLICY', seniorLimitThreshold: 1, repaymentThreshold: 1, rollingCommissionCapBps: 1, winLossCommissionCapBps: 1 }).expect(201)
    ).body.id;
    const approved = await databaseSnapshot(ctx.prisma);
    // Other terms than approved: 100 % under the approved request's id, or another name.
    const raised = await record({ ...terms, commissionBps: 10_000, requestId: asked.id });
    expect([raised.status, raised.body.code]).toEqual([422, 'NOT_AS_APPROVED']);
    expect(raised.body.message).toMatch(/commissionBps "125" was approved, not "10000"/);
    const renamed = await record({ ...terms, name: 'Something else', requestId: asked.id });
    expect([renamed.status, renamed.body.code]).toEqual([422, 'NOT_AS_APPROVED']);
    // Another act's request, or none on file: refused.
    const otherAct = await record({ ...terms, requestId: policy });
    expect([otherAct.status, otherAct.body.code, otherAct.body.message]).toEqual([422, 'NOT_AS_APPROVED', expect.stringMatching(/a POLICY request/)]);
    expect((await record({ ...terms, requestId: '00000000-0000-4000-8000-00000000dead' })).status).toBe(404);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(approved);
    // As approved: recorded, naming its request; a second time: refused.
    const version = (await record({ ...terms, requestId: asked.id }).expect(201)).body;
    expect(version).toMatchObject({ ...terms, allowanceBps: 0, requestId: asked.id });
    const twice = await record({ ...terms, requestId: asked.id });
    expect([twice.status, twice.body.code]).toEqual([409, 'CONFLICT']);
  });

  it("the caps are the policy's in force when the version is recorded: lowered after the approval, the version is refused", async () => {
    const terms: ProgrammeTerms = { code: `SHARE-${P}`, name: 'Win/loss 40 %', basis: 'WIN_LOSS', commissionBps: 4_000, effectiveFrom: day(1) };
    const requestId = await approvedProgrammeRequest(ctx, propertyId, terms);
    // A new policy, approved by a credit officer and the casino manager: at most 30 % of the win/loss.
    const lowered = (
      await ask({
        act: 'POLICY',
        seniorLimitThreshold: 100_000_000,
        repaymentThreshold: 1_000_000,
        rollingCommissionCapBps: 150,
        winLossCommissionCapBps: 3_000,
      }).expect(201)
    ).body.id;
    expect((await approveCredit(ctx, lowered)).status).toBe('APPROVED');
    const before = await databaseSnapshot(ctx.prisma);
    const refused = await record({ ...terms, requestId });
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([
      422,
      'COMMISSION_OVER_CAP',
      expect.stringMatching(/40\.00 % of the win\/loss is over the property's cap of 30\.00 %/),
    ]);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
  });
});

describe("finding 3: a junket's statement", () => {
  let junketId: string;
  const january = { from: '2026-01-01', to: '2026-01-31' };
  const agree = (body: object) => ctx.as(finance).post(`/v1/junkets/${junketId}/statements`, body);

  beforeAll(async () => {
    junketId = (
      await ctx
        .as(finance)
        .post(`/v1/properties/${propertyId}/junkets`, { code: `QUIET-${P}`, name: 'Quiet club', currency: 'HKD', creditLimit: 0 })
        .expect(201)
    ).body.id;
  });

  it('one FINANCE key agrees no statement alone, whatever signatory it writes: nothing written', async () => {
    const { digest } = (await ctx.as(finance).get(`/v1/junkets/${junketId}/statement?from=${january.from}&to=${january.to}`).expect(200)).body;
    const before = await databaseSnapshot(ctx.prisma);
    const alone = await agree({ ...january, junketSignatory: 'Anyone at all', digest });
    expect([alone.status, alone.body.code]).toEqual([409, 'STATEMENT_NEEDS_APPROVAL']);
    expect(alone.body.message).toMatch(/two persons.*act STATEMENT.*requestId/);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
  });

  it("agreed for the casino by two credit officers besides the junket's signatory, as they approved it, once", async () => {
    const { digest } = (await ctx.as(finance).get(`/v1/junkets/${junketId}/statement?from=${january.from}&to=${january.to}`).expect(200)).body;
    const terms = { ...january, digest, junketSignatory: 'Chan Tai Man, cashier, Quiet club' };
    const asked = (await ask({ act: 'STATEMENT', junketId, ...terms }).expect(201)).body;
    expect(asked).toMatchObject({ act: 'STATEMENT', subject: junketId, status: 'PENDING', approvalsNeeded: 1, terms: { junketId, ...terms } });
    const before = await databaseSnapshot(ctx.prisma);
    const own = await ctx.as(officers.requester).post(`/v1/credit-requests/${asked.id}/approve`, {});
    expect([own.status, own.body.code]).toEqual([403, 'SAME_PERSON']);
    const pending = await agree({ ...terms, requestId: asked.id });
    expect([pending.status, pending.body.code]).toEqual([409, 'STATEMENT_NEEDS_APPROVAL']);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
    const approved = await approveCredit(ctx, asked.id);
    expect(approved.status).toBe('APPROVED');
    const decided = await databaseSnapshot(ctx.prisma);
    // Another signatory than the one approved: refused.
    const swapped = await agree({ ...terms, junketSignatory: 'Somebody else', requestId: asked.id });
    expect([swapped.status, swapped.body.code, swapped.body.message]).toEqual([422, 'NOT_AS_APPROVED', expect.stringMatching(/junketSignatory/)]);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(decided);
    const agreed = await agree({ ...terms, requestId: asked.id }).expect(201);
    expect(agreed.body.agreement).toEqual({
      id: expect.any(String),
      junketSignatory: terms.junketSignatory,
      agreedByKeyId: expect.any(String),
      agreedAt: expect.any(String),
      digest,
      requestId: asked.id,
      requestedByKeyId: asked.requestedByKeyId,
      approvedByKeyIds: [approved.decisions[0].keyId],
    });
    expect(approved.decisions[0].keyId).not.toBe(asked.requestedByKeyId);
    const [listed] = (await ctx.as(finance).get(`/v1/junkets/${junketId}/statements`).expect(200)).body;
    expect(listed).toMatchObject({
      ...january,
      requestId: asked.id,
      requestedByKeyId: asked.requestedByKeyId,
      approvedByKeyIds: [approved.decisions[0].keyId],
    });
    const again = await agree({ ...terms, requestId: asked.id });
    expect([again.status, again.body.code]).toEqual([409, 'CONFLICT']);
  });
});

describe('finding 4: a period with more dead chips lost than bought', () => {
  const [X, Y] = [`TX-${P}`, `TY-${P}`];
  let junketId: string;
  const statement = (from: string, to: string) => ctx.as(finance).get(`/v1/junkets/${junketId}/statement?from=${from}&to=${to}`).expect(200);

  beforeAll(async () => {
    const table = await givenTable(ctx, { propertyId, currency: 'HKD', minBet: HK(100), maxBet: HK(100_000) });
    const terminal = await givenKey(ctx, 'TERMINAL', table.id);
    const shoe = await givenShoe(ctx, terminal, table.id);
    const host = await givenKey(ctx, 'HOST');
    const cashier = await givenKey(ctx, 'CASHIER');
    await givenPatrons(ctx, X, Y);
    junketId = (
      await ctx
        .as(finance)
        .post(`/v1/properties/${propertyId}/junkets`, { code: `JADE-${P}`, name: 'Jade club', currency: 'HKD', creditLimit: 0 })
        .expect(201)
    ).body.id;
    for (const patronId of [X, Y]) await ctx.as(host).post(`/v1/junkets/${junketId}/members`, { patronId, programme: 'JK-ROLL' }).expect(201);
    // Y buys HK$2,000 of dead chips; X, who bought none, loses HK$1,000 of dead chips on each of three coups (the table does not
    // check whose chips are on the layout): on a Banker bet, a Player bet, a Tie bet.
    await ctx
      .as(cashier)
      .post(`/v1/patrons/${Y}/chip-exchanges`, { kind: 'PURCHASE', amount: HK(2_000), settledIn: 'CASH_CHIPS', propertyId, currency: 'HKD' })
      .expect(201);
    const lose = (betType: string, cards: object) =>
      ctx
        .as(terminal)
        .post(`/v1/shoes/${shoe.id}/coups`, { cards, wagers: [{ seat: 1, betType, amount: HK(1_000), patronId: X, chipKind: 'DEAD' }] })
        .expect(201);
    const PLAYER_WINS = { player: ['8S', 'KH'], banker: ['QS', 'JD'] };
    const BANKER_WINS = { player: ['KS', 'QH'], banker: ['9S', 'KD'] };
    const coups = [(await lose('BANKER', PLAYER_WINS)).body.id, (await lose('PLAYER', BANKER_WINS)).body.id, (await lose('TIE', PLAYER_WINS)).body.id];
    // Played on three days gone by (the service has no clock to set: the records are made to have been written then, as the superuser):
    // day −3 Y's purchase and X's Banker bet, day −2 X's Player bet, day −1 X's Tie bet.
    await asOwner(su, async () => {
      for (const [i, [coup, betType]] of [
        [coups[0], 'BANKER'],
        [coups[1], 'PLAYER'],
        [coups[2], 'TIE'],
      ].entries()) {
        await su.query('UPDATE coups SET gaming_day = $2 WHERE id = $1', [coup, day(i - 3)]);
        await su.query('UPDATE wagers SET gaming_day = $2 WHERE coup_id = $1', [coup, day(i - 3)]);
        await su.query('UPDATE patron_rollups SET gaming_day = $3 WHERE patron_id = $1 AND bet_type = $2', [X, betType, day(i - 3)]);
      }
      await su.query('UPDATE chip_exchanges SET gaming_day = $2 WHERE patron_id = $1', [Y, day(-3)]);
      await su.query('UPDATE rolling_programmes SET effective_from = $2 WHERE property_id = $1 AND code = $3', [propertyId, day(-10), 'JK-ROLL']);
      await su.query('UPDATE junket_memberships SET effective_from = $2 WHERE operator_id = $1', [junketId, day(-10)]);
    });
  }, 60_000);

  it("counts the junket's chips, not each member's: X lost chips Y bought, and the junket holds HK$1,000 still", async () => {
    const seen = (await statement(day(-3), day(-3))).body;
    expect(seen.figures.members.map((m: { patronId: string; purchased: number; rolled: number }) => [m.patronId, m.purchased, m.rolled])).toEqual([
      [X, 0, HK(1_000)],
      [Y, HK(2_000), 0],
    ]);
    expect(seen.figures.totals).toMatchObject({ purchased: HK(2_000), rolled: HK(1_000), inHand: HK(1_000) });
    const terms = { from: day(-3), to: day(-3), digest: seen.digest, junketSignatory: 'Jade cashier' };
    const requestId = await approvedStatementRequest(ctx, junketId, terms);
    await ctx
      .as(finance)
      .post(`/v1/junkets/${junketId}/statements`, { ...terms, requestId })
      .expect(201);
  });

  it('a period whose own chips run short but for those carried in from before it: agreed', async () => {
    const seen = (await statement(day(-2), day(-2))).body;
    expect(seen.figures.totals).toMatchObject({ purchased: 0, rolled: HK(1_000), inHand: HK(-1_000) });
    const terms = { from: day(-2), to: day(-2), digest: seen.digest, junketSignatory: 'Jade cashier' };
    const requestId = await approvedStatementRequest(ctx, junketId, terms);
    await ctx
      .as(finance)
      .post(`/v1/junkets/${junketId}/statements`, { ...terms, requestId })
      .expect(201);
  });

  it('more lost than the cage ever issued: one key agrees nothing, and two persons cannot agree it either; nothing written', async () => {
    const seen = (await statement(day(-1), day(-1))).body;
    expect(seen.figures.totals).toMatchObject({ purchased: 0, returned: 0, rolled: HK(1_000), inHand: HK(-1_000), agrees: false });
    const terms = { from: day(-1), to: day(-1), digest: seen.digest, junketSignatory: 'Jade cashier' };
    const before = await databaseSnapshot(ctx.prisma);
    // As before the control: one FINANCE key agrees the month.
    const alone = await ctx.as(finance).post(`/v1/junkets/${junketId}/statements`, terms);
    expect([alone.status, alone.body.code]).toEqual([409, 'STATEMENT_NEEDS_APPROVAL']);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
    // Asked and approved: still refused, the chips lost that nobody bought named.
    const requestId = await approvedStatementRequest(ctx, junketId, terms);
    const approved = await databaseSnapshot(ctx.prisma);
    const refused = await ctx.as(finance).post(`/v1/junkets/${junketId}/statements`, { ...terms, requestId });
    expect([refused.status, refused.body.code]).toEqual([422, 'NEGATIVE_CHIPS_IN_HAND']);
    expect(refused.body.message).toMatch(
      /lost 100000 \(minor units\) more dead chips than the cage issued to them: in the period they bought 0, returned 0 and lost 100000/,
    );
    expect(refused.body.details).toMatchObject({ inHand: HK(-1_000), carriedIn: 0, atEnd: HK(-1_000) });
    expect(await databaseSnapshot(ctx.prisma)).toEqual(approved);
    expect((await statement(day(-1), day(-1))).body.status).toBe('OPEN');
  });
});
