import { Client } from 'pg';
import { gamingDayOf } from '../../../src/domain';
import { startTestApp, TestContext } from '../../support/app';
import { approveCredit, givenCreditOfficers, givenKey, givenPatrons, givenShoe, givenTable } from '../../support/builders';
import { agreeStatement, givenProgramme } from '../../support/credit-acts';
import { asOwner } from '../../support/owner';

/**
 * Junkets (docs/domain.md §16): the worked example of a junket's monthly statement with two
 * programmes, its agreement and lock, and what may not happen. Amounts are HK$ cents.
 */
let ctx: TestContext;
let su: Client;
let finance: string;
let cashier: string;
let host: string;
let supervisor: string;
let supervisor2: string;
let terminal: string;
let propertyId: string;
let tableId: string;
let shoeId: string;
let junketId: string;
let today: string;

const BANKER_WINS = { player: ['KS', 'QH'], banker: ['9S', 'KD'] };
const PLAYER_WINS = { player: ['8S', 'KH'], banker: ['QS', 'JD'] };
const TIE = { player: ['9H', 'KC'], banker: ['9C', 'QD'] };
const P = process.pid;
const [A, B, C, D] = ['A', 'B', 'C', 'D'].map((x) => `JK${x}-${P}`);
const HK = (dollars: number) => dollars * 100;

const coup = (cards: object, wagers: object[]) => ctx.as(terminal).post(`/v1/shoes/${shoeId}/coups`, { cards, wagers }).expect(201);
const dead = (patronId: string, seat: number, betType: string, dollars: number) => ({ seat, betType, amount: HK(dollars), patronId, chipKind: 'DEAD' });
const exchange = (card: string, body: object) => ctx.as(cashier).post(`/v1/patrons/${card}/chip-exchanges`, { currency: 'HKD', propertyId, ...body });
const statement = (from: string, to: string) => ctx.as(finance).get(`/v1/junkets/${junketId}/statement?from=${from}&to=${to}`);
const entry = (body: object) => ctx.as(cashier).post(`/v1/junkets/${junketId}/account`, body);
/** A repayment over the property's threshold, as the cage records it: requested, approved by a credit officer, then recorded quoting the request. */
const approvedRepayment = async (body: { amount: number; method: string; reference?: string }) => {
  const asked = await ctx
    .as(cashier)
    .post(`/v1/properties/${propertyId}/credit-requests`, { act: 'REPAYMENT', junketId, ...body, reason: 'the junket repays' });
  if (asked.status !== 201) throw new Error(JSON.stringify(asked.body));
  expect((await approveCredit(ctx, asked.body.id)).status).toBe('APPROVED');
  return entry({ kind: 'REPAYMENT', ...body, requestId: asked.body.id });
};
/** Front money deposited at the cage for a patron. */
const deposit = (patronId: string, amount: number) =>
  ctx.as(cashier).post(`/v1/properties/${propertyId}/cash-transactions`, { kind: 'DEPOSIT', amount, currency: 'HKD', patronId }).expect(201);
const coupIds: string[] = [];

beforeAll(async () => {
  ctx = await startTestApp();
  [finance, cashier, host, supervisor, supervisor2] = await Promise.all(
    ['FINANCE', 'CASHIER', 'HOST', 'SUPERVISOR', 'SUPERVISOR'].map((r) => givenKey(ctx, r)),
  );
  propertyId = (
    await ctx.admin.post('/v1/properties', { name: `Junket house ${P}`, timeZone: 'Asia/Macau', gamingDayStartHour: 6, cashCurrency: 'HKD' }).expect(201)
  ).body.id;
  today = gamingDayOf(new Date(), 'Asia/Macau', 6);
  const table = await givenTable(ctx, { propertyId, currency: 'HKD', minBet: HK(1_000), maxBet: HK(500_000) });
  tableId = table.id;
  terminal = await givenKey(ctx, 'TERMINAL', tableId);
  shoeId = (await givenShoe(ctx, terminal, tableId)).id;
  await givenPatrons(ctx, A, B, C, D);
  su = new Client({ connectionString: ctx.databaseUrl });
  await su.connect();
}, 120_000);
afterAll(async () => {
  await su?.end();
  await ctx?.close();
});

