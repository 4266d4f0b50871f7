import { startTestApp, TestContext } from '../../support/app';
import { givenCreditLine, givenKey, givenPatrons, givenShoe, givenTable, givenVoid } from '../../support/builders';

/**
 * A gaming day of money at a US property (docs/domain.md §11): seatings and back-betting, buy-ins
 * in cash, chips and a marker, a void, the cage, a patron who splits cash to stay under the
 * thresholds; then the reports a compliance officer files from, and the drop reconciled.
 */
let ctx: TestContext;
let compliance: string;
let cashier: string;
let finance: string;
beforeAll(async () => {
  ctx = await startTestApp();
  compliance = await givenKey(ctx, 'COMPLIANCE');
  cashier = await givenKey(ctx, 'CASHIER');
  finance = await givenKey(ctx, 'FINANCE');
  await givenPatrons(ctx, 'P-WHALE', 'P-SPLIT', 'P-BACK1', 'P-BACK2', 'P-QUIET', 'P-EVEN', 'P-EURO');
});
afterAll(() => ctx.close());

const BANKER_7 = { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] };
const CHIPS = [{ denomination: 10_000, count: 100 }];

async function givenUsPit(name: string, currency = 'USD') {
  const property = (await ctx.admin.post('/v1/properties', { name, timeZone: 'America/Los_Angeles', gamingDayStartHour: 6 })).body;
  expect(property).toMatchObject({ cashCurrency: 'USD', mtlThreshold: 300_000, ctrThreshold: 1_000_000, structuringFloorBps: 8_000 });
  const table = await givenTable(ctx, { currency, propertyId: property.id, minBet: 2_500, maxBet: 5_000_000 });
  const terminal = await givenKey(ctx, 'TERMINAL', table.id);
  const supervisor = await givenKey(ctx, 'SUPERVISOR');
  const shoe = await givenShoe(ctx, terminal, table.id);
  const session = await ctx.as(supervisor).post(`/v1/tables/${table.id}/sessions`, { opener: CHIPS });
  expect(session.status).toBe(201);
  return { property, table, terminal, supervisor, shoe, session: session.body as { id: string; gamingDay: string } };
}

