import { databaseSnapshot, startTestApp, TestContext } from '../../support/app';
import { approveCredit, givenCreditOfficers, givenKey, givenPatrons, givenPit } from '../../support/builders';
import { givenProgramme } from '../../support/credit-acts';

/**
 * The casino's credit under its internal controls (docs/domain/credit.md): what one key could do
 * with the casino's money before (issue 49, findings 3 and 4), refused now; credit acts requested by
 * one person and approved by others, the casino manager last over the threshold; markers within an
 * approved line; chips only against a marker or front money that exists; repayments that name what
 * pays them; markers aged and written off. Amounts in minor units (cents).
 */
let ctx: TestContext;
let propertyId: string;
let finance: string;
let cashier: string;
let officers: { requester: string; approver: string; manager: string };
const P = process.pid;
const HK = (dollars: number) => dollars * 100;

beforeAll(async () => {
  ctx = await startTestApp();
  propertyId = (
    await ctx.admin.post('/v1/properties', { name: `Credit house ${P}`, timeZone: 'Asia/Macau', gamingDayStartHour: 6, cashCurrency: 'HKD' }).expect(201)
  ).body.id;
  [finance, cashier] = [await givenKey(ctx, 'FINANCE'), await givenKey(ctx, 'CASHIER')];
  officers = await givenCreditOfficers(ctx);
}, 120_000);
afterAll(async () => ctx?.close());

const request = (key: string, body: object) => ctx.as(key).post(`/v1/properties/${propertyId}/credit-requests`, { reason: 'spec', ...body });
const decide = (key: string, id: string, how: 'approve' | 'reject', note?: string) =>
  ctx.as(key).post(`/v1/credit-requests/${id}/${how}`, note === undefined ? {} : { note });
const exchange = (card: string, body: object) => ctx.as(cashier).post(`/v1/patrons/${card}/chip-exchanges`, { currency: 'HKD', propertyId, ...body });