describe("a junket's month with two programmes", () => {
  it('sets up the junket: operator, agents, programmes, members', async () => {
    // Each programme's terms requested by one credit officer, approved by another, recorded quoting the request.
    await givenProgramme(ctx, finance, propertyId, {
      code: 'JK-ROLL',
      name: 'Junket rolling 1.25 %',
      basis: 'ROLLING',
      commissionBps: 125,
      effectiveFrom: today,
    });
    await givenProgramme(ctx, finance, propertyId, {
      code: 'JK-SHARE',
      name: 'Junket win/loss 40 %',
      basis: 'WIN_LOSS',
      commissionBps: 4_000,
      allowanceBps: 10,
      effectiveFrom: today,
    });

    const created = await ctx
      .as(finance)
      .post(`/v1/properties/${propertyId}/junkets`, {
        code: 'GOLDEN-DRAGON',
        name: 'Golden Dragon VIP Club',
        licence: 'J-0042',
        currency: 'HKD',
        creditLimit: HK(5_000_000),
      })
      .expect(201);
    junketId = created.body.id;
    // The credit line asked for is a request: no credit until a second person approves it (over the threshold, the casino manager last).
    expect(created.body).toMatchObject({ code: 'GOLDEN-DRAGON', currency: 'HKD', creditLimit: 0, balance: 0, agents: [] });
    const [asked] = (await ctx.as(finance).get(`/v1/properties/${propertyId}/credit-requests?subject=${junketId}`).expect(200)).body;
    expect(asked).toMatchObject({
      act: 'LIMIT',
      status: 'PENDING',
      approvalsNeeded: 2,
      finalRole: 'CASINO_MANAGER',
      terms: { creditLimit: String(HK(5_000_000)) },
    });
    expect((await approveCredit(ctx, asked.id)).status).toBe('APPROVED');
    expect((await ctx.as(finance).get(`/v1/junkets/${junketId}`).expect(200)).body.creditLimit).toBe(HK(5_000_000));
    await ctx.as(finance).post(`/v1/junkets/${junketId}/agents`, { code: 'AG-1', name: 'Mr Lau' }).expect(201);
    const agents = await ctx.as(finance).post(`/v1/junkets/${junketId}/agents`, { code: 'AG-2', name: 'Ms Ho' }).expect(201);
    expect(agents.body.agents).toEqual([
      { code: 'AG-1', name: 'Mr Lau' },
      { code: 'AG-2', name: 'Ms Ho' },
    ]);
    const join = (patronId: string, programme: string, agent: string) => ctx.as(host).post(`/v1/junkets/${junketId}/members`, { patronId, programme, agent });
    expect((await join(A, 'JK-ROLL', 'AG-1').expect(201)).body).toMatchObject({
      patronId: A,
      junketId,
      agent: 'AG-1',
      programme: 'JK-ROLL',
      effectiveFrom: today,
    });
    await join(B, 'JK-ROLL', 'AG-1').expect(201);
    await join(C, 'JK-SHARE', 'AG-2').expect(201);
  });

  it('plays the month: markers, dead chips, rolls, wins paid in cash chips, returns and repayments', async () => {
    // The casino extends HK$1,000,000 on markers; the junket issues dead chips to its players against them.
    expect((await entry({ kind: 'MARKER', amount: HK(1_000_000) }).expect(201)).body).toMatchObject({ kind: 'MARKER', balance: HK(1_000_000) });
    await exchange(A, { kind: 'PURCHASE', amount: HK(500_000), settledIn: 'MARKER' }).expect(201);
    await exchange(B, { kind: 'PURCHASE', amount: HK(300_000), settledIn: 'MARKER' }).expect(201);
    await exchange(C, { kind: 'PURCHASE', amount: HK(200_000), settledIn: 'MARKER' }).expect(201);
    await deposit(D, HK(50_000));
    await exchange(D, { kind: 'PURCHASE', amount: HK(50_000), settledIn: 'FRONT_MONEY' }).expect(201);
    const play = async (cards: object, wagers: object[]) => coupIds.push((await coup(cards, wagers)).body.id);
    // A: Banker 100,000 loses; Banker 100,000 wins (95,000 in cash chips); Player 200,000 loses; Player 100,000 wins.
    // B: Player 150,000 loses; Banker 150,000 loses. C: Banker 200,000 wins (190,000); Player 100,000 loses; Banker 100,000 pushes on a tie.
    // D, no member, rolls 50,000 beside them; C's cash bet is not rolling play.
    await play(PLAYER_WINS, [dead(A, 1, 'BANKER', 100_000), dead(D, 4, 'BANKER', 50_000)]);
    await play(BANKER_WINS, [dead(A, 1, 'BANKER', 100_000), dead(B, 2, 'PLAYER', 150_000), dead(C, 3, 'BANKER', 200_000)]);
    await play(BANKER_WINS, [dead(A, 1, 'PLAYER', 200_000), dead(C, 3, 'PLAYER', 100_000), { seat: 3, betType: 'PLAYER', amount: HK(20_000), patronId: C }]);
    await play(PLAYER_WINS, [dead(A, 1, 'PLAYER', 100_000), dead(B, 2, 'BANKER', 150_000)]);
    await play(TIE, [dead(C, 3, 'BANKER', 100_000)]);
    // The dead chips left are exchanged back: A 200,000, C 100,000; B has none.
    await exchange(A, { kind: 'RETURN', amount: HK(200_000), settledIn: 'CASH_CHIPS' }).expect(201);
    await exchange(C, { kind: 'RETURN', amount: HK(100_000), settledIn: 'CASH_CHIPS' }).expect(201);
    // The junket pays its markers down with the cash chips its players hold: A 195,000 + 200,000, C 190,000 + 100,000.
    expect((await (await approvedRepayment({ amount: HK(685_000), method: 'CHIPS' })).body).balance).toBe(HK(315_000));
    // As the junket reports it: it advanced A 500,000 and A repaid 200,000.
    const credit = (body: object) => ctx.as(cashier).post(`/v1/junkets/${junketId}/player-credit`, body).expect(201);
    await credit({ patronId: A, kind: 'ADVANCE', amount: HK(500_000) });
    await credit({ patronId: A, kind: 'REPAYMENT', amount: HK(200_000) });
  });

  it('states the month: rolling both ways, win/loss, commission by programme, and the net due', async () => {
    const res = await statement(today, today).expect(200);
    expect(res.body.status).toBe('OPEN');
    expect(res.body.digest).toMatch(/^[0-9a-f]{64}$/);
    const f = res.body.figures;
    expect(f.programmes).toEqual([
      // 1.25 % of the 600,000 A and B rolled = 7,500; the house won 105,000 + 300,000.
      {
        code: 'JK-ROLL',
        members: 2,
        rolled: HK(600_000),
        handle: HK(800_000),
        win: HK(405_000),
        commission: HK(7_500),
        allowance: 0,
        netWin: HK(397_500),
        daysOutside: [],
      },
      // The house lost 90,000 to C: 40 % of the loss is the junket's (−36,000); 0.1 % of 100,000 rolled = 100.
      {
        code: 'JK-SHARE',
        members: 1,
        rolled: HK(100_000),
        handle: HK(400_000),
        win: HK(-90_000),
        commission: HK(-36_000),
        allowance: HK(100),
        netWin: HK(-54_100),
        daysOutside: [],
      },
    ]);
    expect(f.members).toEqual([
      {
        patronId: A,
        agents: ['AG-1'],
        programmes: ['JK-ROLL'],
        purchased: HK(500_000),
        returned: HK(200_000),
        rolled: HK(300_000),
        wagers: 4,
        handle: HK(500_000),
        win: HK(105_000),
        rollingWinPercent: '35.0000',
      },
      {
        patronId: B,
        agents: ['AG-1'],
        programmes: ['JK-ROLL'],
        purchased: HK(300_000),
        returned: 0,
        rolled: HK(300_000),
        wagers: 2,
        handle: HK(300_000),
        win: HK(300_000),
        rollingWinPercent: '100.0000',
      },
      {
        patronId: C,
        agents: ['AG-2'],
        programmes: ['JK-SHARE'],
        purchased: HK(200_000),
        returned: HK(100_000),
        rolled: HK(100_000),
        wagers: 3,
        handle: HK(400_000),
        win: HK(-90_000),
        rollingWinPercent: '-90.0000',
      },
    ]);
    expect(f.agents).toEqual([
      { agent: 'AG-1', members: 2, rolled: HK(600_000), handle: HK(800_000), win: HK(405_000) },
      { agent: 'AG-2', members: 1, rolled: HK(100_000), handle: HK(400_000), win: HK(-90_000) },
    ]);
    // Who earned the commission, with names: 1.25 % of each member's 300,000 rolled; C's share of the loss and allowance;
    // by agent, the same sums (the shares add up to the totals exactly).
    expect(res.body.shares).toEqual({
      members: [
        { id: A, name: null, commission: HK(3_750), allowance: 0 },
        { id: B, name: null, commission: HK(3_750), allowance: 0 },
        { id: C, name: null, commission: HK(-36_000), allowance: HK(100) },
      ],
      agents: [
        { id: 'AG-1', name: 'Mr Lau', commission: HK(7_500), allowance: 0 },
        { id: 'AG-2', name: 'Ms Ho', commission: HK(-36_000), allowance: HK(100) },
      ],
    });
    expect(f.totals).toMatchObject({
      purchased: HK(1_000_000),
      returned: HK(300_000),
      netPurchased: HK(700_000),
      rolled: HK(700_000),
      inHand: 0,
      agrees: true,
      wagers: 9,
      handle: HK(1_200_000),
      win: HK(315_000),
      rollingWinPercent: '45.0000',
      commission: HK(-28_500),
      allowance: HK(100),
      netWin: HK(343_400),
    });
    // Banker 650,000 × 1.0579 % + Player 550,000 × 1.2351 %: from §4's 8-deck counts (Banker's edge is
    // P(Player wins) − 0.95 P(Banker wins), Player's P(Banker wins) − P(Player wins)), 1,366,933.49 cents.
    expect(f.totals.theoreticalWin).toBe(1_366_933);
    // 1,000,000 lent − 685,000 repaid + 28,400 the junket owes of the shared loss net of its allowance:
    // the junket owes HK$343,400, the house's win net of the programmes.
    expect(f.account).toEqual({
      opening: 0,
      markers: HK(1_000_000),
      repayments: HK(685_000),
      payouts: 0,
      credited: HK(-28_400),
      closing: HK(343_400),
      due: 'JUNKET_OWES',
    });
    expect(f.playerCredit).toEqual([{ patronId: A, advanced: HK(500_000), repaid: HK(200_000), outstanding: HK(300_000) }]);
  });

  it('refuses a marker over the credit limit, and repayments or payouts of more than is owed; the account is unchanged', async () => {
    const before = (await ctx.as(finance).get(`/v1/junkets/${junketId}`).expect(200)).body.balance;
    expect((await entry({ kind: 'MARKER', amount: HK(4_685_001) }).expect(422)).body.code).toBe('JUNKET_CREDIT_LIMIT');
    expect((await entry({ kind: 'REPAYMENT', amount: HK(315_001), method: 'WIRE', reference: 'W-1' }).expect(422)).body.code).toBe('JUNKET_OVERPAID');
    expect((await entry({ kind: 'PAYOUT', amount: 1, method: 'WIRE' }).expect(422)).body.code).toBe('JUNKET_OVERPAID');
    expect((await entry({ kind: 'MARKER', amount: HK(1), method: 'CASH' }).expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await entry({ kind: 'REPAYMENT', amount: HK(1) }).expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await entry({ kind: 'SETTLEMENT', amount: HK(1) }).expect(400)).body.code).toBe('VALIDATION_FAILED');
    expect((await ctx.as(finance).get(`/v1/junkets/${junketId}`).expect(200)).body.balance).toBe(before);
  });

  it('refuses a repayment asked for of more than the junket owes', async () => {
    const owed = (await ctx.as(finance).get(`/v1/junkets/${junketId}`).expect(200)).body.balance as number;
    const asked = await ctx
      .as(cashier)
      .post(`/v1/properties/${propertyId}/credit-requests`, { act: 'REPAYMENT', junketId, amount: owed + 1, method: 'CASH', reason: 'too much' });
    expect([asked.status, asked.body.code]).toEqual([422, 'JUNKET_OVERPAID']);
  });

  it('refuses to agree a period not yet ended', async () => {
    const res = await agreeStatement(ctx, finance, junketId, { from: today, to: today, junketSignatory: 'Chan Tai Man', digest: '0'.repeat(64) });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('JUNKET_PERIOD_OPEN');
  });
});