describe('a gaming day of money', () => {
  it('buy-ins, a marker, the cage and a split: the cash reports say what a compliance officer expects, and the drop reconciles', async () => {
    const pit = await givenUsPit('Casino Mojave');
    const t = ctx.as(pit.terminal);
    const buy = (body: Record<string, unknown>) => t.post(`/v1/tables/${pit.table.id}/buy-ins`, body);
    for (const [patronId, seat] of [
      ['P-WHALE', 1],
      ['P-BACK1', 3],
      ['P-BACK2', 3],
      ['P-SPLIT', 5],
    ] as const) {
      expect((await t.post(`/v1/tables/${pit.table.id}/seatings`, { patronId, seat })).status).toBe(201);
    }

    // The whale buys in 12,000.00 at seat 1 (their card is in: the buy-in is theirs) and takes a 5,000.00 marker.
    const whale = await buy({ kind: 'CASH', amount: 1_200_000, seat: 1 });
    expect(whale.status).toBe(201);
    expect(whale.body).toMatchObject({ patronId: 'P-WHALE', kind: 'CASH', amount: 1_200_000, currency: 'USD', markerId: null });
    expect(whale.body.seatingId).not.toBeNull();
    // Within the credit line the credit department approved for the whale (a second person).
    await givenCreditLine(ctx, pit.property.id, { patronId: 'P-WHALE' }, 500_000);
    const marker = await buy({ kind: 'MARKER', amount: 500_000, seat: 1 });
    expect(marker.body).toMatchObject({ patronId: 'P-WHALE', kind: 'MARKER' });
    // The structurer: four cash buy-ins of 2,900.00, each under the log threshold.
    for (let i = 0; i < 4; i++) expect((await buy({ kind: 'CASH', amount: 290_000, seat: 5 })).status).toBe(201);
    // Back-betting on seat 3: whose the chips are must be said.
    const shared = await buy({ kind: 'CHIPS', amount: 100_000, seat: 3 });
    expect([shared.status, shared.body.code]).toEqual([422, 'PATRON_REQUIRED']);
    expect((await buy({ kind: 'CHIPS', amount: 100_000, seat: 3, patronId: 'P-BACK2' })).body).toMatchObject({ patronId: 'P-BACK2', kind: 'CHIPS' });
    // A walk-up with 500.00 cash: nobody's; with more than 10,000.00 cash the patron must be identified.
    expect((await buy({ kind: 'CASH', amount: 50_000 })).body).toMatchObject({ patronId: null });
    const unidentified = await buy({ kind: 'CASH', amount: 1_000_001 });
    expect([unidentified.status, unidentified.body.code]).toEqual([422, 'IDENTIFICATION_REQUIRED']);

    // Play, and a void: the money trail does not move with it.
    const coup = await t.post(`/v1/shoes/${pit.shoe.id}/coups`, {
      cards: BANKER_7,
      wagers: [
        { seat: 1, betType: 'BANKER', amount: 500_000 },
        { seat: 3, betType: 'PLAYER', amount: 20_000, patronId: 'P-BACK1' },
        { seat: 5, betType: 'BANKER', amount: 100_000 },
      ],
    });
    expect((coup.body.wagers as { patronId: string }[]).map((w) => w.patronId)).toEqual(['P-WHALE', 'P-BACK1', 'P-SPLIT']);
    await givenVoid(ctx, 'coups', coup.body.id, 'Dealt before the bets were down', pit.supervisor, await givenKey(ctx, 'SUPERVISOR'));

    // The cage: the whale pays 2,000.00 of the marker in cash and cashes 11,000.00 of chips.
    const c = ctx.as(cashier);
    const paid = await c.post(`/v1/markers/${marker.body.markerId}/payments`, { amount: 200_000, method: 'CASH' });
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ amount: 500_000, outstanding: 300_000, payments: [{ amount: 200_000, method: 'CASH' }] });
    const over = await c.post(`/v1/markers/${marker.body.markerId}/payments`, { amount: 300_001, method: 'CHECK', reference: 'CHQ 2002' });
    expect([over.status, over.body.code]).toEqual([422, 'MARKER_OVERPAID']);
    const redeemed = await c.post(`/v1/properties/${pit.property.id}/cash-transactions`, { kind: 'CHIP_REDEMPTION', amount: 1_100_000, patronId: 'P-WHALE' });
    expect(redeemed.body).toMatchObject({ direction: 'OUT', kind: 'CHIP_REDEMPTION', currency: 'USD', patronId: 'P-WHALE' });
    expect((await c.get('/v1/markers?patronId=P-WHALE')).body).toMatchObject([{ outstanding: 300_000 }]);

    const day = whale.body.gamingDay as string;
    const report = await ctx.as(compliance).get(`/v1/compliance/cash-report?propertyId=${pit.property.id}&from=${day}&to=${day}`);
    expect(report.status).toBe(200);
    const r = report.body;
    // The log: every single transaction from 3,000.00: the whale's 12,000.00 in and 11,000.00 out.
    expect(r.multipleTransactionLog.map((x: { patronId: string; direction: string; amount: number }) => [x.patronId, x.direction, x.amount])).toEqual([
      ['P-WHALE', 'IN', 1_200_000],
      ['P-WHALE', 'OUT', 1_100_000],
    ]);
    // Report candidates, in and out apart: the whale's 14,000.00 in (buy-in and the cash marker
    // payment) and 11,000.00 out; the structurer's 11,600.00 in.
    expect(r.reportCandidates.map((x: { patronId: string; direction: string; total: number }) => [x.patronId, x.direction, x.total])).toEqual([
      ['P-SPLIT', 'IN', 1_160_000],
      ['P-WHALE', 'IN', 1_400_000],
      ['P-WHALE', 'OUT', 1_100_000],
    ]);
    expect(r.structuring).toMatchObject([{ patronId: 'P-SPLIT', direction: 'IN', total: 1_160_000, pattern: 'SPLIT' }]);
    expect(r.structuring[0].transactions).toHaveLength(4);
    expect(r.thresholds).toEqual({ currency: 'USD', mtl: 300_000, ctr: 1_000_000, structuringFloorBps: 8_000 });

    // The drop: cash 12,000.00 + 4 × 2,900.00 + 500.00 and the 5,000.00 marker = 29,100.00; the chips are not in the box.
    const drop = ctx.as(finance);
    const line = async () => (await drop.get(`/v1/reports/drop-reconciliation?propertyId=${pit.property.id}&from=${day}&to=${day}`)).body;
    expect(await line()).toMatchObject([
      { tableId: pit.table.id, cash: 2_410_000, markers: 500_000, chips: 100_000, expectedDrop: 2_910_000, countedDrop: null, status: 'NOT_COUNTED' },
    ]);
    const closed = await ctx.as(pit.supervisor).post(`/v1/table-sessions/${pit.session.id}/close`, { closer: CHIPS, drop: 2_910_000 });
    expect(closed.status).toBe(200);
    expect(await line()).toMatchObject([{ countedDrop: 2_910_000, difference: 0, status: 'RECONCILED' }]);

    // Every read of the cash reports is in the audit chain.
    const reads = (await ctx.as(await givenKey(ctx, 'AUDITOR')).get(`/v1/audit?stream=patrons&action=patron.read&entityId=${pit.property.id}`)).body as {
      entry: { data: unknown };
    }[];
    expect(reads.map((e) => e.entry.data)).toEqual([{ read: 'cash-report', from: day, to: day }]);
  });

  it('a count that differs from the buy-ins is an exception, in the difference’s sign', async () => {
    const pit = await givenUsPit('Casino Basin');
    await ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/buy-ins`, { kind: 'CASH', amount: 100_000 });
    await ctx.as(pit.supervisor).post(`/v1/table-sessions/${pit.session.id}/close`, { closer: CHIPS, drop: 95_000 });
    const day = pit.session.gamingDay;
    const lines = (await ctx.as(finance).get(`/v1/reports/drop-reconciliation?propertyId=${pit.property.id}&from=${day}&to=${day}`)).body;
    expect(lines).toMatchObject([{ expectedDrop: 100_000, countedDrop: 95_000, difference: -5_000, status: 'EXCEPTION' }]);
  });
});

type Row = { patronId: string | null; direction: string; total?: number; amount?: number; pattern?: string; transactions?: { at: string }[] };

describe('Title 31 as written: more than 10,000.00 is reported, 10,000.00 itself is not', () => {
  it('10,000.00 in a day is no report candidate and needs no patron named; 10,000.01 is and does; the log takes 3,000.00 itself', async () => {
    const pit = await givenUsPit('Casino Exactly');
    const buy = (body: Record<string, unknown>) => ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/buy-ins`, body);
    // A walk-up with exactly 10,000.00: not a reportable transaction, so no identification.
    expect((await buy({ kind: 'CASH', amount: 1_000_000 })).body).toMatchObject({ patronId: null, amount: 1_000_000 });
    const over = await buy({ kind: 'CASH', amount: 1_000_001 });
    expect([over.status, over.body.code]).toEqual([422, 'IDENTIFICATION_REQUIRED']);
    // P-EVEN buys in 3,000.00 and 7,000.00 (10,000.00: logged, "just under" at the threshold, no report),
    // and cashes out 7,000.00 and 3,000.01 (10,000.01: a report candidate).
    for (const amount of [300_000, 700_000]) expect((await buy({ kind: 'CASH', amount, patronId: 'P-EVEN' })).status).toBe(201);
    for (const amount of [700_000, 300_001])
      expect(
        (await ctx.as(cashier).post(`/v1/properties/${pit.property.id}/cash-transactions`, { kind: 'CHIP_REDEMPTION', amount, patronId: 'P-EVEN' })).status,
      ).toBe(201);
    const day = pit.session.gamingDay;
    const r = (await ctx.as(compliance).get(`/v1/compliance/cash-report?propertyId=${pit.property.id}&from=${day}&to=${day}`)).body;
    expect(r.multipleTransactionLog.map((x: Row) => [x.patronId, x.direction, x.amount])).toEqual([
      [null, 'IN', 1_000_000],
      ['P-EVEN', 'IN', 300_000],
      ['P-EVEN', 'IN', 700_000],
      ['P-EVEN', 'OUT', 700_000],
      ['P-EVEN', 'OUT', 300_001],
    ]);
    expect(r.reportCandidates.map((x: Row) => [x.patronId, x.direction, x.total])).toEqual([['P-EVEN', 'OUT', 1_000_001]]);
    expect(r.structuring.map((x: Row) => [x.patronId, x.direction, x.total, x.pattern])).toEqual([['P-EVEN', 'IN', 1_000_000, 'JUST_UNDER']]);
  });
});

