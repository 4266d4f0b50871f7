/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { TestContext } from '../../support/app';
import { axeViolations, overflowAt, problemsOf, Screens, signedIn as signedInAt, startScreens, switchTo } from '../../support/browser';
import { givenCreditLine, givenKey, givenPatrons, givenPit } from '../../support/builders';
import { gamingDayOf } from '../../../src/domain';

/**
 * The cage records at its counter (#/cage, issue 50) in a real Chromium: front money in, dead chips
 * issued against it and taken back, chips cashed, a marker paid; each checked against the API, a
 * refusal said in the screen's language, at 1024 × 768 by a cashier. Nothing is written but through
 * the screen.
 */
jest.setTimeout(240_000);
const P = process.pid;

let ctx: TestContext;
let url: string;
let browser: Browser;
let screens: Screens;
let propertyId: string;
let cashier: string;
let compliance: string;
let tableId: string;
const A = `CG-A-${P}`;

beforeAll(async () => {
  screens = await startScreens();
  ({ ctx, url, browser } = screens);
  propertyId = (
    await ctx.admin.post('/v1/properties', { name: `Cage house ${P}`, timeZone: 'Asia/Macau', gamingDayStartHour: 6, cashCurrency: 'HKD' }).expect(201)
  ).body.id;
  cashier = await givenKey(ctx, 'CASHIER');
  compliance = await givenKey(ctx, 'COMPLIANCE');
  await givenPatrons(ctx, A);
  const pit = await givenPit(ctx, { propertyId, currency: 'HKD', minBet: 10_000, maxBet: 10_000_000 });
  tableId = pit.table.id;
  await givenCreditLine(ctx, propertyId, { patronId: A }, 5_000_000);
  await ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/buy-ins`, { kind: 'MARKER', amount: 2_000_000, patronId: A }).expect(201);
});
afterAll(async () => screens?.close());

describe('the cage at its counter', () => {
  it('front money in, dead chips issued and taken back, chips cashed and a marker paid, each on the screen as the API records it', async () => {
    const page = await signedInAt(browser, url, cashier, '#/cage', { width: 1024, height: 768 });
    await page.getByRole('combobox', { name: /^Property/ }).selectOption(propertyId);
    const cash = page.locator('[data-testid="cage-cash-act"]');
    await cash.getByLabel('What').selectOption('DEPOSIT');
    await cash.getByLabel('Amount').fill('20,000');
    await cash.getByLabel(/^Patron card/).fill(A);
    await cash.getByRole('button', { name: 'Record' }).click();
    await page.getByText('Front money in: HK$20,000 recorded.').waitFor();

    const chips = page.locator('[data-testid="cage-dead-chips-act"]');
    await chips.getByLabel('Patron card').fill(A);
    await chips.getByLabel('What').selectOption('PURCHASE');
    await chips.getByLabel('Amount').fill('15000');
    await chips.getByLabel('Against').selectOption('FRONT_MONEY');
    await chips.getByRole('button', { name: 'Record' }).click();
    await page.getByText(`Issued to the patron: HK$15,000 dead chips, ${A}.`).waitFor();

    // Taking back more dead chips than the patron holds: refused, in Traditional Chinese, nothing written.
    await switchTo(page, 'zh-Hant');
    await chips.getByLabel('項目').selectOption('RETURN');
    await chips.getByLabel('金額').fill('16000');
    await chips.getByRole('button', { name: '記錄' }).click();
    const refusal = chips.locator('[role="alert"][data-code="DEAD_CHIPS_NOT_HELD"] [data-testid="refusal"]');
    expect(await refusal.textContent()).toBe('客人手上沒有這麼多泥碼：賬房只收回客人所持的數目。');
    await chips.getByLabel('金額').fill('5000');
    await chips.getByLabel('以此支付').selectOption('CASH_CHIPS');
    await chips.getByRole('button', { name: '記錄' }).click();
    await page.getByText(`收回：泥碼 HK$5,000，${A}。`).waitFor();
    const day = gamingDayOf(new Date(), 'Asia/Macau', 6);
    const exchanges = (await ctx.as(cashier).get(`/v1/patrons/${A}/chip-exchanges?from=${day}&to=${day}`).expect(200)).body as Record<string, unknown>[];
    expect(exchanges.map((x) => [x.kind, x.amount, x.settledIn, x.currency])).toEqual([
      ['PURCHASE', 1_500_000, 'FRONT_MONEY', 'HKD'],
      ['RETURN', 500_000, 'CASH_CHIPS', 'HKD'],
    ]);

    await switchTo(page, 'zh-Hans');
    await cash.getByLabel('项目').selectOption('CHIP_REDEMPTION');
    await cash.getByLabel('金额').fill('4,000.50');
    await cash.getByLabel(/^客人卡号/).fill(A);
    await cash.getByRole('button', { name: '记录' }).click();
    await page.getByText('兑换筹码：已记录 HK$4,000.50。').waitFor();
    const report = (await ctx.as(compliance).get(`/v1/compliance/cash-report?propertyId=${propertyId}&from=${day}&to=${day}`).expect(200)).body;
    expect(
      (report.multipleTransactionLog as Record<string, unknown>[]).filter((x) => x.patronId === A).map((x) => [x.kind, x.direction, x.amount, x.currency]),
    ).toEqual([
      ['DEPOSIT', 'IN', 2_000_000, 'HKD'],
      ['CHIP_REDEMPTION', 'OUT', 400_050, 'HKD'],
    ]);

    // A marker paid: the patron's markers, the payment on the screen, the outstanding the API's.
    await switchTo(page, 'en');
    const markers = page.locator('[data-testid="cage-markers"]');
    await markers.getByLabel('Patron card').fill(A);
    await markers.getByRole('button', { name: 'Show markers' }).click();
    const markerRow = page.locator('[data-testid="cage-markers"] tr[data-marker]').first();
    await markerRow.getByRole('button', { name: 'Pay this marker (HK$20,000 owed)' }).click();
    await markerRow.getByLabel('Amount (HKD)').fill('7,500');
    await markerRow.getByLabel('Paid in').selectOption('CASH');
    await markerRow.getByRole('button', { name: 'Record the payment' }).click();
    await page.locator('[data-testid="cage-markers"] tr[data-marker] [data-field="outstanding"][data-minor="1250000"]').waitFor();
    const [marker] = (await ctx.as(cashier).get(`/v1/markers?patronId=${A}`).expect(200)).body;
    expect([marker.outstanding, marker.payments.map((p: { amount: number; method: string }) => [p.amount, p.method])]).toEqual([
      1_250_000,
      [[750_000, 'CASH']],
    ]);

    expect((await overflowAt(page, { width: 1024, height: 768 }))[0]).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(problemsOf(page).filter((p) => !/status of 422/.test(p))).toEqual([]);
    expect(tableId).toBeTruthy();
    await page.close();
  });
});
