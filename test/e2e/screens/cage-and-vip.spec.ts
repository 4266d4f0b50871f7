/// <reference lib="dom" />
import { Client } from 'pg';
import type { Browser, Locator, Page } from 'playwright-core';
import { gamingDayOf } from '../../../src/domain';
import { TestContext } from '../../support/app';
import {
  AWAY,
  axeViolations,
  expectWallClock,
  inEveryLanguage,
  overflowAt,
  problemsOf,
  Screens,
  signedIn as signedInAt,
  startScreens,
  until,
} from '../../support/browser';
import { approveCredit, givenCreditLine, givenKey, givenPatrons, givenShoe, givenTable } from '../../support/builders';
import { agreeStatement, givenProgramme } from '../../support/credit-acts';
import { asOwner } from '../../support/owner';

/**
 * The cage and compliance desk (#/cage) and the VIP room (#/vip) in a real Chromium: every figure is
 * the API's to the minor unit (data-minor, data-value), each part is shown only to a role that may
 * read it (and nothing it may not read is asked for), the states a person meets (nothing yet, an
 * error with its code), each language, axe-core, and the navigation each role is offered. With
 * SCREENSHOTS=write, each screen is saved to docs/screens/ in each language.
 */
jest.setTimeout(240_000);
const P = process.pid;

let ctx: TestContext;
let url: string;
let browser: Browser;
let su: Client;
let screens: Screens;

beforeAll(async () => {
  screens = await startScreens();
  ({ ctx, url, browser } = screens);
  su = new Client({ connectionString: ctx.databaseUrl });
  await su.connect();
});
afterAll(async () => {
  await su?.end();
  await screens?.close();
});

const signedIn = (key: string, hash = '', timezoneId?: string) => signedInAt(browser, url, key, hash, undefined, timezoneId);

async function sidewaysOnTablet(page: Page): Promise<number[]> {
  const out = [(await overflowAt(page, { width: 1024, height: 768 }))[0], (await overflowAt(page, { width: 768, height: 1024 }))[0]];
  await page.setViewportSize({ width: 1280, height: 800 });
  return out;
}