describe('structuring across a gaming-day boundary', () => {
  // Records written at chosen times straight into the table, without their audit entries: on a
  // database of their own, so that the chain the other tests verify is not theirs.
  let own: TestContext;
  beforeAll(async () => {
    own = await startTestApp();
    await givenPatrons(own, 'P-NIGHT', 'P-DAWN');
  });
  afterAll(() => own.close());

  it('9,500.00 just before the gaming day ends and 9,500.00 just after are flagged; the same 24 hours and a minute apart are not', async () => {
    const property = (await own.admin.post('/v1/properties', { name: 'Casino Midnight Shift', timeZone: 'America/Los_Angeles', gamingDayStartHour: 6 })).body;
    const compliance = await givenKey(own, 'COMPLIANCE');
    // The cage's records at the times they were made (the service stamps the present, so they are
    // written as it would have written them). The gaming day starts at 06:00 in Los Angeles: 14:00 UTC.
    const cash = async (patronId: string, amount: number, gamingDay: string, at: string) =>
      own.prisma.$executeRawUnsafe(
        `INSERT INTO cash_transactions (property_id, patron_id, direction, kind, amount, currency, gaming_day, at, recorded_by_key_id)
         VALUES ($1::uuid, $2, 'IN', 'DEPOSIT', $3, 'USD', $4::date, $5::timestamptz, 'test')`,
        property.id,
        patronId,
        amount,
        gamingDay,
        at,
      );
    // P-NIGHT: 05:55 on the 24th (the gaming day of the 23rd) and 06:05 (the 24th's).
    await cash('P-NIGHT', 950_000, '2026-11-23', '2026-11-24T13:55:00Z');
    await cash('P-NIGHT', 950_000, '2026-11-24', '2026-11-24T14:05:00Z');
    // P-DAWN: the opening minute of the 23rd's gaming day, and a minute past 24 hours later.
    await cash('P-DAWN', 950_000, '2026-11-23', '2026-11-23T14:00:00Z');
    await cash('P-DAWN', 950_000, '2026-11-24', '2026-11-24T14:01:00Z');
    const report = async (from: string, to: string) =>
      (await own.as(compliance).get(`/v1/compliance/cash-report?propertyId=${property.id}&from=${from}&to=${to}`).expect(200)).body;

    // The report of the 24th: its first transaction is the 23rd's, read for the window.
    const r = await report('2026-11-24', '2026-11-24');
    expect(r.reportCandidates).toEqual([]);
    expect(r.structuring.map((x: Row) => [x.patronId, x.direction, x.total, x.pattern])).toEqual([['P-NIGHT', 'IN', 1_900_000, 'ACROSS_DAYS']]);
    expect(r.structuring[0]).toMatchObject({ gamingDay: '2026-11-24' });
    expect(r.structuring[0].transactions.map((t: { gamingDay: string; at: string }) => [t.gamingDay, t.at])).toEqual([
      ['2026-11-23', '2026-11-24T13:55:00.000Z'],
      ['2026-11-24', '2026-11-24T14:05:00.000Z'],
    ]);
    // The days themselves: 9,500.00 each, one transaction each; no day's report holds a pattern of its own.
    expect(r.patronDays.map((x: Row & { gamingDay: string }) => [x.patronId, x.gamingDay, x.total])).toEqual([
      ['P-DAWN', '2026-11-24', 950_000],
      ['P-NIGHT', '2026-11-24', 950_000],
    ]);
    // The window ends on the 24th: the report of the 23rd alone does not hold it; the two days' does, once.
    expect((await report('2026-11-23', '2026-11-23')).structuring).toEqual([]);
    expect((await report('2026-11-23', '2026-11-24')).structuring.map((x: Row) => [x.patronId, x.pattern])).toEqual([['P-NIGHT', 'ACROSS_DAYS']]);
  });
});

