/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { TestContext } from '../../support/app';
import { inEveryLanguage, Screens, signedIn, startScreens } from '../../support/browser';
import { givenAdministrators, givenKey, givenStaff, givenTable } from '../../support/builders';

/**
 * The finance screen's acts and the key page (issue 50) in a real Chromium, each through the
 * screen and read back from the API: a supervisor sets the pace expected of a game, a credit officer
 * enters the day's MOP-into-HKD rate, an auditor has the audit chain verified and a checkpoint
 * signed; a host claims their key, the tab goes on with the new secret, and the old one is refused.
 */
jest.setTimeout(180_000);
const P = process.pid;

let ctx: TestContext;
let url: string;
let browser: Browser;
let screens: Screens;
let propertyId: string;
const PROPERTY = `Finance Acts ${P}`;

beforeAll(async () => {
  screens = await startScreens();
  ({ ctx, url, browser } = screens);
  propertyId = (await ctx.admin.post('/v1/properties', { name: PROPERTY, timeZone: 'Asia/Macau', gamingDayStartHour: 6, cashCurrency: 'HKD' }).expect(201)).body
    .id;
  await givenTable(ctx, { propertyId, currency: 'MOP', code: `FA-${P}`.slice(0, 12), minBet: 10_000, maxBet: 1_000_000 });
});
afterAll(async () => screens?.close());

/** The finance screen on this test's property. */
async function finance(key: string) {
  const page = await signedIn(browser, url, key, '#/finance', { width: 1280, height: 900 });
  await page.getByRole('combobox', { name: /^Property/ }).selectOption({ label: PROPERTY });
  return page;
}

describe('the finance screen records', () => {
  it('the pace a supervisor expects of a game', async () => {
    const supervisor = await givenKey(ctx, 'SUPERVISOR');
    const page = await finance(supervisor);
    const form = page.getByRole('form', { name: 'Set the expected pace' });
    await form.getByLabel('Game').selectOption('SUPER_6');
    await form.getByLabel('Decisions an hour').fill('72');
    await form.getByRole('button', { name: 'Record' }).click();
    await page.getByTestId('finance-pace-done').waitFor();
    await page.locator('[data-testid="finance-pace"] tr[data-variant="SUPER_6"] [data-field="decisionsPerHour"][data-value="72"]').waitFor();
    const pace = (await ctx.as(supervisor).get(`/v1/properties/${propertyId}/pace-targets`).expect(200)).body;
    expect(pace.inForce.find((p: { variant: string }) => p.variant === 'SUPER_6')).toMatchObject({ decisionsPerHour: 72, source: 'PROPERTY' });
    // Not a whole number: said before anything is sent.
    await form.getByLabel('Decisions an hour').fill('7.5');
    await form.getByRole('button', { name: 'Record' }).click();
    await page.getByText('Write a whole number of decisions an hour').waitFor();
    expect((await ctx.as(supervisor).get(`/v1/properties/${propertyId}/pace-targets`).expect(200)).body.entries).toHaveLength(1);
    await page.close();
  });

  it('the day’s exchange rate a credit officer enters, and a refused one in words', async () => {
    const officer = await givenKey(ctx, 'FINANCE');
    const page = await finance(officer);
    const form = page.getByRole('form', { name: 'Enter a rate' });
    const day = await form.getByLabel('Gaming day').inputValue();
    await form.getByLabel('From currency').fill('MOP');
    await form.getByLabel('Into currency').fill('HKD');
    await form.getByLabel('Units of the second for one of the first').fill('0.970874');
    await form.getByRole('button', { name: 'Record' }).click();
    await page.getByTestId('finance-rate-done').waitFor();
    const rates = (await ctx.as(officer).get(`/v1/exchange-rates?from=${day}&to=${day}`).expect(200)).body as any[];
    expect(rates.filter((r) => r.currency === 'MOP' && r.into === 'HKD').map((r) => [r.day, r.rate, r.inForce])).toEqual([[day, '0.970874', true]]);
    await page.locator('[data-testid="finance-rates"] [data-field="rate"][data-value="0.970874"]').waitFor();
    // A rate that is not a number is the service's refusal, said with its code; nothing is written.
    await form.getByLabel('Units of the second for one of the first').fill('about one');
    await form.getByRole('button', { name: 'Record' }).click();
    await page.locator('[data-testid="finance-rates"] [role="alert"][data-code="VALIDATION_FAILED"]').waitFor();
    expect((await ctx.as(officer).get(`/v1/exchange-rates?from=${day}&to=${day}`).expect(200)).body).toHaveLength(rates.length);
    await page.close();
  });

  it('an audit checkpoint an auditor has signed, in every language', async () => {
    const auditor = await givenKey(ctx, 'AUDITOR');
    const page = await finance(auditor);
    const before = await ctx.as(auditor).get('/v1/audit/checkpoints/latest');
    // Read when asked: none yet, or the one the service signed before.
    await page.getByRole('button', { name: 'Show the latest checkpoint' }).click();
    if (before.status === 404) await page.getByText('None signed yet.').waitFor();
    else await page.locator(`[data-testid="finance-audit-latest"] [data-field="at"][data-value="${before.body.body.at}"]`).waitFor();
    await page.getByRole('button', { name: 'Verify and sign a checkpoint now' }).click();
    await page.getByTestId('finance-audit-done').waitFor();
    const after = (await ctx.as(auditor).get('/v1/audit/checkpoints/latest').expect(200)).body;
    expect(after.id).not.toBe(before.body?.id);
    await page.locator(`[data-testid="finance-audit-latest"] [data-field="at"][data-value="${after.body.at}"]`).waitFor();
    await inEveryLanguage(
      page,
      null,
      () => page.locator('[data-testid="finance-audit-latest"] [data-field="at"]').getAttribute('data-value'),
      {
        en: ['Audit checkpoint', 'Exchange rates'],
        'zh-Hant': ['審計檢查點', '匯率'],
        'zh-Hans': ['审计检查点', '汇率'],
      },
      /404 \(Not Found\).*\/v1\/audit\/checkpoints\/latest/,
    ); // shown when asked before any was signed: the service's 404, which the browser logs
    await page.close();
  });
});

