/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { connect } from 'nats';
import { Browser, chromium, Page } from 'playwright-core';
import { listening, startTestApp, TestContext } from '../support/app';
import { dealtHands, givenKey, givenPit } from '../support/builders';

/**
 * The screens under /app, in a real Chromium (Debian's, driven by playwright-core): coups recorded
 * through the API appear on the scoreboard and the pit overview without a reload, and the finance
 * screen's figures are the API's to the minor unit. With SCREENSHOTS=write, each screen is saved to
 * docs/screens/ for the README (npm run screenshots).
 */
jest.setTimeout(180_000);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MACHINE_NATS = 'nats://127.0.0.1:4222';
const SHOTS = process.env.SCREENSHOTS === 'write' ? path.join(__dirname, '../../docs/screens') : null;

let ctx: TestContext;
let url: string;
let browser: Browser;
const STREAM = `SABOT_S${Date.now().toString(36).toUpperCase()}`;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`);
  ctx = await startTestApp({ NATS_URL: MACHINE_NATS, EVENTS_STREAM: STREAM });
  url = await listening(ctx.app);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
  const nc = await connect({ servers: MACHINE_NATS });
  await (await nc.jetstreamManager()).streams.delete(STREAM).catch(() => undefined);
  await nc.close();
});

/** A tablet-sized page, signed in with `key` through the sign-in form (keyboard only). */
async function signedIn(key: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !m.text().includes('status of 4') && problems.push(m.text()));
  (page as Page & { problems?: string[] }).problems = problems;
  await page.goto(`${url}/app/`);
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('api-key');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
  await page.getByRole('link', { name: 'Pit overview' }).waitFor();
  return page;
}

const problemsOf = (page: Page) => (page as Page & { problems?: string[] }).problems ?? [];

/** Waits (as long as it takes, up to a generous bound) until the page says `value` for `fn`. */
async function until<A>(page: Page, fn: (arg: A) => unknown, arg?: A): Promise<void> {
  await page.waitForFunction(fn as (arg: unknown) => unknown, arg, { timeout: 30_000, polling: 100 });
}

async function coup(key: string, shoeId: string, cards: { player: string[]; banker: string[] }, amount = 2_500) {
  const res = await ctx
    .as(key)
    .post(`/v1/shoes/${shoeId}/coups`)
    .send({
      cards,
      wagers: [
        { seat: 1, betType: 'BANKER', amount },
        { seat: 3, betType: 'PLAYER', amount: 1_000 },
        { seat: 5, betType: 'TIE', amount: 500 },
      ],
    });
  expect(res.status).toBe(201);
}

/** On a tablet held either way (1024 × 768, 768 × 1024) the page never scrolls sideways: wide roads and tables scroll in their own box. */
async function sidewaysOnTablet(page: Page): Promise<number[]> {
  const out: number[] = [];
  for (const viewport of [
    { width: 1024, height: 768 },
    { width: 768, height: 1024 },
  ]) {
    await page.setViewportSize(viewport);
    out.push(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth));
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  return out;
}

/** The page's accessibility basics: labelled fields, captioned tables, named pictures, readable contrast. */
async function accessibilityProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const i of document.querySelectorAll('input, select'))
      if ((i as HTMLInputElement).labels?.length === 0 && !i.getAttribute('aria-label')) out.push(`unlabelled field ${i.outerHTML.slice(0, 60)}`);
    for (const t of document.querySelectorAll('table')) if (!t.querySelector('caption')) out.push('a table without a caption');
    for (const s of document.querySelectorAll('svg[role="img"], [role="img"]')) if (!s.getAttribute('aria-label')) out.push('a picture without a name');
    for (const b of document.querySelectorAll('button, a'))
      if (!(b.textContent ?? '').trim() && !b.getAttribute('aria-label')) out.push('a control without a name');
    // WCAG 2 contrast of every element holding text against the first opaque background behind it.
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = (c: number[]) => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    for (const el of document.querySelectorAll('body *')) {
      if (el.closest('svg') || el.closest('.sr-only')) continue;
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim());
      if (!own) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      let bg: number[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.length === 3 || (c.length === 4 && c[3] === 1)) {
          bg = c;
          break;
        }
      }
      if (bg.length === 0) bg = rgb(getComputedStyle(document.documentElement).backgroundColor);
      const [l1, l2] = [lum(rgb(style.color)), lum(bg)].sort((a, b) => b - a);
      const ratio = (l1 + 0.05) / (l2 + 0.05);
      if (ratio < 4.5) out.push(`contrast ${ratio.toFixed(2)} for "${(el.textContent ?? '').trim().slice(0, 30)}"`);
    }
    return out;
  });
}

describe('screens', () => {
  it('the scoreboard draws the roads and follows coups live, without a reload', async () => {
    const pit = await givenPit(ctx, { code: 'BAC-01', pit: 'A' });
    const hands = dealtHands(8, 2026, 30);
    for (const cards of hands.slice(0, 20)) await coup(pit.terminal, pit.shoe.id, cards);
    const page = await signedIn(pit.terminal);
    await page.goto(`${url}/app/#/tables/${pit.table.id}`);
    await page.getByText('Live', { exact: true }).waitFor();
    await until(page, () => document.querySelectorAll('[data-testid="bead-plate"] [data-coup]').length === 20);
    await page.evaluate(() => ((window as unknown as { unreloaded: boolean }).unreloaded = true));

    const roads = (await ctx.as(pit.terminal).get(`/v1/shoes/${pit.shoe.id}/roads`)).body as { bigRoad: { cells: unknown[] }; beadPlate: { cells: unknown[] } };
    expect(await page.locator('[data-testid="big-road"] g[data-coup]').count()).toBe(roads.bigRoad.cells.length);

    for (const cards of hands.slice(20, 25)) await coup(pit.terminal, pit.shoe.id, cards);
    await until(page, () => document.querySelectorAll('[data-testid="bead-plate"] [data-coup]').length === 25);
    const shoe = (await ctx.as(pit.terminal).get(`/v1/shoes/${pit.shoe.id}`)).body as { cardsLeft: number };
    await until(page, (left: number) => document.querySelector('[data-testid="cards-left"]')?.textContent === String(left), shoe.cardsLeft);
    expect(await page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded)).toBe(true);
    // The last coup's cards, as dealt, at the top of the list.
    const lastRow = page.locator('[data-testid="last-coups"] tbody tr').first();
    expect(await lastRow.getAttribute('data-coup')).toBe('25');
    const cardsOf = (side: number) =>
      lastRow
        .locator('td')
        .nth(side)
        .locator('[data-card]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-card')));
    expect(await cardsOf(1)).toEqual(hands[24].player);
    expect(await cardsOf(2)).toEqual(hands[24].banker);
    // The exact odds of the next coup are those of the shoe as it stands.
    await page.locator('[data-testid="odds"]').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(await sidewaysOnTablet(page)).toEqual([0, 0]);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'scoreboard.png'), fullPage: true });
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it('the pit overview shows every open table and moves with each coup', async () => {
    const a = await givenPit(ctx, { code: 'BAC-02', pit: 'A' });
    const b = await givenPit(ctx, { code: 'MINI-03', pit: 'B', variant: 'SUPER_6' });
    const supervisor = await givenKey(ctx, 'SUPERVISOR');
    const page = await signedIn(supervisor);
    await page.goto(`${url}/app/#/pit`);
    await page.getByText('Live', { exact: true }).waitFor();
    const cell = (code: string, field: string) => `[data-table="${code}"] [data-field="${field}"]`;
    await page.locator(cell('MINI-03', 'coups')).waitFor();
    expect(await page.locator(cell('MINI-03', 'coups')).innerText()).toBe('0');
    await page.evaluate(() => ((window as unknown as { unreloaded: boolean }).unreloaded = true));

    const hands = dealtHands(8, 77, 12);
    for (const cards of hands.slice(0, 6)) await coup(b.terminal, b.shoe.id, cards);
    for (const cards of hands.slice(6, 9)) await coup(a.terminal, a.shoe.id, cards);
    await until(page, (sel: string) => document.querySelector(sel)?.textContent === '6', cell('MINI-03', 'coups'));
    await until(page, (sel: string) => document.querySelector(sel)?.textContent === '3', cell('BAC-02', 'coups'));
    // The figures are the API's, to the minor unit.
    const day = (await ctx.as(b.terminal).get(`/v1/shoes/${b.shoe.id}/coups`)).body[0].gamingDay as string;
    const report = (await ctx.as(supervisor).get(`/v1/reports/win-loss?from=${day}&to=${day}&groupBy=table`)).body as {
      rows: { group: { tableCode: string }; win: number; handle: number; commissionOutstanding: number }[];
    };
    for (const row of report.rows) {
      await until(page, (a: [string, string]) => document.querySelector(a[0])?.getAttribute('data-minor') === a[1], [
        cell(row.group.tableCode, 'win'),
        String(row.win),
      ]);
      expect(await page.locator(cell(row.group.tableCode, 'handle')).getAttribute('data-minor')).toBe(String(row.handle));
      expect(await page.locator(cell(row.group.tableCode, 'commissionOutstanding')).getAttribute('data-minor')).toBe(String(row.commissionOutstanding));
    }
    expect(await page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded)).toBe(true);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(await sidewaysOnTablet(page)).toEqual([0, 0]);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'pit-overview.png'), fullPage: true });
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it("the finance screen's figures are the API's, and its CSV is the API's CSV", async () => {
    const own = await givenPit(ctx, { code: 'EZ-04', pit: 'C', variant: 'EZ' });
    for (const cards of dealtHands(8, 404, 8)) await coup(own.terminal, own.shoe.id, cards);
    const finance = await givenKey(ctx, 'FINANCE');
    const page = await signedIn(finance);
    await page.goto(`${url}/app/#/finance`);
    const section = page.locator('[data-testid="report-table"]');
    await section.locator('tbody tr').first().waitFor();
    const from = await page.getByLabel('From', { exact: true }).inputValue();
    const to = await page.getByLabel('To', { exact: true }).inputValue();
    const api = (await ctx.as(finance).get(`/v1/reports/win-loss?from=${from}&to=${to}&groupBy=table`)).body as {
      rows: ({ group: { tableCode: string } } & Record<string, number>)[];
    };
    expect(api.rows.map((r) => r.group.tableCode)).toContain('EZ-04');
    for (const row of api.rows) {
      const line = section.locator(`tr[data-row="${row.group.tableCode}"]`);
      for (const field of ['handle', 'win', 'theoreticalWin', 'winMinusTheoretical', 'theoreticalWinStdDev', 'commissionOutstanding'])
        expect([field, await line.locator(`[data-field="${field}"]`).getAttribute('data-minor')]).toEqual([field, String(row[field])]);
      expect(await line.locator('[data-field="holdPercent"]').getAttribute('data-value')).toBe(row.holdPercent);
    }
    const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    const apiCsv = await ctx.as(finance).get(`/v1/reports/win-loss?from=${from}&to=${to}&groupBy=table`).set('Accept', 'text/csv');
    expect(csv).toBe(apiCsv.text);
    await page.locator('[data-testid="report-gamingDay"] .chart canvas').first().waitFor();
    await page.locator('[data-testid="quarterly"] tbody tr').first().waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(await sidewaysOnTablet(page)).toEqual([0, 0]);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'finance.png'), fullPage: true });
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it("the yield advisor's week grid is the API's advice, with its empty and error states", async () => {
    const property = (await ctx.admin.post('/v1/properties', { name: 'Casino Screens Yield', timeZone: 'UTC', gamingDayStartHour: 6 }).expect(201)).body
      .id as string;
    const quiet = (await ctx.admin.post('/v1/properties', { name: 'Casino Screens Quiet', timeZone: 'UTC', gamingDayStartHour: 6 }).expect(201)).body
      .id as string;
    const own = await givenPit(ctx, { code: 'YLD-05', pit: 'Y', propertyId: property });
    await ctx.as(own.supervisor).post(`/v1/tables/${own.table.id}/sessions`).send({ opener: [] }).expect(201);
    for (const cards of dealtHands(8, 505, 6)) await coup(own.terminal, own.shoe.id, cards);
    const finance = await givenKey(ctx, 'FINANCE');
    const page = await signedIn(finance);
    await page.goto(`${url}/app/#/yield`);
    await page.getByLabel('Property').selectOption(property);
    const week = page.locator('[data-testid="yield-week"]');
    await week.locator('[data-testid="yield-levels"] tbody tr').first().waitFor();
    const from = await page.getByLabel('From', { exact: true }).inputValue();
    const to = await page.getByLabel('To', { exact: true }).inputValue();
    const api = (await ctx.as(finance).get(`/v1/reports/yield-advice?propertyId=${property}&from=${from}&to=${to}`).expect(200)).body as {
      totals: Record<string, { theo: number }>;
      hours: { hourOfWeek: number; advice: unknown[]; done: unknown[]; expected: { theo: number }; actual: { theo: number }; gain: { theo: number } }[];
    };
    for (const field of ['expected', 'actual', 'gain'])
      expect([field, await week.locator(`[data-testid="yield-totals"] [data-field="${field}"]`).getAttribute('data-minor')]).toEqual([
        field,
        String(api.totals[field].theo),
      ]);
    const played = api.hours.filter((h) => h.advice.length || h.done.length);
    expect(played.length).toBeGreaterThan(0);
    for (const h of played) {
      const cell = week.locator(`td[data-hour="${h.hourOfWeek}"]`);
      for (const field of ['expected', 'actual', 'gain'] as const)
        expect([h.hourOfWeek, field, await cell.locator(`[data-field="${field}"]`).getAttribute('data-minor')]).toEqual([
          h.hourOfWeek,
          field,
          String(h[field].theo),
        ]);
    }
    await page.locator('[data-testid="yield-held"] [role="alert"], [data-testid="yield-held"] dl').first().waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(await sidewaysOnTablet(page)).toEqual([0, 0]);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'yield.png'), fullPage: true });
    // A property where no table played: said so. A range that ends before it starts: the API's error.
    await page.getByLabel('Property').selectOption(quiet);
    await week.locator('[data-testid="yield-empty"]').waitFor();
    await page.getByLabel('From', { exact: true }).fill(to.replace(/^(\d{4})/, (y) => String(Number(y) + 1)));
    expect(await week.getByRole('alert').innerText()).toMatch(/after/);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it('a wrong key is told so on the sign-in form', async () => {
    const page = await browser.newPage();
    await page.goto(`${url}/app/`);
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/API key/i);
    await page.close();
  });
});
