/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { TestContext } from '../../support/app';
import {
  AWAY,
  axeViolations,
  expectWallClock,
  inEveryLanguage,
  LANGS,
  problemsOf,
  Screens,
  signedIn as signedInAt,
  startScreens,
  switchTo,
  until,
} from '../../support/browser';
import { dealtHands, givenKey, givenPit, givenVoid } from '../../support/builders';

/**
 * The finance analyst's screen (/app/#/finance) and the yield advisor (/app/#/yield), in a real
 * Chromium: the finance figures follow the tables' coups live, the screen opens on the property
 * that matters, says when a period has no play, keeps a loss's minus sign on its chart, shows the
 * quarter's exception report and the commission charged, collected and outstanding, each the
 * API's to the minor unit; both screens in English, 繁體中文 and 简体中文.
 */
jest.setTimeout(180_000);
const DEFAULT_PROPERTY = '00000000-0000-4000-8000-000000000001';
const BANKER_7 = { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] };
const PLAYER_9 = { player: ['9S', 'KD'], banker: ['8H', 'KC'] };

let ctx: TestContext;
let url: string;
let browser: Browser;
let finance: string;
let screens: Screens;

beforeAll(async () => {
  screens = await startScreens();
  ({ ctx, url, browser } = screens);
  finance = await givenKey(ctx, 'FINANCE');
});
afterAll(() => screens?.close());

const signedIn = (key: string, hash = '', timezoneId?: string) => signedInAt(browser, url, key, hash, undefined, timezoneId);

async function givenProperty(name: string): Promise<string> {
  return (await ctx.admin.post('/v1/properties', { name, timeZone: 'UTC', gamingDayStartHour: 6 }).expect(201)).body.id as string;
}

async function coup(key: string, shoeId: string, cards: { player: string[]; banker: string[] }, wagers?: { seat: number; betType: string; amount: number }[]) {
  const res = await ctx
    .as(key)
    .post(`/v1/shoes/${shoeId}/coups`)
    .send({
      cards,
      wagers: wagers ?? [
        { seat: 1, betType: 'BANKER', amount: 2_500 },
        { seat: 3, betType: 'PLAYER', amount: 1_000 },
      ],
    });
  expect(res.status).toBe(201);
  return res.body as { id: string; gamingDay: string };
}

/** The finance screen on `propertyId`, its by-table figures shown (in a browser whose clock is in `timezoneId`, if given). */
async function financeOn(propertyId: string, tableCode: string, timezoneId?: string): Promise<Page> {
  const page = await signedIn(finance, '#/finance', timezoneId);
  await page.getByLabel('Property').waitFor();
  await page.getByLabel('Property').selectOption(propertyId);
  await page.locator(`[data-testid="report-table"] tr[data-row="${tableCode}"]`).waitFor();
  return page;
}

const period = async (page: Page) => ({
  from: await page.getByLabel('From', { exact: true }).inputValue(),
  to: await page.getByLabel('To', { exact: true }).inputValue(),
});

type ApiRow = { group: Record<string, string> } & Record<string, number | string | null>;