const minors = (page: Page) => () =>
  page.locator('main [data-minor]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-field')}=${e.getAttribute('data-minor')}`));
const attr = (l: Locator, name = 'data-minor') => l.getAttribute(name);

/** A JSON value as the screen writes it in data-value: a list joined by commas, nothing for null. */
const asText = (v: unknown): string => (Array.isArray(v) ? v.join(',') : v === null || v === undefined ? '' : `${v as string | number | boolean}`);

/** Each named field of `row` (a locator) against the API's object: data-minor for amounts, data-value for the rest. */
async function sameFields(row: Locator, api: Record<string, unknown>, money: string[], values: string[] = []): Promise<void> {
  for (const field of money) {
    const v = api[field];
    expect([field, await attr(row.locator(`[data-field="${field}"]`))]).toEqual([field, v === null ? null : asText(v)]);
  }
  for (const field of values) {
    const v = api[field];
    expect([field, await attr(row.locator(`[data-field="${field}"]`), 'data-value')]).toEqual([field, asText(v)]);
  }
}

const BANKER_WINS = { player: ['KS', 'QH'], banker: ['9S', 'KD'] };
const PLAYER_WINS = { player: ['8S', 'KH'], banker: ['QS', 'JD'] };

describe('the cage and compliance desk', () => {
  let propertyId: string;
  let quietId: string;
  let tableId: string;
  let terminal: string;
  let cashier: string;
  const [WHALE, SPLIT] = [`CG-WHALE-${P}`, `CG-SPLIT-${P}`];

  beforeAll(async () => {
    const property = (await ctx.admin.post('/v1/properties', { name: `Casino Cage ${P}`, timeZone: 'America/Los_Angeles', gamingDayStartHour: 6 }).expect(201))
      .body;
    propertyId = property.id;
    quietId = (await ctx.admin.post('/v1/properties', { name: `Casino Cage Quiet ${P}`, timeZone: 'America/Los_Angeles', gamingDayStartHour: 6 }).expect(201))
      .body.id;
    await givenTable(ctx, { propertyId: quietId, currency: 'USD', code: 'QUIET-1' });
    const table = await givenTable(ctx, { propertyId, currency: 'USD', code: 'CAGE-1', minBet: 2_500, maxBet: 5_000_000 });
    tableId = table.id;
    terminal = await givenKey(ctx, 'TERMINAL', tableId);
    cashier = await givenKey(ctx, 'CASHIER');
    const supervisor = await givenKey(ctx, 'SUPERVISOR');
    await givenShoe(ctx, terminal, tableId);
    await ctx
      .as(supervisor)
      .post(`/v1/tables/${tableId}/sessions`, { opener: [{ denomination: 10_000, count: 100 }] })
      .expect(201);
    await givenPatrons(ctx, WHALE, SPLIT);
    const t = ctx.as(terminal);
    await t.post(`/v1/tables/${tableId}/seatings`, { patronId: WHALE, seat: 1 }).expect(201);
    await t.post(`/v1/tables/${tableId}/seatings`, { patronId: SPLIT, seat: 5 }).expect(201);
    const buy = (body: object) => t.post(`/v1/tables/${tableId}/buy-ins`, body).expect(201);
    // The whale: 12,000.00 cash (logged, a report candidate) and a 5,000.00 marker; the structurer: four of 2,900.00; a walk-up's 500.00.
    await buy({ kind: 'CASH', amount: 1_200_000, seat: 1 });
    await givenCreditLine(ctx, propertyId, { patronId: WHALE }, 500_000);
    const marker = (await buy({ kind: 'MARKER', amount: 500_000, seat: 1 })).body.markerId as string;
    for (let i = 0; i < 4; i++) await buy({ kind: 'CASH', amount: 290_000, seat: 5 });
    await buy({ kind: 'CASH', amount: 50_000 });
    // At the cage: 2,000.00 paid on the marker in cash, 3,500.00 of the whale's chips cashed.
    await ctx.as(cashier).post(`/v1/markers/${marker}/payments`, { amount: 200_000, method: 'CASH' }).expect(201);
    await ctx.as(cashier).post(`/v1/properties/${propertyId}/cash-transactions`, { kind: 'CHIP_REDEMPTION', amount: 350_000, patronId: WHALE }).expect(201);
  });

  it("shows compliance every part, each the API's to the minor unit, and follows buy-ins live", async () => {
    const compliance = await givenKey(ctx, 'COMPLIANCE');
    const api = (p: string) => ctx.as(compliance).get(p).expect(200);
    const page = await signedIn(compliance, '#/cage');
    await page.getByRole('combobox', { name: /^Property/ }).selectOption(propertyId);
    const buyIns = page.locator('[data-testid="cage-buy-ins"]');
    await until(page, () => document.querySelectorAll('[data-testid="cage-buy-ins"] tr[data-buy-in]').length === 7);
    const day = await page.getByLabel('From', { exact: true }).inputValue();
    expect(day).toBe(gamingDayOf(new Date(), 'America/Los_Angeles', 6));

    // Buy-ins: each the API's.
    const listed = (await api(`/v1/tables/${tableId}/buy-ins?gamingDay=${day}`)).body as (Record<string, unknown> & { id: string })[];
    expect(listed).toHaveLength(7);
    for (const b of listed) await sameFields(buyIns.locator(`tr[data-buy-in="${b.id}"]`), b, ['amount'], ['kind', 'patronId', 'gamingDay']);

    // Markers: the whale's, opened from the buy-ins, with the payment and what is still owed.
    await buyIns.locator(`button[data-card="${WHALE}"]`).click();
    const markers = page.locator('[data-testid="cage-markers"]');
    await markers.locator('tr[data-marker]').first().waitFor();
    const owed = (await api(`/v1/markers?patronId=${WHALE}`)).body as (Record<string, unknown> & { id: string; payments: { id: string; amount: number }[] })[];
    expect(owed).toHaveLength(1);
    expect(owed[0]).toMatchObject({ amount: 500_000, outstanding: 300_000 });
    for (const m of owed) {
      const row = markers.locator(`tr[data-marker="${m.id}"]`);
      await sameFields(row, m, ['amount', 'outstanding'], ['gamingDay']);
      expect(await attr(row.locator('[data-field="paid"]'))).toBe(String(m.payments.reduce((s, p) => s + p.amount, 0)));
      expect(await row.locator('[data-payment]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-payment'), e.getAttribute('data-minor')]))).toEqual(
        m.payments.map((p) => [p.id, String(p.amount)]),
      );
    }

    // The drop reconciled: every line, field by field.
    const drop = (await api(`/v1/reports/drop-reconciliation?propertyId=${propertyId}&from=${day}&to=${day}`)).body as (Record<string, unknown> & {
      tableId: string;
      gamingDay: string;
    })[];
    expect(drop.length).toBeGreaterThan(0);
    for (const d of drop)
      await sameFields(
        page.locator(`[data-testid="cage-drop"] tr[data-row="${d.tableId}:${d.gamingDay}"]`),
        d,
        ['cash', 'markers', 'chips', 'expectedDrop', 'countedDrop', 'difference'],
        ['status'],
      );

    // The cash reports: thresholds, the log, the candidates, the structuring alerts and the patron days.
    type Tx = Record<string, unknown> & { id: string };
    type Day = Record<string, unknown> & { patronId: string; gamingDay: string; direction: string; transactions: Tx[] };
    const report = (await api(`/v1/compliance/cash-report?propertyId=${propertyId}&from=${day}&to=${day}`)).body as {
      thresholds: { mtl: number; ctr: number; structuringFloorBps: number };
      multipleTransactionLog: Tx[];
      reportCandidates: Day[];
      structuring: (Day & { pattern: string })[];
      patronDays: Day[];
    };
    const cash = page.locator('[data-testid="cage-cash"]');
    await cash.locator('[data-testid="cage-thresholds"]').waitFor();
    await sameFields(cash.locator('[data-testid="cage-thresholds"]'), report.thresholds, ['mtl', 'ctr'], ['structuringFloorBps']);
    expect(report.multipleTransactionLog.map((x) => x.amount)).toEqual([1_200_000, 350_000]);
    const mtl = cash.locator('[data-testid="cage-mtl-table"] tr[data-tx]');
    expect(await mtl.evaluateAll((els) => els.map((e) => e.getAttribute('data-tx')))).toEqual(report.multipleTransactionLog.map((x) => x.id));
    for (const x of report.multipleTransactionLog)
      await sameFields(cash.locator(`[data-testid="cage-mtl-table"] tr[data-tx="${x.id}"]`), x, ['amount'], ['patronId', 'kind', 'direction']);
    const days = async (testid: string, rows: Day[], values: string[]) => {
      expect([testid, await cash.locator(`[data-testid="${testid}"] tbody tr`).count()]).toEqual([testid, rows.length]);
      for (const r of rows) {
        const row = cash.locator(`[data-testid="${testid}"] tr[data-row="${r.patronId}:${r.gamingDay}:${r.direction}"]`);
        await sameFields(row, r, ['total'], values);
        expect(await attr(row.locator('[data-field="transactions"]'), 'data-value')).toBe(r.transactions.map((x) => x.id).join(','));
      }
    };
    expect(report.reportCandidates.map((r) => [r.patronId, r.direction, r.total])).toEqual(
      expect.arrayContaining([
        [WHALE, 'IN', 1_400_000],
        [SPLIT, 'IN', 1_160_000],
      ]),
    );
    await days('cage-ctr-table', report.reportCandidates, ['direction']);
    expect(report.structuring.map((r) => [r.patronId, r.pattern])).toEqual([[SPLIT, 'SPLIT']]);
    await days('cage-structuring-table', report.structuring, ['direction', 'pattern']);
    await days('cage-patron-days-table', report.patronDays, ['direction']);
    const everyTx = report.patronDays.flatMap((d) => d.transactions);
    for (const x of everyTx)
      await sameFields(cash.locator(`[data-testid="cage-transactions-table"] tr[data-tx="${x.id}"]`), x, ['amount'], ['patronId', 'kind', 'direction']);

    // Live: a buy-in recorded at the table appears, and the drop moves, without a reload.
    await page.locator('[data-live="true"]').waitFor();
    await page.evaluate(() => ((window as unknown as { unreloaded: boolean }).unreloaded = true));
    const late = (await ctx.as(terminal).post(`/v1/tables/${tableId}/buy-ins`, { kind: 'CASH', amount: 120_000, seat: 1 }).expect(201)).body as { id: string };
    await buyIns.locator(`tr[data-buy-in="${late.id}"]`).waitFor();
    expect(await attr(buyIns.locator(`tr[data-buy-in="${late.id}"] [data-field="amount"]`))).toBe('120000');
    const cashNow = (await api(`/v1/reports/drop-reconciliation?propertyId=${propertyId}&from=${day}&to=${day}`)).body.find(
      (d: { tableId: string }) => d.tableId === tableId,
    ).cash as number;
    await until(page, (a: [string, string]) => document.querySelector(a[0])?.getAttribute('data-minor') === a[1], [
      `[data-testid="cage-drop"] tr[data-row="${tableId}:${day}"] [data-field="cash"]`,
      String(cashNow),
    ]);
    expect(await page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded)).toBe(true);

    expect(await sidewaysOnTablet(page)).toEqual([0, 0]);
    await inEveryLanguage(page, 'cage', minors(page), {
      en: ['Cage and compliance', 'Multiple-transaction log', 'Split below the log threshold'],
      'zh-Hant': ['賬房與合規', '多筆交易登記冊', '分拆交易警示', '買碼'],
      'zh-Hans': ['账房与合规', '多笔交易登记册', '拆分交易警示', '买码'],
    });

    // Nothing yet, said in words: a property where nothing was bought in.
    await page.getByRole('combobox', { name: /^Property/ }).selectOption(quietId);
    await page.locator('[data-testid="cage-buy-ins-empty"]').waitFor();
    await page.getByText('No transaction reached the log threshold.').waitFor();
    await page.getByText('No patron-day is over the report threshold.').waitFor();
    // An error, with its code: a card nobody holds.
    await page.locator('[data-testid="cage-markers"]').getByLabel('Patron card').fill(`NOBODY-${P}`);
    await page.getByRole('button', { name: 'Show markers' }).press('Enter');
    const alert = page.locator('[data-testid="cage-markers"] [role="alert"]');
    await alert.waitFor();
    expect(await alert.getAttribute('data-code')).toBe('UNKNOWN_PATRON');
    expect(await axeViolations(page)).toEqual([]);
    // Chromium logs the refused request itself: that, and nothing else.
    expect(problemsOf(page).filter((p) => !/status of 4\d\d .*\/v1\/markers\?patronId=NOBODY/.test(p))).toEqual([]);
    await page.close();
  });

  it("shows a cashier the buy-ins and markers only, and asks the service for nothing else; times in the property's zone, not the browser's", async () => {
    const page = await signedIn(cashier, '#/cage', AWAY);
    await page.getByRole('combobox', { name: /^Property/ }).selectOption(propertyId);
    await page.locator('[data-testid="cage-buy-ins"] tr[data-buy-in]').first().waitFor();
    // A buy-in's time is Los Angeles' wall clock, though the browser is in New York.
    const day = gamingDayOf(new Date(), 'America/Los_Angeles', 6);
    const [first] = (await ctx.as(cashier).get(`/v1/tables/${tableId}/buy-ins?gamingDay=${day}`).expect(200)).body as { id: string; recordedAt: string }[];
    await expectWallClock(page, `[data-testid="cage-buy-ins"] tr[data-buy-in="${first.id}"] td:nth-child(2)`, first.recordedAt, 'America/Los_Angeles');
    await page.locator('[data-testid="cage-markers"]').waitFor();
    await page.locator('[data-testid="cage-markers"]').getByLabel('Patron card').fill(WHALE);
    await page.locator('[data-testid="cage-markers"]').getByLabel('Patron card').press('Enter');
    await page.locator('[data-testid="cage-markers"] tr[data-marker]').first().waitFor();
    expect(await page.locator('[data-testid="cage-drop"], [data-testid="cage-cash"]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });
});

describe('the VIP room', () => {
  let propertyId: string;
  let junketId: string;
  let month: string;
  let cashier: string;
  const [A, D] = [`VIP-A-${P}`, `VIP-D-${P}`];
  const HK = (dollars: number) => dollars * 100;

  beforeAll(async () => {
    const [finance, host] = await Promise.all([givenKey(ctx, 'FINANCE'), givenKey(ctx, 'HOST')]);
    cashier = await givenKey(ctx, 'CASHIER');
    propertyId = (
      await ctx.admin.post('/v1/properties', { name: `VIP house ${P}`, timeZone: 'Asia/Macau', gamingDayStartHour: 6, cashCurrency: 'HKD' }).expect(201)
    ).body.id;
    const today = gamingDayOf(new Date(), 'Asia/Macau', 6);
    const table = await givenTable(ctx, { propertyId, currency: 'HKD', code: 'VIP-1', minBet: HK(1_000), maxBet: HK(500_000) });
    const terminal = await givenKey(ctx, 'TERMINAL', table.id);
    const shoeId = (await givenShoe(ctx, terminal, table.id)).id;
    await givenPatrons(ctx, A, D);
    // The worked example of test/e2e/patrons-and-cage/junkets.spec.ts, smaller: a rolling programme, one agent, one member.
    await givenProgramme(ctx, finance, propertyId, {
      code: 'JK-ROLL',
      name: 'Junket rolling 1.25 %',
      basis: 'ROLLING',
      commissionBps: 125,
      effectiveFrom: today,
    });
    junketId = (
      await ctx
        .as(finance)
        .post(`/v1/properties/${propertyId}/junkets`, { code: 'JADE', name: 'Jade VIP Club', licence: 'J-0077', currency: 'HKD', creditLimit: HK(5_000_000) })
        .expect(201)
    ).body.id;
    const [line] = (await ctx.as(finance).get(`/v1/properties/${propertyId}/credit-requests?subject=${junketId}`).expect(200)).body;
    await approveCredit(ctx, line.id);
    await ctx.as(finance).post(`/v1/junkets/${junketId}/agents`, { code: 'AG-1', name: 'Mr Lau' }).expect(201);
    await ctx.as(host).post(`/v1/junkets/${junketId}/members`, { patronId: A, programme: 'JK-ROLL', agent: 'AG-1' }).expect(201);
    await ctx
      .as(cashier)
      .post(`/v1/junkets/${junketId}/account`, { kind: 'MARKER', amount: HK(1_000_000) })
      .expect(201);
    const exchange = (body: object) =>
      ctx
        .as(cashier)
        .post(`/v1/patrons/${A}/chip-exchanges`, { currency: 'HKD', propertyId, ...body })
        .expect(201);
    await exchange({ kind: 'PURCHASE', amount: HK(500_000), settledIn: 'MARKER' });
    const dead = (betType: string, dollars: number) => ({ seat: 1, betType, amount: HK(dollars), patronId: A, chipKind: 'DEAD' });
    const coup = (cards: object, wagers: object[]) => ctx.as(terminal).post(`/v1/shoes/${shoeId}/coups`, { cards, wagers }).expect(201);
    await coup(PLAYER_WINS, [dead('BANKER', 100_000)]);
    await coup(BANKER_WINS, [dead('BANKER', 100_000)]);
    await exchange({ kind: 'RETURN', amount: HK(400_000), settledIn: 'CASH_CHIPS' });
    // Over the property's repayment threshold: requested by the cage, approved by a credit officer, recorded quoting the request.
    const repay = { amount: HK(495_000), method: 'CHIPS' };
    const asked = (
      await ctx
        .as(cashier)
        .post(`/v1/properties/${propertyId}/credit-requests`, { act: 'REPAYMENT', junketId, ...repay, reason: 'chips from the trip' })
        .expect(201)
    ).body;
    await approveCredit(ctx, asked.id);
    await ctx
      .as(cashier)
      .post(`/v1/junkets/${junketId}/account`, { kind: 'REPAYMENT', ...repay, requestId: asked.id })
      .expect(201);
    await ctx
      .as(cashier)
      .post(`/v1/junkets/${junketId}/player-credit`, { patronId: A, kind: 'ADVANCE', amount: HK(100_000) })
      .expect(201);
    // The month moved back a month (the service has no clock to set), then agreed: its statement is locked.
    await asOwner(su, async () => {
      const shift = `- 31 * interval '1 day'`;
      await su.query(`UPDATE coups SET gaming_day = gaming_day ${shift} WHERE table_id = $1`, [table.id]);
      await su.query(`UPDATE wagers SET gaming_day = gaming_day ${shift} WHERE shoe_id = $1 AND gaming_day IS NOT NULL`, [shoeId]);
      await su.query(`UPDATE patron_rollups SET gaming_day = gaming_day ${shift} WHERE table_id = $1`, [table.id]);
      await su.query(`UPDATE patron_coup_rollups SET gaming_day = gaming_day ${shift} WHERE table_id = $1`, [table.id]);
      await su.query(`UPDATE chip_exchanges SET gaming_day = gaming_day ${shift} WHERE property_id = $1`, [propertyId]);
      await su.query(`UPDATE rolling_programmes SET effective_from = effective_from ${shift} WHERE property_id = $1`, [propertyId]);
      await su.query(`UPDATE junket_memberships SET effective_from = effective_from ${shift} WHERE property_id = $1`, [propertyId]);
      await su.query(`UPDATE junket_account_entries SET gaming_day = gaming_day ${shift} WHERE operator_id = $1`, [junketId]);
      await su.query(`UPDATE junket_player_credit SET gaming_day = gaming_day ${shift} WHERE operator_id = $1`, [junketId]);
    });
    month = new Date(Date.parse(`${today}T00:00:00Z`) - 31 * 86_400_000).toISOString().slice(0, 10);
    const seen = (await ctx.as(finance).get(`/v1/junkets/${junketId}/statement?from=${month}&to=${month}`).expect(200)).body;
    expect((await agreeStatement(ctx, finance, junketId, { from: month, to: month, junketSignatory: 'Chan Tai Man', digest: seen.digest })).status).toBe(201);
  });

  it("shows a junket's statement, members, account and agreed periods, and a patron's rolling account, each the API's, at Macau's wall clock", async () => {
    const finance = await givenKey(ctx, 'FINANCE');
    const api = (p: string) => ctx.as(finance).get(p).expect(200);
    const page = await signedIn(finance, '#/vip', AWAY);
    await page.getByRole('combobox', { name: /^Property/ }).selectOption(propertyId);
    const junkets = page.locator('[data-testid="vip-junkets"]');
    await junkets.locator(`tr[data-junket="${junketId}"]`).waitFor();
    const listed = (await api(`/v1/properties/${propertyId}/junkets`)).body as (Record<string, unknown> & { id: string })[];
    for (const j of listed) await sameFields(junkets.locator(`tr[data-junket="${j.id}"]`), j, ['creditLimit', 'balance']);
    await junkets.getByRole('link', { name: 'JADE' }).click();
    await until(page, (id: string) => location.hash === `#/vip/${id}`, junketId);
    // This month: nothing played yet, said in words.
    await page.locator('[data-testid="vip-no-play"]').waitFor();
    // The agreed month.
    const statement = page.locator('[data-testid="vip-statement"]');
    // From the agreed day to today: the API refuses a period that cuts into an agreed one, and the screen says so with its code.
    await page.getByLabel('From', { exact: true }).fill(month);
    const locked = statement.getByRole('alert');
    await locked.waitFor();
    expect(await locked.getAttribute('data-code')).toBe('JUNKET_PERIOD_LOCKED');
    expect(await locked.innerText()).toMatch(/agreed/);
    await page.getByLabel('To', { exact: true }).fill(month);
    await statement.locator('[data-field="status"][data-value="AGREED"]').waitFor();
    await statement.locator('[data-testid="vip-members-play"] tr[data-row]').first().waitFor();
    type Line = Record<string, unknown>;
    const s = (await api(`/v1/junkets/${junketId}/statement?from=${month}&to=${month}`)).body as {
      status: string;
      digest: string;
      reproduced: boolean;
      figures: {
        programmes: (Line & { code: string })[];
        agents: (Line & { agent: string })[];
        members: (Line & { patronId: string })[];
        totals: Line;
        account: Line;
        playerCredit: (Line & { patronId: string })[];
      };
      shares: { members: (Line & { id: string; name: string | null })[]; agents: (Line & { id: string; name: string | null })[] };
    };
    expect(s).toMatchObject({ status: 'AGREED', reproduced: true });
    // A lost 100,000 and won 95,000 after commission: the house's win is 5,000; 1.25 % of the 100,000 rolled is 1,250.
    expect(s.figures.totals).toMatchObject({ rolled: HK(100_000), win: HK(5_000), commission: HK(1_250), inHand: 0, agrees: true });
    expect(s.figures.account).toMatchObject({ opening: 0, markers: HK(1_000_000), repayments: HK(495_000), credited: HK(1_250), due: 'JUNKET_OWES' });
    const F = s.figures;
    expect(await attr(statement.locator('[data-field="digest"]'), 'data-value')).toBe(s.digest);
    expect(await attr(statement.locator('p[data-field="reproduced"]'), 'data-value')).toBe('true');
    await sameFields(
      statement.locator('[data-testid="vip-account"]'),
      F.account,
      ['opening', 'markers', 'repayments', 'payouts', 'credited', 'closing'],
      ['due'],
    );
    await sameFields(
      statement.locator('[data-testid="vip-totals"]'),
      F.totals,
      ['purchased', 'returned', 'netPurchased', 'rolled', 'inHand', 'handle', 'win', 'theoreticalWin', 'commission', 'allowance', 'netWin'],
      ['wagers', 'rollingWinPercent', 'theoreticalRollingWinPercent', 'agrees'],
    );
    for (const p of F.programmes)
      await sameFields(
        statement.locator(`[data-testid="vip-programmes"] tr[data-row="${p.code}"]`),
        p,
        ['rolled', 'handle', 'win', 'commission', 'allowance', 'netWin'],
        ['members', 'daysOutside'],
      );
    for (const a of F.agents)
      await sameFields(statement.locator(`[data-testid="vip-agents"] tr[data-row="${a.agent}"]`), a, ['rolled', 'handle', 'win'], ['members']);
    for (const m of F.members)
      await sameFields(
        statement.locator(`[data-testid="vip-members-play"] tr[data-row="${m.patronId}"]`),
        m,
        ['purchased', 'returned', 'rolled', 'handle', 'win'],
        ['agents', 'programmes', 'wagers', 'rollingWinPercent'],
      );
    for (const c of F.playerCredit)
      await sameFields(statement.locator(`[data-testid="vip-player-credit"] tr[data-row="${c.patronId}"]`), c, ['advanced', 'repaid', 'outstanding']);
    // Who earned the commission, by member and by agent, with the names registered: the API's shares.
    expect(s.shares.members.reduce((a, x) => a + Number(x.commission), 0)).toBe(HK(1_250));
    for (const [part, list] of [
      ['vip-members-play', s.shares.members],
      ['vip-agents', s.shares.agents],
    ] as const)
      for (const x of list) {
        const row = statement.locator(`[data-testid="${part}"] tr[data-row="${x.id}"]`);
        await sameFields(row, x, ['commission', 'allowance']);
        expect(await row.locator('[data-field="name"]').textContent()).toBe(x.name ?? '—');
      }
    expect(await statement.locator('[data-testid="vip-programmes"] tbody tr').count()).toBe(F.programmes.length);
    expect(await statement.locator('[data-testid="vip-members-play"] tbody tr').count()).toBe(F.members.length);

    // Members, the account's entries of the period, the agreed periods.
    const members = (await api(`/v1/junkets/${junketId}/members`)).body as (Line & { id: string })[];
    for (const m of members)
      await sameFields(page.locator(`[data-testid="vip-members"] tr[data-membership="${m.id}"]`), m, [], ['agent', 'programme', 'effectiveFrom']);
    const entries = (await api(`/v1/junkets/${junketId}/account?from=${month}&to=${month}`)).body as (Line & { id: string })[];
    expect(entries.map((e) => e.kind)).toEqual(['MARKER', 'REPAYMENT', 'SETTLEMENT']);
    await until(page, (n: number) => document.querySelectorAll('[data-testid="vip-entries"] tr[data-entry]').length === n, entries.length);
    for (const e of entries) await sameFields(page.locator(`[data-testid="vip-entries"] tr[data-entry="${e.id}"]`), e, ['amount', 'balance'], ['kind']);
    // An entry's time is Macau's wall clock, though the browser is in New York.
    await expectWallClock(page, `[data-testid="vip-entries"] tr[data-entry="${entries[0].id}"] td:nth-child(2)`, entries[0].at as string, 'Asia/Macau');
    const agreed = (await api(`/v1/junkets/${junketId}/statements`)).body as (Line & { id: string })[];
    expect(agreed).toHaveLength(1);
    for (const a of agreed) await sameFields(page.locator(`[data-testid="vip-agreed"] tr[data-agreed="${a.id}"]`), a, [], ['digest']);

    // The member's rolling account over the same month at this property.
    const rolling = page.locator('[data-testid="vip-rolling"]');
    await rolling.getByLabel('Patron card').fill(A);
    await rolling.getByRole('button', { name: 'Show rolling account' }).click();
    await rolling.locator('[data-testid="vip-rolling-HKD"]').waitFor();
    const account = (await api(`/v1/patrons/${A}/rolling?from=${month}&to=${month}&propertyId=${propertyId}`)).body.accounts as Line[];
    expect(account).toHaveLength(1);
    await sameFields(
      rolling.locator('[data-currency="HKD"]'),
      account[0],
      ['purchased', 'returned', 'netPurchased', 'rolled', 'inHand', 'handle', 'win', 'theoreticalWin', 'theoreticalWinStdDev'],
      ['wagers', 'rollingWinPercent', 'theoreticalRollingWinPercent', 'agrees'],
    );

    expect(await sidewaysOnTablet(page)).toEqual([0, 0]);
    await inEveryLanguage(
      page,
      'vip',
      minors(page),
      {
        en: ['VIP room', 'By programme', 'The junket owes the casino'],
        'zh-Hant': ['貴賓廳', '按計劃', '中介人欠賭場', '轉碼贏率'],
        'zh-Hans': ['贵宾厅', '按计划', '中介人欠赌场', '转码赢率'],
      },
      // The refusal asked for above, which Chromium logs itself.
      /status of 409 .*\/statement\?from=/,
    );
    await page.close();
  });

  it('says when there is nothing yet, and shows an error with its code', async () => {
    const quiet = (await ctx.admin.post('/v1/properties', { name: `VIP quiet ${P}`, timeZone: 'Asia/Macau', gamingDayStartHour: 6 }).expect(201)).body
      .id as string;
    const page = await signedIn(cashier, '#/vip');
    await page.getByRole('combobox', { name: /^Property/ }).selectOption(quiet);
    await page.locator('[data-testid="vip-junkets-empty"]').waitFor();
    await page.getByRole('combobox', { name: /^Property/ }).selectOption(propertyId);
    await page.locator(`tr[data-junket="${junketId}"]`).waitFor();
    await page.locator(`a[href="#/vip/${junketId}"]`).click();
    // No period agreed this month; no rolling play of D's.
    await page.locator('[data-testid="vip-no-play"]').waitFor();
    const rolling = page.locator('[data-testid="vip-rolling"]');
    await rolling.getByLabel('Patron card').fill(D);
    await rolling.getByLabel('Patron card').press('Enter');
    await rolling.locator('[data-testid="vip-rolling-empty"]').waitFor();
    await rolling.getByLabel('Patron card').fill(`NOBODY-${P}`);
    await rolling.getByLabel('Patron card').press('Enter');
    const alert = rolling.getByRole('alert');
    await alert.waitFor();
    expect(await alert.getAttribute('data-code')).toMatch(/UNKNOWN_PATRON|NOT_FOUND/);
    expect(await axeViolations(page)).toEqual([]);
    expect(problemsOf(page).filter((p) => !/status of 4\d\d .*\/v1\/patrons\/NOBODY/.test(p))).toEqual([]);
    // A junket that is not there: the API's NOT_FOUND, said with what to do.
    await page.goto(`${url}/app/#/vip/00000000-0000-4000-8000-000000000000`);
    await page.reload();
    await page.locator('main > [role="alert"]').waitFor();
    expect(await page.locator('main > [role="alert"]').getAttribute('data-code')).toBe('NOT_FOUND');
    expect(await page.locator('[data-testid="vip-statement"]').count()).toBe(0);
    await page.close();
  });
});

// The navigation of every role, and each link opening without a refusal: test/e2e/screens/navigation.spec.ts.