/** B's Player HK$150,000 of the month's second coup rewritten as the superuser (a push: 0; back: its loss), with B's rollup. */
async function rewrite(net: number, result: string): Promise<void> {
  await asOwner(su, async () => {
    await su.query(`UPDATE wagers SET net = $3, result = $4 WHERE coup_id = $1 AND patron_id = $2`, [coupIds[1], B, net, result]);
    // …and its patron's rollup with it, as a void the service refused would have left them.
    await su.query(
      `UPDATE patron_rollups SET dead_customer_net = dead_customer_net + $3 - $4, dead_rolled = dead_rolled - $5 WHERE patron_id = $1 AND bet_type = 'PLAYER' AND table_id = $2`,
      [B, tableId, net, net === 0 ? -HK(150_000) : 0, net === 0 ? HK(150_000) : -HK(150_000)],
    );
  });
}

/** Moves the junket's month back `days` days, as the superuser: the service has no clock to set, so its records are made to have been written then. */
async function moveBack(days: number): Promise<void> {
  await asOwner(su, async () => {
    const shift = `- ${days} * interval '1 day'`;
    await su.query(`UPDATE coups SET gaming_day = gaming_day ${shift} WHERE table_id = $1`, [tableId]);
    await su.query(`UPDATE wagers SET gaming_day = gaming_day ${shift} WHERE shoe_id = $1 AND gaming_day IS NOT NULL`, [shoeId]);
    await su.query(`UPDATE patron_rollups SET gaming_day = gaming_day ${shift} WHERE table_id = $1`, [tableId]);
    await su.query(`UPDATE patron_coup_rollups SET gaming_day = gaming_day ${shift} WHERE table_id = $1`, [tableId]);
    await su.query(`UPDATE chip_exchanges SET gaming_day = gaming_day ${shift} WHERE property_id = $1`, [propertyId]);
    await su.query(`UPDATE rolling_programmes SET effective_from = effective_from ${shift} WHERE property_id = $1`, [propertyId]);
    await su.query(`UPDATE junket_memberships SET effective_from = effective_from ${shift} WHERE property_id = $1`, [propertyId]);
    await su.query(`UPDATE junket_account_entries SET gaming_day = gaming_day ${shift} WHERE operator_id = $1`, [junketId]);
    await su.query(`UPDATE junket_player_credit SET gaming_day = gaming_day ${shift} WHERE operator_id = $1`, [junketId]);
  });
}

const dayBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

describe('the month agreed and locked', () => {
  let month: string;
  let digest: string;

  beforeAll(async () => {
    await moveBack(31);
    month = dayBefore(today, 31);
  });

  it('agrees the statement the junket saw, credits its commission and allowances, and locks the period', async () => {
    const seen = await statement(month, month).expect(200);
    digest = seen.body.digest;
    expect(seen.body.figures.account.closing).toBe(HK(343_400));
    const stale = await agreeStatement(ctx, finance, junketId, { from: month, to: month, junketSignatory: 'Chan Tai Man', digest: 'f'.repeat(64) });
    expect([stale.status, stale.body.code]).toEqual([409, 'CONFLICT']);
    expect(stale.body.message).toContain('ask to agree what it says');
    // Asked for with the digest seen, the figures changed before its approval (B's loss made a push, then put back): not approved.
    const { requester, approver } = await givenCreditOfficers(ctx);
    const terms = { act: 'STATEMENT', junketId, from: month, to: month, digest, junketSignatory: 'Chan Tai Man', reason: 'statement agreed' };
    const overtaken = (await ctx.as(requester).post(`/v1/properties/${propertyId}/credit-requests`, terms).expect(201)).body;
    await rewrite(0, 'PUSH');
    const changed = await ctx.as(approver).post(`/v1/credit-requests/${overtaken.id}/approve`, {});
    await rewrite(-HK(150_000), 'LOSE');
    expect([changed.status, changed.body.code]).toEqual([409, 'CREDIT_REQUEST_STALE']);
    expect((await ctx.as(approver).get(`/v1/credit-requests/${overtaken.id}`).expect(200)).body).toMatchObject({ status: 'PENDING', decisions: [] });
    await ctx.as(approver).post(`/v1/credit-requests/${overtaken.id}/reject`, { note: 'figures changed while asked' }).expect(200);
    // A void asked for before the period is agreed, and approved after: refused on approval.
    const pending = await ctx.as(supervisor).post(`/v1/coups/${coupIds[3]}/void`, { reason: 'keyed at the wrong table' }).expect(202);
    const agreed = await agreeStatement(ctx, finance, junketId, { from: month, to: month, junketSignatory: 'Chan Tai Man', digest });
    expect(agreed.status).toBe(201);
    const approved = await ctx.as(supervisor2).post(`/v1/void-requests/${pending.body.voidRequestId}/approve`, {});
    expect([approved.status, approved.body.code]).toEqual([409, 'JUNKET_PERIOD_LOCKED']);
    expect(agreed.body).toMatchObject({ status: 'AGREED', digest, reproduced: true, agreement: { junketSignatory: 'Chan Tai Man', digest } });
    // Signed for the casino by two persons besides the junket's signatory: the credit officer who asked, another who approved.
    const asked = (await ctx.as(finance).get(`/v1/credit-requests/${agreed.body.agreement.requestId}`).expect(200)).body;
    expect(asked).toMatchObject({ act: 'STATEMENT', status: 'APPROVED', terms: { junketId, from: month, to: month, digest, junketSignatory: 'Chan Tai Man' } });
    expect(agreed.body.agreement).toMatchObject({ requestedByKeyId: asked.requestedByKeyId, approvedByKeyIds: [asked.decisions[0].keyId] });
    expect(asked.decisions[0].keyId).not.toBe(asked.requestedByKeyId);
    // The SETTLEMENT entry credits −28,400 (the junket owes its share of the loss): the balance is the closing figure.
    const account = (await ctx.as(finance).get(`/v1/junkets/${junketId}/account?from=${month}&to=${today}`).expect(200)).body;
    expect(account.map((e: { kind: string; amount: number; balance: number }) => [e.kind, e.amount, e.balance])).toEqual([
      ['MARKER', HK(1_000_000), HK(1_000_000)],
      ['REPAYMENT', HK(685_000), HK(315_000)],
      ['SETTLEMENT', HK(-28_400), HK(343_400)],
    ]);
    expect((await ctx.as(finance).get(`/v1/junkets/${junketId}`).expect(200)).body.balance).toBe(HK(343_400));
    const again = await statement(month, month).expect(200);
    expect(again.body).toMatchObject({ status: 'AGREED', digest, reproduced: true });
    expect(again.body.figures).toEqual(seen.body.figures);
    // The agreement names the members' play: a read of their records, in the audit chain.
    const reads = await su.query(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'patron.read' AND entity_id = $1 AND payload::jsonb -> 'data' ->> 'what' = 'junket statement'`,
      [junketId],
    );
    expect(reads.rows[0].n).toBe(4); // the month as played, as seen, as agreed, and again
  });

  it("the quarterly statement shows the premium win net of the junket's programmes beside it gross", async () => {
    const [year, m] = month.split('-').map(Number);
    const q = await ctx
      .as(finance)
      .get(`/v1/reports/quarterly?year=${year}&quarter=${Math.ceil(m / 3)}&propertyId=${propertyId}`)
      .expect(200);
    const [line] = q.body.programmes;
    // The junket's month, as its statement works it out: commission −28,500 (7,500 − 36,000), allowance 100.
    expect(line).toMatchObject({ currency: 'HKD', junkets: 1, junketRolling: HK(700_000), programmeCommission: HK(-28_500), programmeAllowance: HK(100) });
    expect(line.premiumNetWin).toBe(line.premiumWin + HK(28_500) - HK(100));
    expect(q.body.programmes).toHaveLength(1);
  });

  it('the next period opens on the agreed balance, and the junket settles it', async () => {
    expect((await approvedRepayment({ amount: HK(343_400), method: 'WIRE', reference: 'SWIFT 77-0042' })).status).toBe(201);
    const next = (await statement(dayBefore(today, 30), today).expect(200)).body.figures.account;
    expect(next).toEqual({ opening: HK(343_400), markers: 0, repayments: HK(343_400), payouts: 0, credited: 0, closing: 0, due: 'SETTLED' });
  });

  it('refuses what would change the agreed period: a void of a member’s coup, credit reported into it, an overlapping or earlier agreement', async () => {
    const asked = await ctx.as(supervisor).post(`/v1/coups/${coupIds[0]}/void`, { reason: 'keyed at the wrong table' });
    expect([asked.status, asked.body.code]).toEqual([409, 'JUNKET_PERIOD_LOCKED']);
    const reported = await ctx.as(cashier).post(`/v1/junkets/${junketId}/player-credit`, { patronId: B, kind: 'ADVANCE', amount: HK(1), gamingDay: month });
    expect([reported.status, reported.body.code]).toEqual([409, 'JUNKET_PERIOD_LOCKED']);
    const overlap = await statement(dayBefore(month, 1), month);
    expect([overlap.status, overlap.body.code]).toEqual([409, 'JUNKET_PERIOD_LOCKED']);
    const earlier = await agreeStatement(ctx, finance, junketId, {
      from: dayBefore(month, 5),
      to: dayBefore(month, 1),
      junketSignatory: 'Chan Tai Man',
      digest: (await statement(dayBefore(month, 5), dayBefore(month, 1)).expect(200)).body.digest,
    });
    expect([earlier.status, earlier.body.code]).toEqual([409, 'JUNKET_PERIOD_LOCKED']);
    expect((await statement(month, month).expect(200)).body).toMatchObject({ status: 'AGREED', digest, reproduced: true });
  });

  it('a void the service would refuse, made as the superuser, shows: the records no longer give the figures agreed', async () => {
    // B's Player HK$150,000 lost: rewritten as a push.
    await rewrite(0, 'PUSH');
    const res = await statement(month, month).expect(200);
    await rewrite(-HK(150_000), 'LOSE');
    expect(res.body).toMatchObject({ status: 'AGREED', reproduced: false });
    expect(res.body.digest).not.toBe(digest);
    expect(res.body.figures.totals.rolled).toBe(HK(700_000));
    expect((await statement(month, month).expect(200)).body).toMatchObject({ digest, reproduced: true });
    // The figures kept as agreed, rewritten: the records still give the agreed digest, the kept figures do not.
    const keep = async (closing: number) => {
      await asOwner(su, async () => {
        await su.query(`UPDATE junket_statements SET figures = jsonb_set(figures, '{account,closing}', $2::jsonb) WHERE operator_id = $1`, [
          junketId,
          String(closing),
        ]);
      });
    };
    await keep(1);
    const kept = (await statement(month, month).expect(200)).body;
    await keep(HK(343_400));
    expect(kept).toMatchObject({ status: 'AGREED', digest, reproduced: false, figures: { account: { closing: 1 } } });
    expect((await statement(month, month).expect(200)).body).toMatchObject({ digest, reproduced: true });
  });
});

describe('who may, and what is refused', () => {
  it('keeps roles: a terminal reads no junket, a host agrees nothing, a cashier sets up none', async () => {
    expect((await ctx.as(terminal).get(`/v1/junkets/${junketId}`)).status).toBe(403);
    expect(
      (await ctx.as(host).post(`/v1/junkets/${junketId}/statements`, { from: '2026-01-01', to: '2026-01-31', junketSignatory: 'x', digest: '0'.repeat(64) }))
        .status,
    ).toBe(403);
    expect((await ctx.as(cashier).post(`/v1/properties/${propertyId}/junkets`, { code: 'X', name: 'X', currency: 'HKD', creditLimit: 0 })).status).toBe(403);
  });

  it('refuses bad members: unknown programme, agent or patron, a day gone by, a second version the same day', async () => {
    const join = (body: object) => ctx.as(host).post(`/v1/junkets/${junketId}/members`, body);
    expect((await join({ patronId: D, programme: 'NOPE' })).body.code).toBe('NOT_FOUND');
    expect((await join({ patronId: D, programme: 'JK-ROLL', agent: 'AG-9' })).body.code).toBe('NOT_FOUND');
    expect((await join({ patronId: `NOBODY-${P}`, programme: 'JK-ROLL' })).body.code).toBe('UNKNOWN_PATRON');
    expect((await join({ patronId: D, programme: 'JK-ROLL', effectiveFrom: '2020-01-01' })).body.code).toBe('VALIDATION_FAILED');
    await join({ patronId: D, programme: 'JK-ROLL' }).expect(201);
    expect((await join({ patronId: D, programme: 'JK-SHARE' })).body.code).toBe('CONFLICT');
    expect((await ctx.as(host).post(`/v1/junkets/${junketId}/members/${D}/leave`, {})).body.code).toBe('CONFLICT');
    expect((await ctx.as(host).post(`/v1/junkets/${junketId}/members/${B}/leave`, { effectiveFrom: dayBefore(today, -1) })).status).toBe(201);
    expect((await ctx.as(host).post(`/v1/junkets/${junketId}/members/NOT-A-MEMBER/leave`, {})).body.code).toBe('NOT_FOUND');
  });

  it("changes a membership from today only before the patron's first rolling play of the day, and a programme in force from tomorrow", async () => {
    const E = `JKE-${P}`;
    await givenPatrons(ctx, E);
    await deposit(E, HK(10_000));
    await exchange(E, { kind: 'PURCHASE', amount: HK(10_000), settledIn: 'FRONT_MONEY' }).expect(201);
    const join = (effectiveFrom?: string) => ctx.as(host).post(`/v1/junkets/${junketId}/members`, { patronId: E, programme: 'JK-ROLL', effectiveFrom });
    expect((await join().expect(409)).body.message).toMatch(/from tomorrow/);
    expect((await join(dayBefore(today, -1)).expect(201)).body.effectiveFrom).toBe(dayBefore(today, -1));
    // A new version of a programme played under, from today: refused when asked for, as its record would be.
    const terms = { code: 'JK-ROLL', name: 'Junket rolling 1.3 %', basis: 'ROLLING' as const, commissionBps: 130, effectiveFrom: today };
    const { requester } = await givenCreditOfficers(ctx);
    const asked = await ctx.as(requester).post(`/v1/properties/${propertyId}/credit-requests`, { act: 'PROGRAMME', ...terms, reason: 'new terms' });
    expect([asked.status, asked.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(asked.body.message).toContain('is in force today');
  });

  it("keeps the junket's credit to its own players, and no repayment of more than it reports they owe", async () => {
    const credit = (body: object) => ctx.as(cashier).post(`/v1/junkets/${junketId}/player-credit`, body);
    await givenPatrons(ctx, `JKF-${P}`);
    expect((await credit({ patronId: `JKF-${P}`, kind: 'ADVANCE', amount: 1 })).body.code).toBe('NOT_FOUND');
    expect((await credit({ patronId: A, kind: 'REPAYMENT', amount: HK(300_001) })).body.code).toBe('JUNKET_OVERPAID');
    await credit({ patronId: A, kind: 'REPAYMENT', amount: HK(300_000) }).expect(201);
  });

  it('answers hostile input with a 4xx, never a 500', async () => {
    const bad = [
      ctx.as(finance).get(`/v1/junkets/not-a-uuid`),
      ctx.as(finance).get(`/v1/junkets/${junketId}/statement?from=2026-02-30&to=2026-03-01`),
      ctx.as(finance).get(`/v1/junkets/${junketId}/statement?from=2026-03-02&to=2026-03-01`),
      ctx.as(finance).get(`/v1/junkets/00000000-0000-4000-8000-00000000dead/statement?from=2026-03-01&to=2026-03-01`),
      ctx.as(finance).post(`/v1/properties/${propertyId}/junkets`, { code: 'GOLDEN-DRAGON', name: 'again', currency: 'HKD', creditLimit: 0 }),
      ctx.as(finance).post(`/v1/properties/${propertyId}/junkets`, { code: 'X Y', name: 'x', currency: 'HKD', creditLimit: 0 }),
      ctx.as(finance).post(`/v1/properties/${propertyId}/junkets`, { code: 'Z', name: ' \u200b\u202e\u0301 ', currency: 'HKD', creditLimit: 0 }),
      ctx.as(finance).post(`/v1/properties/${propertyId}/junkets`, { code: 'Z', name: 'z', currency: 'XXX', creditLimit: -1 }),
      ctx.as(cashier).post(`/v1/junkets/${junketId}/account`, { kind: 'MARKER', amount: 1e30 }),
      ctx.as(cashier).post(`/v1/junkets/${junketId}/player-credit`, { patronId: A, kind: 'ADVANCE', amount: 1, gamingDay: '2999-01-01' }),
      ctx.as(finance).post(`/v1/junkets/${junketId}/statements`, { from: '2026-01-01', to: '2026-01-31', junketSignatory: 'x', digest: 'ABC' }),
    ];
    const answers = await Promise.all(bad);
    expect(answers.map((r) => r.status)).toEqual([400, 400, 400, 404, 409, 400, 400, 400, 400, 400, 400]);
  });
});