describe('finance screen', () => {
  it('opens on the property with the latest play rather than the empty default one, then on the property chosen last', async () => {
    const played = await givenProperty('Casino Finance Played');
    const own = await givenPit(ctx, { code: 'FS-PLAY', pit: 'P', propertyId: played });
    for (const cards of dealtHands(8, 601, 3)) await coup(own.terminal, own.shoe.id, cards);
    const page = await signedIn(finance, '#/finance');
    await page.locator('[data-testid="report-table"] tr[data-row="FS-PLAY"]').waitFor();
    expect(await page.getByLabel('Property').inputValue()).toBe(played);
    // Chosen by hand: remembered in this browser, and opened on again.
    await page.getByLabel('Property').selectOption(DEFAULT_PROPERTY);
    await page.locator('[data-testid="no-play"]').waitFor();
    await page.reload();
    await page.locator('[data-testid="no-play"]').waitFor();
    expect(await page.getByLabel('Property').inputValue()).toBe(DEFAULT_PROPERTY);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it('a period with no play says so in words, with no empty tables', async () => {
    const page = await signedIn(finance, '#/finance');
    await page.getByLabel('Property').waitFor();
    await page.getByLabel('Property').selectOption(DEFAULT_PROPERTY);
    const note = page.locator('[data-testid="no-play"]');
    await note.waitFor();
    expect(await note.innerText()).toContain('No play recorded in this period');
    expect(await page.locator('[data-testid^="report-"] table').count()).toBe(0);
    await switchTo(page, 'zh-Hant');
    await page.getByText('此期間沒有投注記錄').waitFor();
    await switchTo(page, 'zh-Hans');
    await page.getByText('此期间没有投注记录').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await switchTo(page, 'en');
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it("follows the property's tables live: coups recorded through the API appear without a reload, one reload in flight at a time", async () => {
    const property = await givenProperty('Casino Finance Live');
    const own = await givenPit(ctx, { code: 'FS-LIVE', pit: 'L', propertyId: property });
    const hands = dealtHands(8, 602, 14);
    for (const cards of hands.slice(0, 2)) await coup(own.terminal, own.shoe.id, cards);
    const page = await financeOn(property, 'FS-LIVE');
    await page.locator('[data-live="true"]').waitFor();
    const coups = '[data-testid="report-table"] tr[data-row="FS-LIVE"] [data-field="coups"]';
    await until(page, (sel: string) => document.querySelector(sel)?.getAttribute('data-value') === '2', coups);
    await page.evaluate(() => ((window as unknown as { unreloaded: boolean }).unreloaded = true));
    // The reports the screen asks for while a busy table deals: never two at once.
    let inFlight = 0;
    let most = 0;
    const isReport = (u: string) => u.includes('/v1/reports/win-loss') && u.includes('groupBy=table');
    page.on('request', (r) => {
      if (isReport(r.url())) most = Math.max(most, ++inFlight);
    });
    const done = (r: { url(): string }) => {
      if (isReport(r.url())) inFlight--;
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);

    for (const cards of hands.slice(2, 14)) await coup(own.terminal, own.shoe.id, cards);
    await until(page, (sel: string) => document.querySelector(sel)?.getAttribute('data-value') === '14', coups);
    expect(await page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded)).toBe(true);
    expect(most).toBe(1);
    const { from, to } = await period(page);
    const api = (await ctx.as(finance).get(`/v1/reports/win-loss?from=${from}&to=${to}&propertyId=${property}&groupBy=table`).expect(200)).body as {
      rows: ApiRow[];
    };
    const row = api.rows.find((r) => r.group.tableCode === 'FS-LIVE')!;
    expect(row.coups).toBe(14);
    const line = page.locator('[data-testid="report-table"] tr[data-row="FS-LIVE"]');
    for (const field of ['handle', 'win', 'theoreticalWin', 'commissionCharged'])
      expect([field, await line.locator(`[data-field="${field}"]`).getAttribute('data-minor')]).toEqual([field, String(row[field])]);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it("a period the house lost: the chart's value axis keeps the minus sign, in each language's figures, with room for every label", async () => {
    const property = await givenProperty('Casino Finance Loss');
    const own = await givenPit(ctx, { code: 'FS-LOSS', pit: 'X', propertyId: property, maxBet: 100_000_000 });
    // The Player wins with a natural nine three times, on 10,000.00 a time: the house is 30,000.00 down.
    for (let i = 0; i < 3; i++) await coup(own.terminal, own.shoe.id, PLAYER_9, [{ seat: 1, betType: 'PLAYER', amount: 1_000_000 }]);
    const page = await financeOn(property, 'FS-LOSS');
    expect(await page.locator('[data-testid="report-table"] tr[data-row="FS-LOSS"] [data-field="win"]').getAttribute('data-minor')).toBe('-3000000');
    const chart = page.locator('[data-testid="report-gamingDay"] .chart');
    await until(page, () => (document.querySelector('[data-testid="report-gamingDay"] .chart')?.getAttribute('data-y-ticks') ?? '[]') !== '[]');
    for (const lang of LANGS) {
      await switchTo(page, lang);
      await until(page, () => (document.querySelector('[data-testid="report-gamingDay"] .chart')?.getAttribute('data-y-ticks') ?? '[]') !== '[]');
      const axis = await chart.evaluate((el: HTMLElement) => {
        const ticks = JSON.parse(el.dataset.yTicks ?? '[]') as string[];
        const ctx2d = document.createElement('canvas').getContext('2d')!;
        ctx2d.font = el.dataset.yFont ?? '';
        return {
          ticks,
          size: Number(el.dataset.yAxisSize),
          widths: ticks.map((t) => ctx2d.measureText(t).width),
          x: JSON.parse(el.dataset.xTicks ?? '[]') as string[],
        };
      });
      const negative = axis.ticks.filter((t) => /^[-−]/.test(t));
      // A loss of 30,000 reads as one, with its sign and the language's grouping.
      expect([lang, negative.length > 0, negative.every((t) => /^[-−]\d{1,3}(,\d{3})*(\.\d+)?$/.test(t))]).toEqual([lang, true, true]);
      expect([lang, negative.some((t) => /^[-−]\d{2},\d{3}$/.test(t))]).toEqual([lang, true]);
      // uPlot draws the labels right-aligned against the plot, after the ticks (10 px) and a gap (5 px): the widest must fit the axis.
      expect([lang, Math.max(...axis.widths) + 15 <= axis.size]).toEqual([lang, true]);
      // The days on the other axis are the language's own.
      if (lang !== 'en') expect([lang, axis.x.every((d) => /月/.test(d))]).toEqual([lang, true]);
    }
    await switchTo(page, 'en');
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  describe('a property with commission and voids', () => {
    let property: string;
    let pitOf: Awaited<ReturnType<typeof givenPit>>;
    beforeAll(async () => {
      property = await givenProperty('Casino Finance Ledger');
      pitOf = await givenPit(ctx, { code: 'FS-LEDG', pit: 'G', propertyId: property });
      const { terminal, supervisor, shoe, table } = pitOf;
      const supervisor2 = await givenKey(ctx, 'SUPERVISOR');
      // Banker wins twice on 100.00: 5.00 commission charged each time, 3.00 of it collected.
      for (let i = 0; i < 2; i++)
        await coup(terminal, shoe.id, BANKER_7, [
          { seat: 1, betType: 'BANKER', amount: 10_000 },
          { seat: 2, betType: 'PLAYER', amount: 5_000 },
        ]);
      expect((await ctx.as(supervisor).post(`/v1/shoes/${shoe.id}/commissions/collections`).send({ seat: 1, amount: 300 })).status).toBe(201);
      for (const cards of dealtHands(8, 603, 4)) await coup(terminal, shoe.id, cards);
      // A coup voided, and a fill slip voided: both in the quarter's exception report.
      const wrong = await coup(terminal, shoe.id, PLAYER_9, [{ seat: 4, betType: 'BANKER', amount: 7_500 }]);
      await givenVoid(ctx, 'coups', wrong.id, 'Dealt at the wrong table', supervisor, supervisor2);
      const session = await ctx.as(supervisor).post(`/v1/tables/${table.id}/sessions`).send({ opener: [] });
      expect(session.status).toBe(201);
      const slip = await ctx
        .as(supervisor)
        .post(`/v1/table-sessions/${session.body.id}/slips`)
        .send({ kind: 'FILL', chips: [{ denomination: 10_000, count: 3 }] });
      expect(slip.status).toBe(201);
      await givenVoid(ctx, 'slips', slip.body.id, 'Fill entered twice', supervisor, supervisor2);
    });

    it('shows commission charged and collected beside the outstanding, by row, in the totals and in the quarter, as the API gives them', async () => {
      const page = await financeOn(property, 'FS-LEDG');
      const { from, to } = await period(page);
      const api = (await ctx.as(finance).get(`/v1/reports/win-loss?from=${from}&to=${to}&propertyId=${property}&groupBy=table`).expect(200)).body as {
        rows: ApiRow[];
        totalsByCurrency: (ApiRow & { currency: string })[];
      };
      const row = api.rows.find((r) => r.group.tableCode === 'FS-LEDG')!;
      expect([row.commissionCharged, row.commissionCollected, row.commissionOutstanding]).toEqual([expect.any(Number), 300, expect.any(Number)]);
      expect(Number(row.commissionCharged)).toBeGreaterThan(300);
      const fields = ['commissionCharged', 'commissionCollected', 'commissionOutstanding'];
      const line = page.locator('[data-testid="report-table"] tr[data-row="FS-LEDG"]');
      for (const field of fields)
        expect([field, await line.locator(`[data-field="${field}"]`).getAttribute('data-minor')]).toEqual([field, String(row[field])]);
      for (const tot of api.totalsByCurrency) {
        const total = page.locator(`[data-testid="report-table"] tfoot tr[data-row="total"][data-currency="${tot.currency}"]`);
        for (const field of fields)
          expect([field, await total.locator(`[data-field="${field}"]`).getAttribute('data-minor')]).toEqual([field, String(tot[field])]);
      }
      const day = to;
      const year = Number(day.slice(0, 4));
      const quarter = Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1;
      const q = (await ctx.as(finance).get(`/v1/reports/quarterly?propertyId=${property}&year=${year}&quarter=${quarter}`).expect(200)).body as {
        totals: (ApiRow & { currency: string })[];
      };
      expect(q.totals.length).toBeGreaterThan(0);
      for (const tot of q.totals) {
        const r = page.locator(`[data-testid="quarterly"] tr[data-row="${tot.currency}"]`);
        for (const field of [...fields, 'handle', 'win', 'revenue', 'theoreticalWin'])
          expect([field, await r.locator(`[data-field="${field}"]`).getAttribute('data-minor')]).toEqual([field, String(tot[field])]);
      }
      expect(problemsOf(page)).toEqual([]);
      await page.close();
    });

    it("shows the quarter's exception report, record by record and field by field as the API gives it, its times the property's wall clock", async () => {
      // The browser in New York, the property in UTC.
      const page = await financeOn(property, 'FS-LEDG', AWAY);
      const { to } = await period(page);
      const year = Number(to.slice(0, 4));
      const quarter = Math.floor((Number(to.slice(5, 7)) - 1) / 3) + 1;
      const q = (await ctx.as(finance).get(`/v1/reports/quarterly?propertyId=${property}&year=${year}&quarter=${quarter}`).expect(200)).body as {
        exceptions: Record<string, Record<string, string | number | boolean | null>[]>;
      };
      expect(q.exceptions.voidedCoups).toEqual([expect.objectContaining({ tableCode: 'FS-LEDG', reason: 'Dealt at the wrong table', handle: 7_500 })]);
      expect(q.exceptions.voidedSlips).toEqual([expect.objectContaining({ tableCode: 'FS-LEDG', kind: 'FILL', amount: 30_000 })]);
      const report = page.locator('[data-testid="exceptions"]');
      await report.locator('[data-list="voidedCoups"] tr[data-id]').first().waitFor();
      const ids: Record<string, string> = {
        voidedCoups: 'coupId',
        voidedSlips: 'slipId',
        voidedBankCoups: 'bankCoupId',
        voidedBuyIns: 'buyInId',
        integrityAlerts: 'alertId',
        coupsRecordedOffline: 'coupId',
      };
      expect(Object.keys(q.exceptions).sort()).toEqual(Object.keys(ids).sort());
      for (const [list, records] of Object.entries(q.exceptions)) {
        expect([list, await report.locator(`[data-list="${list}"] tr[data-id]`).count()]).toEqual([list, records.length]);
        for (const rec of records) {
          const tr = report.locator(`[data-list="${list}"] tr[data-id="${String(rec[ids[list]])}"]`);
          for (const [field, value] of Object.entries(rec)) {
            if (field === ids[list]) continue;
            const cell = tr.locator(`[data-field="${field}"]`);
            const shown = (await cell.getAttribute('data-minor')) ?? (await cell.getAttribute('data-value'));
            expect([list, field, shown]).toEqual([list, field, value === null ? '' : String(value)]);
          }
        }
      }
      // Who, why and when, as a person reads them.
      const voided = report.locator('[data-list="voidedCoups"] tr[data-id]').first();
      expect(await voided.innerText()).toContain('Dealt at the wrong table');
      expect(await voided.locator('[data-field="voidedByRole"]').innerText()).toBe('Supervisor');
      const [coupVoided] = q.exceptions.voidedCoups as { coupId: string; voidedAt: string }[];
      await expectWallClock(
        page,
        `[data-testid="exceptions"] [data-list="voidedCoups"] tr[data-id="${coupVoided.coupId}"] [data-field="voidedAt"]`,
        coupVoided.voidedAt,
        'UTC',
      );
      expect(problemsOf(page)).toEqual([]);
      await page.close();
    });

    it('reads in English, 繁體中文 and 简体中文: the same figures, axe-core finds nothing', async () => {
      const page = await financeOn(property, 'FS-LEDG');
      await page.locator('[data-testid="exceptions"] [data-list="voidedSlips"] tr[data-id]').first().waitFor();
      await page.locator('[data-live="true"]').waitFor();
      const minors = () => page.locator('[data-minor]').evaluateAll((els) => els.map((e) => e.getAttribute('data-minor')));
      await inEveryLanguage(page, 'finance-exceptions', minors, {
        en: ['By table', 'Commission collected', 'Exception report', 'Voided coups', 'Fill'],
        'zh-Hant': ['按賭枱', '已收佣金', '異常報告', '已作廢牌局', '加彩', '理論贏額'],
        'zh-Hans': ['按赌台', '已收佣金', '异常报告', '已作废牌局', '加彩', '理论赢额'],
      });
      await page.close();
    });
  });
});

describe('yield screen', () => {
  it('reads in English, 繁體中文 and 简体中文, its figures the same in each', async () => {
    const property = await givenProperty('Casino Finance Yield');
    const own = await givenPit(ctx, { code: 'FS-YLD', pit: 'Y', propertyId: property });
    await ctx.as(own.supervisor).post(`/v1/tables/${own.table.id}/sessions`).send({ opener: [] }).expect(201);
    for (const cards of dealtHands(8, 604, 6)) await coup(own.terminal, own.shoe.id, cards);
    const page = await signedIn(finance, '#/yield');
    await page.getByLabel('Property').selectOption(property);
    await page.locator('[data-testid="yield-levels"] tbody tr').first().waitFor();
    await page.locator('[data-testid="yield-held"] [role="alert"], [data-testid="yield-held"] dl').first().waitFor();
    const minors = () => page.locator('[data-minor]').evaluateAll((els) => els.map((e) => e.getAttribute('data-minor')));
    await inEveryLanguage(page, null, minors, {
      en: ['Players per table', 'Advice, a week', 'Weeks held back'],
      'zh-Hant': ['每枱人數', '建議（每週）', '保留週數', '週一'],
      'zh-Hans': ['每台人数', '建议（每周）', '保留周数', '周一'],
    });
    await page.close();
  });
});