describe('the key page', () => {
  it('a host claims their key: the new secret shown once, the tab goes on with it, the old one refused, and the host stops it', async () => {
    // A key as its administrator minted it: its secret seen by them, not yet claimed.
    const staffId = `E-CLAIM-${P}`;
    await givenStaff(ctx, staffId, 'HOST');
    const { first } = await givenAdministrators(ctx);
    const host = (await ctx.as(first).post('/v1/api-keys', { name: 'Host to claim', role: 'HOST', staffId }).expect(201)).body.key as string;
    const page = await signedIn(browser, url, host, '#/patrons');
    await page.locator('header.top a.who').click();
    await page.getByRole('heading', { name: 'Your key' }).waitFor();
    await page.getByRole('button', { name: 'Claim this key' }).click();
    const secret = await page.getByTestId('new-secret').textContent();
    expect(secret).toBeTruthy();
    expect(secret).not.toBe(host);
    expect((await ctx.as(host).get('/v1/api-keys/me')).status).toBe(401);
    expect((await ctx.as(secret!).get('/v1/api-keys/me').expect(200)).body.role).toBe('HOST');
    // The tab signs its next reads with the new secret.
    await page.goto(`${url}/app/#/patrons`);
    await page.locator('header.top').waitFor();
    expect(await page.locator('#api-key').count()).toBe(0);
    // Claimed once only: the page says when, and offers no second claim; then the witness.
    await page.goto(`${url}/app/#/key`);
    await page.reload();
    const state = page.getByTestId('key-claim-state');
    await state.getByText('No second administrator has witnessed the claim yet', { exact: false }).waitFor();
    expect(await state.textContent()).toContain('You claimed this key on');
    expect(await page.getByRole('button', { name: 'Claim this key' }).count()).toBe(0);
    const { second } = await givenAdministrators(ctx);
    const id = ((await ctx.as(secret!).get('/v1/api-keys/me').expect(200)).body as { keyId: string }).keyId;
    await ctx.as(second).post(`/v1/api-keys/${id}/witness`, {}).expect(200);
    await page.reload();
    await state.getByText('the key is yours alone', { exact: false }).waitFor();
    // The holder stops the key: asked twice, then it is refused everywhere.
    await page.getByRole('button', { name: 'Stop this key' }).click();
    await page.getByRole('button', { name: 'Yes, stop it now' }).click();
    await page.getByTestId('key-stopped').waitFor();
    expect((await ctx.as(secret!).get('/v1/api-keys/me')).status).toBe(401);
    await page.close();
  });
});
