/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { TestContext } from '../../support/app';
import { axeViolations, inEveryLanguage, Screens, signedIn as signedInAt, startScreens, until } from '../../support/browser';
import { givenCreditLine, givenKey, givenPatrons, givenPit } from '../../support/builders';

/**
 * The markers' ageing on the cage screen (#/cage, issue 49) in a real Chromium: every marker still
 * owed at the property with its age and bucket, and the totals per currency and bucket, each the
 * API's to the minor unit; in each language; shown to a role that may read it, not to one that may not.
 */
jest.setTimeout(240_000);
const P = process.pid;

let ctx: TestContext;
let url: string;
let browser: Browser;
let screens: Screens;
let propertyId: string;
let cashier: string;
const [A, B] = [`AG-A-${P}`, `AG-B-${P}`];

beforeAll(async () => {
  screens = await startScreens();
  ({ ctx, url, browser } = screens);
  propertyId = (
    await ctx.admin.post('/v1/properties', { name: `Ageing house ${P}`, timeZone: 'Asia/Macau', gamingDayStartHour: 6, cashCurrency: 'HKD' }).expect(201)
  ).body.id;
  cashier = await givenKey(ctx, 'CASHIER');
  await givenPatrons(ctx, A, B);
  const pit = await givenPit(ctx, { propertyId, currency: 'HKD', minBet: 100, maxBet: 10_000_000 });
  for (const [card, line, marker] of [
    [A, 3_000_000, 2_500_000],
    [B, 1_000_000, 400_000],
  ] as const) {
    await givenCreditLine(ctx, propertyId, { patronId: card }, line);
    await ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/buy-ins`, { kind: 'MARKER', amount: marker, patronId: card }).expect(201);
  }
  const [owedByA] = (await ctx.as(cashier).get(`/v1/markers?patronId=${A}`).expect(200)).body;
  await ctx.as(cashier).post(`/v1/markers/${owedByA.id}/payments`, { amount: 500_000, method: 'CASH' }).expect(201);
});
afterAll(async () => screens?.close());

const signedIn = (key: string, hash = '') => signedInAt(browser, url, key, hash);

describe('the cage screen’s markers ageing', () => {
  it('lists every marker still owed with its age and bucket, and the totals per currency, each the API’s', async () => {
    const page = await signedIn(cashier, '#/cage');
    await page.getByRole('combobox', { name: /^Property/ }).selectOption(propertyId);
    const section = page.locator('[data-testid="cage-ageing"]');
    await until(page, () => document.querySelectorAll('[data-testid="cage-ageing"] tr[data-marker]').length === 2);
    const day = await page.getByLabel('To', { exact: true }).inputValue();
    const api = (await ctx.as(cashier).get(`/v1/properties/${propertyId}/marker-ageing?asOf=${day}`).expect(200)).body as {
      totals: Record<string, number | string>[];
      markers: (Record<string, number | string> & { id: string })[];
    };
    expect(api.markers).toHaveLength(2);
    expect(api.totals).toEqual([{ currency: 'HKD', current: 2_400_000, days31to60: 0, days61to90: 0, over90: 0, total: 2_400_000 }]);
    for (const m of api.markers) {
      const row = section.locator(`tr[data-marker="${m.id}"]`);
      expect(await row.locator('[data-field="outstanding"]').getAttribute('data-minor')).toBe(String(m.outstanding));
      expect(await row.locator('[data-field="amount"]').getAttribute('data-minor')).toBe(String(m.amount));
      expect(await row.locator('[data-field="bucket"]').getAttribute('data-value')).toBe(m.bucket);
      expect(await row.locator('[data-field="ageDays"]').getAttribute('data-value')).toBe(String(m.ageDays));
      expect(await row.locator('[data-field="patronId"]').getAttribute('data-value')).toBe(m.patronId);
    }
    const totals = section.locator('[data-testid="cage-ageing-totals"] tr[data-currency="HKD"]');
    for (const field of ['current', 'days31to60', 'days61to90', 'over90', 'total'])
      expect([field, await totals.locator(`[data-field="${field}"]`).getAttribute('data-minor')]).toEqual([field, String(api.totals[0][field])]);
    const figures = () =>
      section.locator('[data-minor]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-field')}=${e.getAttribute('data-minor')}`));
    await inEveryLanguage(page, 'ageing', figures, { en: ['Markers ageing'], 'zh-Hant': ['借據賬齡'], 'zh-Hans': ['借据账龄'] });
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });

  it('is not offered to a role that may not read it, and such a role asks for nothing of it', async () => {
    const host = await givenKey(ctx, 'HOST');
    const asked: string[] = [];
    const page = await signedIn(host, '#/cage');
    page.on('request', (r) => asked.push(r.url()));
    await page.getByRole('combobox', { name: /^Property/ }).selectOption(propertyId);
    await page.locator('[data-testid="cage-markers"]').waitFor();
    expect(await page.locator('[data-testid="cage-ageing"]').count()).toBe(0);
    expect(asked.filter((u) => u.includes('marker-ageing'))).toEqual([]);
    await page.close();
  });
});