describe('foreign cash and identification', () => {
  it('at a USD property, a EUR table’s cash buy-in is judged at the day’s rate into USD; with no rate, every unnamed one is refused', async () => {
    const pit = await givenUsPit('Casino Euro Pit', 'EUR');
    const buy = (body: Record<string, unknown>) => ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/buy-ins`, body);
    const cage = (body: Record<string, unknown>) => ctx.as(cashier).post(`/v1/properties/${pit.property.id}/cash-transactions`, body);
    // No EUR → USD rate yet: even EUR 100.00 cannot be shown to be under the threshold.
    const noRate = await buy({ kind: 'CASH', amount: 10_000 });
    expect([noRate.status, noRate.body.code]).toEqual([422, 'IDENTIFICATION_REQUIRED']);
    expect(noRate.body.message).toContain('no rate from EUR into USD');
    expect((await buy({ kind: 'CASH', amount: 10_000, patronId: 'P-EURO' })).status).toBe(201);
    // Finance enters 1 EUR = 1.25 USD for the day before: it holds on the gaming day too.
    const day = pit.session.gamingDay;
    const dayBefore = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const finance = await givenKey(ctx, 'FINANCE');
    expect((await ctx.as(finance).post('/v1/exchange-rates', { day: dayBefore, currency: 'EUR', into: 'USD', rate: '1.25' })).status).toBe(201);
    // EUR 8,000.00 is USD 10,000.00: not more than the threshold. EUR 8,000.01 is.
    expect((await buy({ kind: 'CASH', amount: 800_000 })).body).toMatchObject({ patronId: null, currency: 'EUR', amount: 800_000 });
    const over = await buy({ kind: 'CASH', amount: 800_001 });
    expect([over.status, over.body.code]).toEqual([422, 'IDENTIFICATION_REQUIRED']);
    expect(over.body.message).toContain('1.25');
    expect((await buy({ kind: 'CASH', amount: 800_001, patronId: 'P-EURO' })).status).toBe(201);
    // The cage the same: chips cashed in EUR, and yen with no rate at all.
    const cageOver = await cage({ kind: 'CHIP_REDEMPTION', amount: 800_001, currency: 'EUR' });
    expect([cageOver.status, cageOver.body.code]).toEqual([422, 'IDENTIFICATION_REQUIRED']);
    expect((await cage({ kind: 'CHIP_REDEMPTION', amount: 800_000, currency: 'EUR' })).status).toBe(201);
    const yen = await cage({ kind: 'DEPOSIT', amount: 1_000, currency: 'JPY' });
    expect([yen.status, yen.body.code]).toEqual([422, 'IDENTIFICATION_REQUIRED']);
    // A correction of the day's rate is the rate: at 1.30, EUR 8,000.00 is USD 10,400.00.
    expect((await ctx.as(finance).post('/v1/exchange-rates', { day: dayBefore, currency: 'EUR', into: 'USD', rate: '1.30' })).status).toBe(201);
    const corrected = await buy({ kind: 'CASH', amount: 800_000 });
    expect([corrected.status, corrected.body.code]).toEqual([422, 'IDENTIFICATION_REQUIRED']);
  });
});

describe('a buy-in recorded by mistake', () => {
  it('voided by two supervisors: out of the drop and the cash reports, its marker owed no more; a paid marker stands', async () => {
    const pit = await givenUsPit('Casino Keyed Twice');
    const t = ctx.as(pit.terminal);
    const buy = async (body: Record<string, unknown>) => (await t.post(`/v1/tables/${pit.table.id}/buy-ins`, body).expect(201)).body;
    // P-QUIET buys in 9,000.00 in cash, and the terminal keys it twice (18,000.00: a report candidate
    // that is not). Then a 5,000.00 marker that should have been 3,000.00, and the right one.
    const cash = await buy({ kind: 'CASH', amount: 900_000, patronId: 'P-QUIET' });
    const twice = await buy({ kind: 'CASH', amount: 900_000, patronId: 'P-QUIET' });
    await givenCreditLine(ctx, pit.property.id, { patronId: 'P-QUIET' }, 800_000);
    const wrongMarker = await buy({ kind: 'MARKER', amount: 500_000, patronId: 'P-QUIET' });
    const marker = await buy({ kind: 'MARKER', amount: 300_000, patronId: 'P-QUIET' });
    const day = cash.gamingDay as string;
    const candidates = async () =>
      (await ctx.as(compliance).get(`/v1/compliance/cash-report?propertyId=${pit.property.id}&from=${day}&to=${day}`)).body.reportCandidates.map(
        (x: { patronId: string; total: number }) => [x.patronId, x.total],
      );
    expect(await candidates()).toEqual([['P-QUIET', 1_800_000]]);

    // A terminal cannot ask; the supervisor who asks cannot approve; a second supervisor can.
    expect((await t.post(`/v1/buy-ins/${twice.id}/void`, { reason: 'keyed twice' })).status).toBe(403);
    const asked = await ctx.as(pit.supervisor).post(`/v1/buy-ins/${twice.id}/void`, { reason: 'Keyed twice: one buy-in of 9,000.00' });
    expect([asked.status, asked.body.target, asked.body.status]).toEqual([202, 'BUY_IN', 'PENDING']);
    expect((await ctx.as(pit.supervisor).post(`/v1/void-requests/${asked.body.voidRequestId}/approve`, {})).status).toBe(403);
    const second = await givenKey(ctx, 'SUPERVISOR');
    expect((await ctx.as(second).post(`/v1/void-requests/${asked.body.voidRequestId}/approve`, {})).status).toBe(200);
    const again = await ctx.as(pit.supervisor).post(`/v1/buy-ins/${twice.id}/void`, { reason: 'again' });
    expect([again.status, again.body.code]).toEqual([409, 'BUY_IN_ALREADY_VOIDED']);
    expect(await candidates()).toEqual([]);

    // The wrong marker is voided: owed nothing, and the cage takes no payment on it.
    await givenVoid(ctx, 'buy-ins', wrongMarker.id, 'Marker keyed as 5,000.00; the patron signed for 3,000.00', pit.supervisor, second);
    const c = ctx.as(cashier);
    const onVoided = await c.post(`/v1/markers/${wrongMarker.markerId}/payments`, { amount: 100, method: 'CASH' });
    expect([onVoided.status, onVoided.body.code]).toEqual([409, 'MARKER_VOIDED']);
    // A void asked for before the cage was paid is refused at approval, once it has been paid on.
    const late = await ctx.as(pit.supervisor).post(`/v1/buy-ins/${marker.id}/void`, { reason: 'a mistake?' });
    expect(late.status).toBe(202);
    expect((await c.post(`/v1/markers/${marker.markerId}/payments`, { amount: 100_000, method: 'CHECK', reference: 'CHQ 1001' })).status).toBe(201);
    const refused = await ctx.as(second).post(`/v1/void-requests/${late.body.voidRequestId}/approve`, {});
    expect([refused.status, refused.body.code]).toEqual([409, 'MARKER_PAID_ON']);
    const paidOn = await ctx.as(pit.supervisor).post(`/v1/buy-ins/${marker.id}/void`, { reason: 'a mistake?' });
    expect([paidOn.status, paidOn.body.code]).toEqual([409, 'MARKER_PAID_ON']);
    expect((await c.get('/v1/markers?patronId=P-QUIET')).body.filter((m: { tableId: string }) => m.tableId === pit.table.id)).toMatchObject([
      { id: wrongMarker.markerId, amount: 500_000, voided: true, outstanding: 0, payments: [] },
      { id: marker.markerId, amount: 300_000, voided: false, outstanding: 200_000 },
    ]);

    // The table's buy-ins say which were voided; the drop counts 9,000.00 cash and the 3,000.00 marker.
    const listed = (await ctx.as(pit.supervisor).get(`/v1/tables/${pit.table.id}/buy-ins?gamingDay=${day}`)).body;
    expect(listed.map((b: { id: string; voided: boolean }) => [b.id, b.voided])).toEqual([
      [cash.id, false],
      [twice.id, true],
      [wrongMarker.id, true],
      [marker.id, false],
    ]);
    await ctx.as(pit.supervisor).post(`/v1/table-sessions/${pit.session.id}/close`, { closer: CHIPS, drop: 1_200_000 }).expect(200);
    const drop = (await ctx.as(finance).get(`/v1/reports/drop-reconciliation?propertyId=${pit.property.id}&from=${day}&to=${day}`)).body;
    expect(drop).toMatchObject([{ cash: 900_000, markers: 300_000, expectedDrop: 1_200_000, countedDrop: 1_200_000, status: 'RECONCILED' }]);

    // The quarter's exception report lists both voids, with who asked and who approved.
    const [year, month] = day.split('-').map(Number);
    const q = await ctx.as(finance).get(`/v1/reports/quarterly?year=${year}&quarter=${Math.ceil(month / 3)}&propertyId=${pit.property.id}`);
    expect(
      q.body.exceptions.voidedBuyIns.map((v: { buyInId: string; kind: string; amount: number; patronId: string }) => [v.buyInId, v.kind, v.amount, v.patronId]),
    ).toEqual([
      [twice.id, 'CASH', 900_000, 'P-QUIET'],
      [wrongMarker.id, 'MARKER', 500_000, 'P-QUIET'],
    ]);
    expect(q.body.exceptions.voidedBuyIns[0]).toMatchObject({ reason: 'Keyed twice: one buy-in of 9,000.00', tableCode: pit.table.code });
    // The chain holds the void, and verifies.
    const auditor = ctx.as(await givenKey(ctx, 'AUDITOR'));
    const voids = (await auditor.get(`/v1/audit?stream=${pit.table.id}&action=buyIn.void`)).body as { entry: { entityId: string; data: { reason: string } } }[];
    expect(voids.map((e) => e.entry.entityId)).toEqual([twice.id, wrongMarker.id]);
    expect((await auditor.get('/v1/audit/verify')).body).toMatchObject({ ok: true, problems: [] });
  });

  it('refusals: an unknown or malformed buy-in, no reason, an unknown field: a clear 4xx, no request written', async () => {
    const pit = await givenUsPit('Casino Void Refusals');
    const other = await givenUsPit('Casino Void Refusals 2');
    const theirs = (await ctx.as(other.terminal).post(`/v1/tables/${other.table.id}/buy-ins`, { kind: 'CASH', amount: 100 }).expect(201)).body;
    const s = ctx.as(pit.supervisor);
    const pending = async () => (await s.get('/v1/void-requests?status=PENDING')).body.length;
    const before = await pending();
    const cases: [string, unknown, number, string][] = [
      ['/v1/buy-ins/00000000-0000-4000-8000-000000000000/void', { reason: 'keyed twice' }, 404, 'NOT_FOUND'],
      ['/v1/buy-ins/not-a-uuid/void', { reason: 'keyed twice' }, 400, 'VALIDATION_FAILED'],
      [`/v1/buy-ins/${theirs.id}/void`, {}, 400, 'VALIDATION_FAILED'],
      [`/v1/buy-ins/${theirs.id}/void`, { reason: 'keyed twice', amount: 5 }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [url, body, status, code] of cases) {
      const res = await s.post(url, body);
      expect([url, res.status, res.body.code]).toEqual([url, status, code]);
    }
    expect(await pending()).toBe(before);
  });
});

describe('refusals: a clear 4xx, nothing written', () => {
  it('bad amounts, unknown patrons, a marker for nobody, a closed table, other tables and roles', async () => {
    const pit = await givenUsPit('Casino Refusal');
    const t = ctx.as(pit.terminal);
    const path = `/v1/tables/${pit.table.id}/buy-ins`;
    const refusals: [unknown, number, string][] = [
      [{ kind: 'CASH', amount: -100 }, 400, 'VALIDATION_FAILED'],
      [{ kind: 'CASH', amount: 0 }, 400, 'VALIDATION_FAILED'],
      [{ kind: 'CASH', amount: 10.5 }, 400, 'VALIDATION_FAILED'],
      [{ kind: 'CASH', amount: '100' }, 400, 'VALIDATION_FAILED'],
      [{ kind: 'CASH', amount: 1e13 }, 400, 'VALIDATION_FAILED'],
      [{ kind: 'COUPONS', amount: 100 }, 400, 'VALIDATION_FAILED'],
      [{ kind: 'CASH', amount: 100, seat: 0 }, 400, 'VALIDATION_FAILED'],
      [{ kind: 'CASH', amount: 100, note: 'x' }, 400, 'VALIDATION_FAILED'],
      [{ kind: 'CASH', amount: 100, patronId: 'P-NOBODY' }, 422, 'UNKNOWN_PATRON'],
      [{ kind: 'MARKER', amount: 100_000 }, 422, 'IDENTIFICATION_REQUIRED'],
      [{ kind: 'MARKER', amount: 100_000, seat: 7 }, 422, 'IDENTIFICATION_REQUIRED'],
    ];
    for (const [body, status, code] of refusals) {
      const res = await t.post(path, body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), status, code]);
    }
    const other = await givenUsPit('Casino Refusal 2');
    const theirs = await ctx.as(other.terminal).post(path, { kind: 'CASH', amount: 100 });
    expect([theirs.status, theirs.body.code]).toEqual([403, 'FORBIDDEN']);
    const cageByTerminal = await t.post(`/v1/properties/${pit.property.id}/cash-transactions`, { kind: 'DEPOSIT', amount: 100 });
    expect([cageByTerminal.status, cageByTerminal.body.code]).toEqual([403, 'FORBIDDEN']);
    const c = ctx.as(cashier);
    const cageRefusals: [string, unknown, number, string][] = [
      [`/v1/properties/${pit.property.id}/cash-transactions`, { kind: 'CHIP_REDEMPTION', amount: 1_000_001 }, 422, 'IDENTIFICATION_REQUIRED'],
      [`/v1/properties/${pit.property.id}/cash-transactions`, { kind: 'CHIP_REDEMPTION', amount: -5 }, 400, 'VALIDATION_FAILED'],
      [`/v1/properties/${pit.property.id}/cash-transactions`, { kind: 'BUY_IN', amount: 5 }, 400, 'VALIDATION_FAILED'],
      [`/v1/properties/${pit.property.id}/cash-transactions`, { kind: 'DEPOSIT', amount: 5, currency: 'usd' }, 400, 'VALIDATION_FAILED'],
      [`/v1/properties/${pit.property.id}/cash-transactions`, { kind: 'DEPOSIT', amount: 5, patronId: 'P-NOBODY' }, 422, 'UNKNOWN_PATRON'],
      ['/v1/properties/00000000-0000-4000-8000-000000000000/cash-transactions', { kind: 'DEPOSIT', amount: 5 }, 404, 'NOT_FOUND'],
      ['/v1/markers/00000000-0000-4000-8000-000000000000/payments', { amount: 5, method: 'CASH' }, 404, 'NOT_FOUND'],
      ['/v1/markers/not-a-uuid/payments', { amount: 5, method: 'CASH' }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [url, body, status, code] of cageRefusals) {
      const res = await c.post(url, body);
      expect([url, res.status, res.body.code]).toEqual([url, status, code]);
    }
    const reportByHost = await ctx
      .as(await givenKey(ctx, 'HOST'))
      .get(`/v1/compliance/cash-report?propertyId=${pit.property.id}&from=2026-11-01&to=2026-11-30`);
    expect([reportByHost.status, reportByHost.body.code]).toEqual([403, 'FORBIDDEN']);
    const badRange = await ctx.as(compliance).get(`/v1/compliance/cash-report?propertyId=${pit.property.id}&from=2026-11-30&to=2026-11-01`);
    expect([badRange.status, badRange.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const badThresholds = await ctx.admin.post('/v1/properties', {
      name: 'Casino Upside Down',
      timeZone: 'UTC',
      gamingDayStartHour: 6,
      mtlThreshold: 2_000_000,
    });
    expect([badThresholds.status, badThresholds.body.code]).toEqual([400, 'VALIDATION_FAILED']);

    // A closed table takes no buy-in.
    await t.post(`/v1/shoes/${pit.shoe.id}/close`, {});
    expect((await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/close`, {})).status).toBe(200);
    const closed = await ctx.as(pit.supervisor).post(path, { kind: 'CASH', amount: 100 });
    expect([closed.status, closed.body.code]).toEqual([409, 'TABLE_CLOSED']);

    // Nothing of all that was written.
    expect((await t.get(`${path}?gamingDay=${pit.session.gamingDay}`)).body).toEqual([]);
    const report = (
      await ctx.as(compliance).get(`/v1/compliance/cash-report?propertyId=${pit.property.id}&from=${pit.session.gamingDay}&to=${pit.session.gamingDay}`)
    ).body;
    expect([report.multipleTransactionLog, report.patronDays]).toEqual([[], []]);
  });
});
