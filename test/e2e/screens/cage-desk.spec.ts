/// <reference lib="dom" />
import type { Browser, Locator, Page } from 'playwright-core';
import { gamingDayOf } from '../../../src/domain';
import { TestContext } from '../../support/app';
import { inEveryLanguage, overflowAt, problemsOf, Screens, signedIn, startScreens, switchTo } from '../../support/browser';
import { approveCredit, givenCreditLine, givenKey, givenPatrons, givenTable } from '../../support/builders';
import { givenProgramme } from '../../support/credit-acts';
import { CAGE_REFUSALS } from '../../../app/src/refusals/cage';

/**
 * The cage desk's acts (#/cage, issue 50) in a real Chromium, by a cashier through the screen alone
 * (keyboard, and a click to choose from a list): cash at the cage, dead chips sold against a marker,
 * that marker paid, a junket's marker and its player's credit, each then read back from the API to
 * the minor unit; amounts typed in Hong Kong dollars ("1,234.50") and sent as minor units; refusals
 * provoked through the screen and said by their code in the screen's language; the forms in every
 * language (axe-core, no console error but the refusals provoked), on a 1024 × 768 tablet without
 * sideways scroll; and the desk opening on the property chosen last.
 */
jest.setTimeout(180_000);
const P = process.pid;
const HK = (dollars: number) => dollars * 100;

let ctx: TestContext;
let url: string;
let browser: Browser;
let screens: Screens;

let propertyId: string;
let junketId: string;
let cashier: string;
let compliance: string;
let today: string;
const [WHALE, MEMBER, NOBODY] = [`CD-WHALE-${P}`, `CD-MEMBER-${P}`, `CD-NOBODY-${P}`];

beforeAll(async () => {
  screens = await startScreens();
  ({ ctx, url, browser } = screens);
  const finance = await givenKey(ctx, 'FINANCE');
  cashier = await givenKey(ctx, 'CASHIER');
  compliance = await givenKey(ctx, 'COMPLIANCE');
  // Created after the default property, so the desk would not open on it unless it was the one chosen last.
  propertyId = (
    await ctx.admin.post('/v1/properties', { name: `Zz Cage Desk ${P}`, timeZone: 'Asia/Macau', gamingDayStartHour: 6, cashCurrency: 'HKD' }).expect(201)
  ).body.id;
  today = gamingDayOf(new Date(), 'Asia/Macau', 6);
  await givenTable(ctx, { propertyId, currency: 'HKD', code: 'CD-1', minBet: HK(1_000), maxBet: HK(500_000) });
  await givenPatrons(ctx, WHALE, MEMBER);
  await givenCreditLine(ctx, propertyId, { patronId: WHALE, currency: 'HKD' }, HK(100_000));
  junketId = (
    await ctx
      .as(finance)
      .post(`/v1/properties/${propertyId}/junkets`, { code: 'JADE', name: 'Jade VIP Club', licence: 'J-0077', currency: 'HKD', creditLimit: HK(1_000_000) })
      .expect(201)
  ).body.id;
  const [line] = (await ctx.as(finance).get(`/v1/properties/${propertyId}/credit-requests?subject=${junketId}`).expect(200)).body;
  await approveCredit(ctx, line.id);
  // A member of the junket, whose credit from the junket the cage records as the junket reports it.
  await givenProgramme(ctx, finance, propertyId, {
    code: 'JK-ROLL',
    name: 'Junket rolling 1.25 %',
    basis: 'ROLLING',
    commissionBps: 125,
    effectiveFrom: today,
  });
  await ctx
    .as(await givenKey(ctx, 'HOST'))
    .post(`/v1/junkets/${junketId}/members`, { patronId: MEMBER, programme: 'JK-ROLL' })
    .expect(201);
});
afterAll(async () => {
  await screens?.close();
});

/** Types into a form's field (by its name) from the keyboard, after clearing it. */
async function typeInto(page: Page, form: Locator, name: string, text: string): Promise<void> {
  const field = form.locator(`[name="${name}"]`);
  await field.fill('');
  await field.focus();
  await page.keyboard.type(text);
}

/** Sends a form from the keyboard: Enter in its amount. */
async function send(page: Page, form: Locator, amount: string): Promise<void> {
  await typeInto(page, form, 'amount', amount);
  await page.keyboard.press('Enter');
}

/** The refusal shown under a form: its code, and the sentence said in the screen's language. */
async function refusal(section: Locator): Promise<[string | null, string]> {
  const alert = section.locator('[role="alert"][data-code]').first();
  await alert.waitFor();
  return [await alert.getAttribute('data-code'), await alert.locator('[data-testid="refusal"]').innerText()];
}