describe('money that left the casino on one key (issue 49, findings 3 and 4)', () => {
  it('a junket opened with a HK$10,000,000,000.00 line has no credit until a second person approves it; its marker for all of it is refused', async () => {
    const created = await ctx
      .as(finance)
      .post(`/v1/properties/${propertyId}/junkets`, { code: `HUGE-${P}`, name: 'Huge', currency: 'HKD', creditLimit: HK(10_000_000_000) })
      .expect(201);
    expect(created.body.creditLimit).toBe(0);
    const before = await databaseSnapshot(ctx.prisma);
    const marker = await ctx.as(cashier).post(`/v1/junkets/${created.body.id}/account`, { kind: 'MARKER', amount: HK(10_000_000_000) });
    expect([marker.status, marker.body.code]).toEqual([422, 'JUNKET_CREDIT_LIMIT']);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
    // The line waits for a second credit officer and, over the threshold, the casino manager last.
    const [asked] = (await ctx.as(finance).get(`/v1/properties/${propertyId}/credit-requests?subject=${created.body.id}`).expect(200)).body;
    expect(asked).toMatchObject({ act: 'LIMIT', status: 'PENDING', approvalsNeeded: 2, finalRole: 'CASINO_MANAGER' });
    // The key that opened the junket cannot approve its line.
    expect((await decide(finance, asked.id, 'approve')).status).toBe(403);
  });

  it('an unreferenced wire repayment cannot clear a junket’s debt, and one over the threshold waits for a second person', async () => {
    const junket = (
      await ctx
        .as(finance)
        .post(`/v1/properties/${propertyId}/junkets`, { code: `OWES-${P}`, name: 'Owes', currency: 'HKD', creditLimit: HK(500_000) })
        .expect(201)
    ).body.id as string;
    const [line] = (await ctx.as(finance).get(`/v1/properties/${propertyId}/credit-requests?subject=${junket}`).expect(200)).body;
    // HK$500,000.00 is under the default threshold of HK$1,000,000.00: one second person approves it.
    expect(line).toMatchObject({ approvalsNeeded: 1, finalRole: null });
    expect((await decide(officers.approver, line.id, 'approve').then((r) => r.body)).status).toBe('APPROVED');
    await ctx
      .as(cashier)
      .post(`/v1/junkets/${junket}/account`, { kind: 'MARKER', amount: HK(400_000) })
      .expect(201);
    const before = await databaseSnapshot(ctx.prisma);
    const bare = await ctx.as(cashier).post(`/v1/junkets/${junket}/account`, { kind: 'REPAYMENT', amount: HK(400_000), method: 'WIRE' });
    expect([bare.status, bare.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(bare.body.message).toMatch(/reference/);
    const alone = await ctx
      .as(cashier)
      .post(`/v1/junkets/${junket}/account`, { kind: 'REPAYMENT', amount: HK(400_000), method: 'WIRE', reference: 'SWIFT X1' });
    expect([alone.status, alone.body.code]).toEqual([409, 'REPAYMENT_NEEDS_APPROVAL']);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
    // Requested by the cage, approved by a credit officer, recorded as approved (and only as approved, once).
    const wire = { amount: HK(400_000), method: 'WIRE', reference: 'SWIFT X1' };
    const asked = (await request(cashier, { act: 'REPAYMENT', junketId: junket, ...wire }).expect(201)).body;
    const early = await ctx.as(cashier).post(`/v1/junkets/${junket}/account`, { kind: 'REPAYMENT', ...wire, requestId: asked.id });
    expect([early.status, early.body.code]).toEqual([409, 'REPAYMENT_NEEDS_APPROVAL']);
    expect((await decide(cashier, asked.id, 'approve')).status).toBe(403);
    await decide(officers.approver, asked.id, 'approve').expect(200);
    const other = await ctx.as(cashier).post(`/v1/junkets/${junket}/account`, { kind: 'REPAYMENT', ...wire, reference: 'SWIFT X2', requestId: asked.id });
    expect([other.status, other.body.code]).toEqual([422, 'NOT_AS_APPROVED']);
    expect(other.body.message).toContain('reference "SWIFT X1" was approved, not "SWIFT X2"');
    const paid = await ctx
      .as(cashier)
      .post(`/v1/junkets/${junket}/account`, { kind: 'REPAYMENT', ...wire, requestId: asked.id })
      .expect(201);
    expect(paid.body).toMatchObject({ kind: 'REPAYMENT', reference: 'SWIFT X1', balance: 0 });
    // Paid once: the request again is refused as paid (its time said), before what the account owes is looked at.
    const twice = await ctx.as(cashier).post(`/v1/junkets/${junket}/account`, { kind: 'REPAYMENT', ...wire, requestId: asked.id });
    expect([twice.status, twice.body.code]).toEqual([409, 'CONFLICT']);
    expect(twice.body.message).toContain('was recorded already');
    expect((await ctx.as(cashier).get(`/v1/credit-requests/${asked.id}`).expect(200)).body.recordedAt).toEqual(expect.any(String));
    // A request of another act quoted for a repayment is not what was approved either.
    const limit = (await request(officers.requester, { act: 'LIMIT', junketId: junket, creditLimit: HK(1) }).expect(201)).body;
    const wrongAct = await ctx.as(cashier).post(`/v1/junkets/${junket}/account`, { kind: 'REPAYMENT', ...wire, requestId: limit.id });
    expect([wrongAct.status, wrongAct.body.code]).toEqual([422, 'NOT_AS_APPROVED']);
  });

  it('dead chips against a marker that does not exist, or front money never deposited, are refused; a junket’s chips are drawn on its markers', async () => {
    const [solo, member] = [`CR-SOLO-${P}`, `CR-MEMBER-${P}`];
    await givenPatrons(ctx, solo, member);
    const before = await databaseSnapshot(ctx.prisma);
    const noLine = await exchange(solo, { kind: 'PURCHASE', amount: HK(550_000), settledIn: 'MARKER' });
    expect([noLine.status, noLine.body.code]).toEqual([422, 'NO_CREDIT_LINE']);
    const noMoney = await exchange(solo, { kind: 'PURCHASE', amount: HK(550_000), settledIn: 'FRONT_MONEY' });
    expect([noMoney.status, noMoney.body.code]).toEqual([422, 'FRONT_MONEY_SHORT']);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
    // A junket with no markers: its member's chips on credit are refused; after a marker, up to it.
    await givenProgramme(ctx, finance, propertyId, { code: `CR-ROLL-${P}`, name: 'Roll', basis: 'ROLLING', commissionBps: 100, effectiveFrom: todayAt() });
    const junket = (
      await ctx
        .as(finance)
        .post(`/v1/properties/${propertyId}/junkets`, { code: `CHIPS-${P}`, name: 'Chips', currency: 'HKD', creditLimit: HK(600_000) })
        .expect(201)
    ).body.id as string;
    const [line] = (await ctx.as(finance).get(`/v1/properties/${propertyId}/credit-requests?subject=${junket}`).expect(200)).body;
    await approveCredit(ctx, line.id);
    await ctx
      .as(await givenKey(ctx, 'HOST'))
      .post(`/v1/junkets/${junket}/members`, { patronId: member, programme: `CR-ROLL-${P}` })
      .expect(201);
    const undrawn = await exchange(member, { kind: 'PURCHASE', amount: HK(550_000), settledIn: 'MARKER' });
    expect([undrawn.status, undrawn.body.code]).toEqual([422, 'JUNKET_MARKERS_DRAWN']);
    await ctx
      .as(cashier)
      .post(`/v1/junkets/${junket}/account`, { kind: 'MARKER', amount: HK(500_000) })
      .expect(201);
    expect((await exchange(member, { kind: 'PURCHASE', amount: HK(550_000), settledIn: 'MARKER' })).body.code).toBe('JUNKET_MARKERS_DRAWN');
    const drawn = await exchange(member, { kind: 'PURCHASE', amount: HK(500_000), settledIn: 'MARKER' }).expect(201);
    expect(drawn.body).toMatchObject({ junketId: junket, markerId: null });
    expect((await exchange(member, { kind: 'PURCHASE', amount: 1, settledIn: 'MARKER' })).body.code).toBe('JUNKET_MARKERS_DRAWN');
    // Front money deposited is drawn down to nothing, never below.
    await ctx
      .as(cashier)
      .post(`/v1/properties/${propertyId}/cash-transactions`, { kind: 'DEPOSIT', amount: HK(30_000), currency: 'HKD', patronId: solo })
      .expect(201);
    await exchange(solo, { kind: 'PURCHASE', amount: HK(20_000), settledIn: 'FRONT_MONEY' }).expect(201);
    expect((await exchange(solo, { kind: 'PURCHASE', amount: HK(10_001), settledIn: 'FRONT_MONEY' })).body.code).toBe('FRONT_MONEY_SHORT');
    const out = await ctx
      .as(cashier)
      .post(`/v1/properties/${propertyId}/cash-transactions`, { kind: 'WITHDRAWAL', amount: HK(10_001), currency: 'HKD', patronId: solo });
    expect([out.status, out.body.code]).toEqual([422, 'FRONT_MONEY_SHORT']);
    await exchange(solo, { kind: 'PURCHASE', amount: HK(10_000), settledIn: 'FRONT_MONEY' }).expect(201);
  });
});

function todayAt(): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Macau',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  })
    .formatToParts(new Date(Date.now() - 6 * 3_600_000))
    .reduce<Record<string, string>>((o, p) => ({ ...o, [p.type]: p.value }), {});
  return `${parts.year}-${parts.month}-${parts.day}`;
}

describe('a patron’s credit line, markers within it, and the ageing', () => {
  const card = `CR-WHALE-${P}`;
  let pit: Awaited<ReturnType<typeof givenPit>>;
  beforeAll(async () => {
    await givenPatrons(ctx, card);
    pit = await givenPit(ctx, { propertyId, currency: 'HKD', minBet: 100, maxBet: HK(1_000_000) });
  });
  const buyMarker = (amount: number) => ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/buy-ins`, { kind: 'MARKER', amount, patronId: card });

  it('no line: no marker; a line is in force only once a second person approves it, and a marker fits within it', async () => {
    expect((await buyMarker(HK(10_000))).body.code).toBe('NO_CREDIT_LINE');
    const asked = (await request(officers.requester, { act: 'LIMIT', patronId: card, creditLimit: HK(50_000) }).expect(201)).body;
    expect(asked).toMatchObject({
      act: 'LIMIT',
      subject: card,
      status: 'PENDING',
      approvalsNeeded: 1,
      terms: { currency: 'HKD', creditLimit: String(HK(50_000)) },
    });
    expect((await buyMarker(HK(10_000))).body.code).toBe('NO_CREDIT_LINE');
    const self = await decide(officers.requester, asked.id, 'approve');
    expect([self.status, self.body.code]).toEqual([403, 'SAME_PERSON']);
    const approved = await decide(officers.approver, asked.id, 'approve').expect(200);
    expect(approved.body).toMatchObject({ status: 'APPROVED', decisions: [{ step: 1, approve: true, role: 'FINANCE' }] });
    const again = await decide(officers.manager, asked.id, 'approve');
    expect([again.status, again.body.code]).toEqual([409, 'CREDIT_REQUEST_DECIDED']);
    await buyMarker(HK(30_000)).expect(201);
    const before = await databaseSnapshot(ctx.prisma);
    const over = await buyMarker(HK(20_001));
    expect([over.status, over.body.code]).toEqual([422, 'CREDIT_LIMIT_EXCEEDED']);
    expect(over.body.details).toMatchObject({ outstanding: HK(30_000), creditLimit: HK(50_000), available: HK(20_000) });
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
    const line = (await ctx.as(cashier).get(`/v1/properties/${propertyId}/credit-lines/${card}`).expect(200)).body;
    expect(line).toMatchObject({ currency: 'HKD', creditLimit: HK(50_000), outstanding: HK(30_000), available: HK(20_000) });
  });

  it('a line over the threshold needs the casino manager last, a third person; a rejection ends a request', async () => {
    const big = (await request(officers.requester, { act: 'LIMIT', patronId: card, creditLimit: HK(2_000_000) }).expect(201)).body;
    expect(big).toMatchObject({ approvalsNeeded: 2, finalRole: 'CASINO_MANAGER' });
    // The second approval must be the casino manager's: another credit officer cannot complete it.
    const third = await givenKey(ctx, 'FINANCE');
    await decide(officers.approver, big.id, 'approve').expect(200);
    const notManager = await decide(third, big.id, 'approve');
    expect([notManager.status, notManager.body.message]).toEqual([403, expect.stringMatching(/casino manager/)]);
    // Nor can the first approver approve twice.
    expect((await decide(officers.approver, big.id, 'approve')).status).toBe(403);
    expect((await decide(officers.manager, big.id, 'approve').expect(200)).body.status).toBe('APPROVED');
    expect((await ctx.as(cashier).get(`/v1/properties/${propertyId}/credit-lines/${card}`).expect(200)).body.creditLimit).toBe(HK(2_000_000));
    const lower = (await request(officers.requester, { act: 'LIMIT', patronId: card, creditLimit: 0 }).expect(201)).body;
    expect((await decide(officers.approver, lower.id, 'reject')).status).toBe(400);
    expect((await decide(officers.approver, lower.id, 'reject', 'the patron asked to keep it').expect(200)).body.status).toBe('REJECTED');
    expect((await decide(officers.manager, lower.id, 'approve')).body.code).toBe('CREDIT_REQUEST_DECIDED');
    expect((await ctx.as(cashier).get(`/v1/properties/${propertyId}/credit-lines/${card}`).expect(200)).body.creditLimit).toBe(HK(2_000_000));
  });

  it('a marker ages into its buckets; written off under two-person approval it owes nothing and takes no payment', async () => {
    const ageing = (asOf?: string) =>
      ctx
        .as(cashier)
        .get(`/v1/properties/${propertyId}/marker-ageing${asOf ? `?asOf=${asOf}` : ''}`)
        .expect(200);
    const today = (await ageing()).body.asOf as string;
    const later = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    const mine = (body: { markers: { patronId: string; bucket: string; outstanding: number }[] }) => body.markers.filter((m) => m.patronId === card);
    expect(mine((await ageing()).body)).toEqual([expect.objectContaining({ bucket: 'CURRENT', outstanding: HK(30_000), ageDays: 0 })]);
    expect(mine((await ageing(later(30))).body)[0].bucket).toBe('CURRENT');
    expect(mine((await ageing(later(31))).body)[0].bucket).toBe('DAYS_31_60');
    expect(mine((await ageing(later(61))).body)[0].bucket).toBe('DAYS_61_90');
    const old = (await ageing(later(91))).body;
    expect(mine(old)[0].bucket).toBe('OVER_90');
    expect(old.totals).toEqual([expect.objectContaining({ currency: 'HKD', over90: HK(30_000), total: HK(30_000) })]);
    const [marker] = (await ctx.as(cashier).get(`/v1/markers?patronId=${card}`).expect(200)).body;
    await ctx
      .as(cashier)
      .post(`/v1/markers/${marker.id}/payments`, { amount: HK(5_000), method: 'CHECK', reference: 'CHQ 55' })
      .expect(201);
    const off = (await request(officers.requester, { act: 'WRITE_OFF', markerId: marker.id }).expect(201)).body;
    expect(off.terms).toMatchObject({ amount: String(HK(25_000)) });
    expect((await decide(officers.requester, off.id, 'approve')).status).toBe(403);
    await decide(officers.approver, off.id, 'approve').expect(200);
    const [after] = (await ctx.as(cashier).get(`/v1/markers?patronId=${card}`).expect(200)).body;
    expect(after).toMatchObject({ writtenOff: HK(25_000), outstanding: 0 });
    const paid = await ctx.as(cashier).post(`/v1/markers/${marker.id}/payments`, { amount: 100, method: 'CASH' });
    expect([paid.status, paid.body.code]).toEqual([409, 'MARKER_WRITTEN_OFF']);
    expect(mine((await ageing(later(91))).body)).toEqual([]);
    const twice = await request(officers.requester, { act: 'WRITE_OFF', markerId: marker.id });
    expect([twice.status, twice.body.code]).toEqual([409, 'CONFLICT']);
  });

  it('a marker deposited with the patron’s bank under two-person approval, once; the bank’s payment then pays it', async () => {
    const marker = (await buyMarker(HK(8_000)).expect(201)).body.markerId as string;
    const asked = (await request(officers.requester, { act: 'DEPOSIT', markerId: marker, reference: 'BANK LOT 7' }).expect(201)).body;
    expect(asked).toMatchObject({ act: 'DEPOSIT', approvalsNeeded: 1, terms: { amount: String(HK(8_000)), reference: 'BANK LOT 7' } });
    expect((await decide(officers.requester, asked.id, 'approve')).status).toBe(403);
    expect((await decide(officers.approver, asked.id, 'approve').expect(200)).body.status).toBe('APPROVED');
    const aged = (await ctx.as(cashier).get(`/v1/properties/${propertyId}/marker-ageing`).expect(200)).body.markers.find(
      (m: { id: string }) => m.id === marker,
    );
    expect(aged.depositedAt).toEqual(expect.any(String));
    const again = await request(officers.requester, { act: 'DEPOSIT', markerId: marker });
    expect([again.status, again.body.code]).toEqual([409, 'CONFLICT']);
    await ctx
      .as(cashier)
      .post(`/v1/markers/${marker}/payments`, { amount: HK(8_000), method: 'CHECK', reference: 'BANK LOT 7' })
      .expect(201);
    const paid = (await ctx.as(cashier).get(`/v1/properties/${propertyId}/marker-ageing`).expect(200)).body.markers.find(
      (m: { id: string }) => m.id === marker,
    );
    expect(paid).toBeUndefined();
  });

  it('a request is judged again at its last approval: a line asked under a higher threshold waits for the casino manager once the policy lowers it', async () => {
    const policy = (seniorLimitThreshold: number) => ({
      act: 'POLICY',
      seniorLimitThreshold,
      repaymentThreshold: 1_000_000,
      rollingCommissionCapBps: 150,
      winLossCommissionCapBps: 5_000,
    });
    const setPolicy = async (threshold: number) => {
      const asked = (await request(officers.requester, policy(threshold)).expect(201)).body;
      expect(asked).toMatchObject({ approvalsNeeded: 2, finalRole: 'CASINO_MANAGER' });
      expect((await approveCredit(ctx, asked.id)).status).toBe('APPROVED');
    };
    await setPolicy(HK(5_000_000));
    const line = (await request(officers.requester, { act: 'LIMIT', patronId: card, creditLimit: HK(3_000_000) }).expect(201)).body;
    expect(line).toMatchObject({ approvalsNeeded: 1, finalRole: null });
    await setPolicy(HK(1_000_000));
    const before = await databaseSnapshot(ctx.prisma);
    const stale = await decide(officers.approver, line.id, 'approve');
    expect([stale.status, stale.body.code]).toEqual([409, 'CREDIT_REQUEST_STALE']);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
    expect((await decide(officers.approver, line.id, 'reject', 'asked again under the policy in force').expect(200)).body.status).toBe('REJECTED');
  });

  it('two deposits asked for one marker: the second approval is refused with a clear word, and the request can be rejected', async () => {
    const marker = (await buyMarker(HK(1_000)).expect(201)).body.markerId as string;
    const first = (await request(officers.requester, { act: 'DEPOSIT', markerId: marker }).expect(201)).body;
    const second = (await request(officers.requester, { act: 'DEPOSIT', markerId: marker }).expect(201)).body;
    await decide(officers.approver, first.id, 'approve').expect(200);
    const again = await decide(officers.approver, second.id, 'approve');
    expect([again.status, again.body.code, again.body.message]).toEqual([409, 'CONFLICT', expect.stringMatching(/deposited already.*reject this request/)]);
    expect((await decide(officers.approver, second.id, 'reject', 'deposited under the first request').expect(200)).body.status).toBe('REJECTED');
  });

  it('refuses what a request cannot be: wrong fields for its act, the cage asking for credit, a patron nobody registered', async () => {
    const before = await databaseSnapshot(ctx.prisma);
    const cases: [string, string, object, number, string][] = [
      ['a line for nobody', officers.requester, { act: 'LIMIT', creditLimit: 100 }, 400, 'VALIDATION_FAILED'],
      [
        'a line for both',
        officers.requester,
        { act: 'LIMIT', patronId: card, junketId: '00000000-0000-4000-8000-000000000009', creditLimit: 100 },
        400,
        'VALIDATION_FAILED',
      ],
      ['a line with an amount', officers.requester, { act: 'LIMIT', patronId: card, creditLimit: 100, amount: 5 }, 400, 'VALIDATION_FAILED'],
      ['an unknown patron', officers.requester, { act: 'LIMIT', patronId: 'NOBODY-AT-ALL', creditLimit: 100 }, 422, 'UNKNOWN_PATRON'],
      ['the cage asks for a line', cashier, { act: 'LIMIT', patronId: card, creditLimit: 100 }, 403, 'FORBIDDEN'],
      ['a policy by halves', officers.requester, { act: 'POLICY', repaymentThreshold: 5 }, 400, 'VALIDATION_FAILED'],
      ['a write-off of no marker', officers.requester, { act: 'WRITE_OFF', markerId: '00000000-0000-4000-8000-000000000009' }, 404, 'NOT_FOUND'],
      ['a negative line', officers.requester, { act: 'LIMIT', patronId: card, creditLimit: -1 }, 400, 'VALIDATION_FAILED'],
      ['a reason of a zero-width space', officers.requester, { act: 'LIMIT', patronId: card, creditLimit: 100, reason: '\u200b' }, 400, 'VALIDATION_FAILED'],
      ['a reason of spaces', officers.requester, { act: 'LIMIT', patronId: card, creditLimit: 100, reason: ' \u3000\t ' }, 400, 'VALIDATION_FAILED'],
      [
        'a reason of direction marks',
        officers.requester,
        { act: 'LIMIT', patronId: card, creditLimit: 100, reason: '\u200e\u200f\u2060' },
        400,
        'VALIDATION_FAILED',
      ],
    ];
    for (const [what, key, body, status, code] of cases) {
      const res = await request(key, body);
      expect([what, res.status, res.body.code]).toEqual([what, status, code]);
    }
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
  });
});