it('records cash, dead chips, a marker paid and a junket entry through the screen, each the API’s, in every language', async () => {
  const page = await signedIn(browser, url, cashier, '#/cage');
  const property = page.getByRole('combobox', { name: /^Property/ });
  await property.waitFor();
  expect(await property.inputValue()).not.toBe(propertyId);
  await property.selectOption(propertyId);

  // Cash at the cage, in English: front money deposited, HK$1,234.50 typed, 123450 minor units sent.
  const cash = page.locator('[data-testid="cage-cash-desk"]');
  const cashForm = cash.locator('form.act');
  expect(await cashForm.locator('[data-field="currency"]').innerText()).toBe('HKD');
  await cashForm.locator('select').first().selectOption('DEPOSIT');
  await typeInto(page, cashForm, 'card', WHALE);
  // More decimals than the Hong Kong dollar has: said, and nothing sent.
  await send(page, cashForm, '1,234.505');
  await cash.locator('[data-code="AMOUNT"]').waitFor();
  await send(page, cashForm, '1,234.50');
  const deposited = cash.locator('[data-testid="cage-cash-done"] [data-tx]');
  await deposited.waitFor();
  const txId = await deposited.getAttribute('data-tx');
  const report = (await ctx.as(compliance).get(`/v1/compliance/cash-report?propertyId=${propertyId}&from=${today}&to=${today}`).expect(200)).body as {
    patronDays: { transactions: Record<string, unknown>[] }[];
  };
  const txs = report.patronDays.flatMap((d) => d.transactions);
  expect(txs).toEqual([
    expect.objectContaining({ id: txId, kind: 'DEPOSIT', direction: 'IN', amount: 123_450, currency: 'HKD', patronId: WHALE, tableId: null }),
  ]);

  // In Traditional Chinese: chips cashed with a card nobody holds, refused and said in the language.
  await switchTo(page, 'zh-Hant');
  await cashForm.locator('select').first().selectOption('CHIP_REDEMPTION');
  await typeInto(page, cashForm, 'card', NOBODY);
  await send(page, cashForm, '500');
  expect(await refusal(cash)).toEqual(['UNKNOWN_PATRON', CAGE_REFUSALS['zh-Hant'].UNKNOWN_PATRON]);

  // Dead chips sold to the whale against a marker, HK$50,000: the exchange and its marker, as the API has them.
  const chips = page.locator('[data-testid="cage-chips"]');
  const chipsForm = chips.locator('form.act');
  await typeInto(page, chipsForm, 'card', WHALE);
  await chipsForm.locator('select').nth(0).selectOption('PURCHASE');
  await chipsForm.locator('select').nth(1).selectOption('MARKER');
  await send(page, chipsForm, '50,000');
  const sold = chips.locator('[data-testid="cage-chips-done"] [data-exchange]');
  await sold.waitFor();
  const exchanges = (await ctx.as(cashier).get(`/v1/patrons/${WHALE}/chip-exchanges?propertyId=${propertyId}&from=${today}&to=${today}`).expect(200))
    .body as Record<string, unknown>[];
  expect(exchanges).toEqual([
    expect.objectContaining({
      id: await sold.getAttribute('data-exchange'),
      kind: 'PURCHASE',
      settledIn: 'MARKER',
      amount: HK(50_000),
      currency: 'HKD',
      tableId: null,
    }),
  ]);
  const markerId = exchanges[0].markerId as string;
  expect(markerId).toEqual(expect.any(String));
  // Bought back: more than the whale holds is refused.
  await chipsForm.locator('select').nth(0).selectOption('RETURN');
  await send(page, chipsForm, '60,000');
  expect(await refusal(chips)).toEqual(['DEAD_CHIPS_NOT_HELD', CAGE_REFUSALS['zh-Hant'].DEAD_CHIPS_NOT_HELD]);

  // The marker paid, in English: over the repayment threshold (refused: a credit officer requests it), then HK$1,234.50 in cash.
  await switchTo(page, 'en');
  const markers = page.locator('[data-testid="cage-markers"]');
  await markers.locator('input[name="card"]').focus();
  await page.keyboard.type(WHALE);
  await page.keyboard.press('Enter');
  await markers.locator(`tr[data-marker="${markerId}"]`).waitFor();
  const pay = markers.locator('[data-testid="cage-pay"]');
  const payForm = pay.locator('form.act');
  expect(await payForm.locator('select[name="marker"]').inputValue()).toBe(markerId);
  await send(page, payForm, '60,000');
  expect(await refusal(pay)).toEqual(['MARKER_OVERPAID', CAGE_REFUSALS.en.MARKER_OVERPAID]);
  await send(page, payForm, '20,000');
  const [code, said] = await refusal(pay);
  expect(code).toBe('REPAYMENT_NEEDS_APPROVAL');
  expect(said).toBe(CAGE_REFUSALS.en.REPAYMENT_NEEDS_APPROVAL);
  expect(said).toMatch(/credit officer to request it/);
  await send(page, payForm, '1,234.50');
  await pay.locator('[data-testid="cage-pay-done"]').waitFor();
  const [marker] = (await ctx.as(cashier).get(`/v1/markers?patronId=${WHALE}`).expect(200)).body as {
    id: string;
    outstanding: number;
    payments: { id: string; amount: number; method: string }[];
  }[];
  expect(marker).toMatchObject({ id: markerId, outstanding: HK(50_000) - 123_450, payments: [{ amount: 123_450, method: 'CASH' }] });
  const row = markers.locator(`tr[data-marker="${markerId}"]`);
  await row.locator(`[data-payment="${marker.payments[0].id}"]`).waitFor();
  expect(await row.locator('[data-field="outstanding"]').getAttribute('data-minor')).toBe(String(marker.outstanding));

  // The junket, in Simplified Chinese: a marker on its account, and credit it gave its member.
  await switchTo(page, 'zh-Hans');
  const junkets = page.locator('[data-testid="cage-junkets"]');
  const entry = junkets.locator('[data-testid="cage-junket-entry"]');
  const entryForm = entry.locator('form.act');
  await entryForm.locator('select').first().selectOption('MARKER');
  await send(page, entryForm, '2,000,000');
  expect(await refusal(entry)).toEqual(['JUNKET_CREDIT_LIMIT', CAGE_REFUSALS['zh-Hans'].JUNKET_CREDIT_LIMIT]);
  await send(page, entryForm, '300,000');
  const marked = entry.locator('[data-testid="cage-junket-entry-done"] [data-entry]');
  await marked.waitFor();
  const account = (await ctx.as(cashier).get(`/v1/junkets/${junketId}/account?from=${today}&to=${today}`).expect(200)).body as Record<string, unknown>[];
  expect(account).toEqual([
    expect.objectContaining({ id: await marked.getAttribute('data-entry'), kind: 'MARKER', amount: HK(300_000), balance: HK(300_000) }),
  ]);
  await junkets.locator(`[data-field="balance"][data-minor="${HK(300_000)}"]`).waitFor();
  const credit = junkets.locator('[data-testid="cage-player-credit"]');
  const creditForm = credit.locator('form.act');
  await typeInto(page, creditForm, 'card', MEMBER);
  await send(page, creditForm, '5,000');
  await credit.locator('[data-testid="cage-player-credit-done"]').waitFor();
  const statement = (await ctx.as(cashier).get(`/v1/junkets/${junketId}/statement?from=${today}&to=${today}`).expect(200)).body as {
    figures: { playerCredit: Record<string, unknown>[] };
  };
  expect(statement.figures.playerCredit).toEqual([expect.objectContaining({ patronId: MEMBER, advanced: HK(5_000), outstanding: HK(5_000) })]);
  await switchTo(page, 'en');

  // The forms in every language: axe-core finds nothing; the only errors logged are the refused requests above.
  await inEveryLanguage(
    page,
    'cage-desk',
    () => page.locator('main [data-minor]').evaluateAll((els) => els.map((e) => e.getAttribute('data-minor'))),
    {
      en: ['Cash at the cage', 'Dead chips sold and bought back', 'Pay a marker', "On the junket's account"],
      'zh-Hant': ['賬房現金', '泥碼購入及交回', '收取借據還款', '中介人賬戶'],
      'zh-Hans': ['账房现金', '泥码购入及交回', '收取借据还款', '中介人账户'],
    },
    /status of (409|422) .*\/v1\/(properties\/[^/]+\/cash-transactions|patrons\/[^/]+\/chip-exchanges|markers\/[^/]+\/payments|junkets\/[^/]+\/account)/,
  );
  expect(problemsOf(page)).toHaveLength(5);

  // A tablet: no sideways scroll.
  const [sideways, down] = await overflowAt(page, { width: 1024, height: 768 });
  expect(sideways).toBe(0);
  expect(down).toBeGreaterThanOrEqual(0);

  // Read again: the desk opens on the property chosen last.
  await page.reload();
  await page.getByRole('combobox', { name: /^Property/ }).waitFor();
  await page.locator('[data-testid="cage-cash-desk"]').waitFor();
  expect(await page.getByRole('combobox', { name: /^Property/ }).inputValue()).toBe(propertyId);
  await page.close();
});
