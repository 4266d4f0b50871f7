/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { Card, dealPuntoBanco, formatCard, pointOf, seededRandom, shuffledShoe } from '../../../src/domain';
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
import { dealtHands, givenKey, givenPatrons, givenPit, givenShoe } from '../../support/builders';

/**
 * The surveillance room's screen (#/surveillance) and the host's patron view (#/patrons), in a real
 * Chromium against a real service: alerts raised by the surveillance worker from coups recorded
 * through the API appear, their figures and evidence are the API's, and acknowledging and closing
 * them from the screen changes the API's record; the patrons' figures are the API's to the minor
 * unit, a patron is read once per view, and an unknown card is said so. With SCREENSHOTS=write, the
 * screens are saved to docs/screens/.
 */
jest.setTimeout(300_000);

let ctx: TestContext;
let url: string;
let browser: Browser;
let screens: Screens;

beforeAll(async () => {
  screens = await startScreens({ SURVEILLANCE: 'on', SURVEILLANCE_POLL_MS: '20' });
  ({ ctx, url, browser } = screens);
});
afterAll(() => screens?.close());

const signedIn = (key: string, hash = '', timezoneId?: string) => signedInAt(browser, url, key, hash, undefined, timezoneId);

/** How far the page scrolls sideways at 1024 × 768 and 768 × 1024 (0, 0: never), and if it does, what sticks out. */
async function sidewaysOnTablet(page: Page): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const size of [
    { width: 1024, height: 768 },
    { width: 768, height: 1024 },
  ]) {
    const [x] = await overflowAt(page, size);
    out.push(
      x === 0
        ? 0
        : await page.evaluate(() =>
            [...document.querySelectorAll('body *')]
              .filter(
                (e) =>
                  e.getBoundingClientRect().right > innerWidth + 1 &&
                  !e.closest('.table-scroll') &&
                  ![...e.children].some((c) => c.getBoundingClientRect().right > innerWidth + 1),
              )
              .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
              .slice(0, 5),
          ),
    );
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  return out;
}

const minors =
  (page: Page, scope = 'main') =>
  () =>
    page
      .locator(`${scope} [data-minor], ${scope} [data-value]`)
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-minor') ?? e.getAttribute('data-value')));

// ---------------------------------------------------------------------------------------------

interface Alert {
  id: string;
  kind: string;
  severity: string;
  status: string;
  pValue: number;
  threshold: number;
  tableId: string;
  shoeId: string;
  patronId: string | null;
  dealerId: string | null;
  seat: number | null;
  gamingDay: string;
  createdAt: string;
  evidence: Record<string, any>;
  steps: { step: string; note: string | null; keyId: string }[];
  updates: unknown[];
}

/** Records coups dealt from `cards`, each with the wagers `wagersFor` its first card gives. */
async function deal(terminal: string, shoeId: string, cards: Card[], count: number, wagersFor: (first: Card) => unknown[] = () => []) {
  let pos = 0;
  for (let i = 0; i < count && pos + 6 <= cards.length - 20; i++) {
    const d = dealPuntoBanco(cards, pos)!;
    const res = await ctx
      .as(terminal)
      .post(`/v1/shoes/${shoeId}/coups`, { cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) }, wagers: wagersFor(cards[pos]) });
    if (res.status !== 201) throw new Error(`coup: ${res.status} ${JSON.stringify(res.body)}`);
    pos += d.used;
  }
  return cards.slice(0, pos);
}

async function alertsOf(key: string, query: string, done: (a: Alert[]) => boolean): Promise<Alert[]> {
  for (let i = 0; i < 600; i++) {
    const a = (await ctx.as(key).get(`/v1/surveillance/alerts?${query}`)).body as Alert[];
    if (done(a)) return a;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no alerts for ${query}`);
}

/** The alert's row in the list says what the API says, field by field. */
async function expectRow(page: Page, a: Alert) {
  const row = page.locator(`[data-testid="alerts"] tr[data-alert="${a.id}"]`);
  const value = (field: string) => row.locator(`[data-field="${field}"]`).getAttribute('data-value');
  expect([a.id, await value('kind'), await value('severity'), await value('status'), await value('gamingDay'), await value('tableId')]).toEqual([
    a.id,
    a.kind,
    a.severity,
    a.status,
    a.gamingDay,
    a.tableId,
  ]);
  expect([await value('pValue'), await value('threshold'), await value('createdAt')]).toEqual([String(a.pValue), String(a.threshold), a.createdAt]);
  expect(await row.locator('[data-field="patronId"]').count()).toBe(a.patronId ? 1 : 0);
  if (a.patronId) expect(await value('patronId')).toBe(a.patronId);
  if (a.seat !== null) expect(await value('seat')).toBe(String(a.seat));
}

describe('the surveillance screen', () => {
  it('shows the alerts the worker raises without a reload, each with its evidence, and acknowledges and closes them as the API records', async () => {
    const watcher = await givenKey(ctx, 'SURVEILLANCE');
    // The browser in New York: the alerts' times are their tables' property's wall clock (the default property's, UTC).
    const page = await signedIn(watcher, '#/surveillance', AWAY);
    // Nothing raised yet: said in words, in both parts of the screen.
    await page.locator('[data-testid="open-empty"]').waitFor();
    await page.locator('[data-testid="alerts-empty"]').waitFor();
    await page.evaluate(() => ((window as unknown as { unreloaded: boolean }).unreloaded = true));

    // A slug of the last shoe put back (a repeated run), and a patron who sees the first card.
    await givenPatrons(ctx, 'P-SEES-A');
    const run = await givenPit(ctx, { code: 'DSA-RUN' });
    const first = await deal(run.terminal, run.shoe.id, shuffledShoe(8, seededRandom(41)), 40);
    expect((await ctx.as(run.terminal).post(`/v1/shoes/${run.shoe.id}/close`, {})).status).toBe(200);
    const slug = first.slice(100, 116);
    const rest = shuffledShoe(8, seededRandom(42));
    for (const c of slug) rest.splice(rest.indexOf(c), 1);
    const second = await givenShoe(ctx, run.terminal, run.table.id);
    await deal(run.terminal, second.id, [...rest.slice(0, 30), ...slug, ...rest.slice(30)], 12);

    const sees = await givenPit(ctx, { code: 'DSA-SEE', variant: 'EZ' });
    await deal(sees.terminal, sees.shoe.id, shuffledShoe(8, seededRandom(77)), 75, (c) => [
      { seat: 2, betType: pointOf(c) >= 6 ? 'PLAYER' : 'BANKER', amount: 5_000, patronId: 'P-SEES-A' },
    ]);
    expect((await ctx.as(sees.terminal).post(`/v1/shoes/${sees.shoe.id}/close`, {})).status).toBe(200);

    const [slugAlert] = await alertsOf(watcher, `kind=REPEATED_RUN&shoeId=${second.id}`, (a) => a.length > 0);
    const [seen] = await alertsOf(watcher, `kind=FIRST_CARD_KNOWLEDGE&patronId=P-SEES-A`, (a) => a.length > 0);
    // The screen reads them again by itself (every 10 s): both appear without a reload.
    for (const a of [slugAlert, seen]) await page.locator(`[data-testid="alerts"] tr[data-alert="${a.id}"]`).waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded)).toBe(true);
    /**
     * The worker may raise more alerts while the test reads: waits until the list on the screen is the
     * API's list read at the same moment (the screen reads again every 10 s), up to two minutes.
     */
    const agreeWithApi = async (read: () => Promise<Alert[]>): Promise<Alert[]> => {
      for (let tries = 0; ; tries++) {
        const want = await read();
        const ids = want.map((a) => a.id).sort();
        const shown = await page.locator('[data-testid="alerts"] tr[data-alert]').evaluateAll((els) => els.map((e) => e.getAttribute('data-alert') ?? ''));
        if (JSON.stringify([...shown].sort()) === JSON.stringify(ids) || tries === 120) {
          expect([...shown].sort()).toEqual(ids);
          return want;
        }
        await new Promise((r) => setTimeout(r, 1_000));
      }
    };
    const api = await agreeWithApi(async () => (await ctx.as(watcher).get('/v1/surveillance/alerts')).body as Alert[]);
    for (const a of api) await expectRow(page, a);
    await expectWallClock(page, `[data-testid="alerts"] tr[data-alert="${seen.id}"] [data-field="createdAt"] a`, seen.createdAt, 'UTC');

    // The room's view by patron, then by shoe: the API's counts and smallest p-value.
    const view = async (by: string) => (await ctx.as(watcher).get(`/v1/surveillance/open-alerts?by=${by}`)).body as Record<string, any>[];
    // As with the list: the room's view on the screen is the API's read at the same moment (the worker may add to it meanwhile).
    const expectView = async (by: string) => {
      for (let tries = 0; ; tries++) {
        const rows = await view(by);
        const want = rows.map((v) => [v.subject, String(v.open), String(v.acknowledged), String(v.high), String(v.smallestPValue), v.kinds.join(',')]);
        const shown = await page
          .locator('[data-testid="open-by"] tr[data-subject]')
          .evaluateAll((trs) =>
            trs.map((tr) => [
              tr.getAttribute('data-subject'),
              ...['open', 'acknowledged', 'high', 'smallestPValue', 'kinds'].map(
                (f) => tr.querySelector(`[data-field="${f}"]`)?.getAttribute('data-value') ?? null,
              ),
            ]),
          );
        const sort = (a: unknown[][]) => a.map((r) => JSON.stringify(r)).sort();
        if ((rows.length > 0 && JSON.stringify(sort(shown)) === JSON.stringify(sort(want))) || tries === 120) {
          expect([by, rows.length > 0, sort(shown)]).toEqual([by, true, sort(want)]);
          return;
        }
        await new Promise((r) => setTimeout(r, 1_000));
      }
    };
    await expectView('PATRON');
    await page.getByLabel('Gather by').selectOption('SHOE');
    await until(page, (id: string) => !!document.querySelector(`[data-testid="open-by"] tr[data-subject="${id}"]`), second.id);
    await expectView('SHOE');
    await page.getByLabel('Gather by').selectOption('PATRON');
    // A subject's alerts, by its button.
    await page.getByRole('button', { name: 'Show the alerts of P-SEES-A' }).click();
    await page.locator('[data-testid="subject-filter"]').waitFor();
    await until(page, () => [...document.querySelectorAll('[data-testid="alerts"] tr[data-alert] [data-field="patronId"]')].length > 0);
    await agreeWithApi(async () => ((await ctx.as(watcher).get('/v1/surveillance/alerts')).body as Alert[]).filter((a) => a.patronId === 'P-SEES-A'));
    expect(await sidewaysOnTablet(page)).toEqual([0, 0]);
    // Each alert's reason, in the detector's words, under its figures.
    expect(await page.locator(`[data-testid="alerts"] tr[data-reason="${seen.id}"]`).innerText()).toBe(seen.evidence.reason);
    await page.locator('.table-scroll').evaluateAll((els) => els.forEach((e) => (e.scrollLeft = 0)));
    await inEveryLanguage(page, 'surveillance', minors(page), {
      en: ['Surveillance', 'Knew the first card'],
      'zh-Hant': ['監察', '預知首張牌'],
      'zh-Hans': ['监控', '预知首张牌'],
    });

    // One alert: its figures and evidence are the API's.
    await page.locator(`tr[data-alert="${seen.id}"] a`).click();
    const card = page.locator('[data-testid="alert"]');
    await card.waitFor();
    const fact = (field: string) => card.locator(`[data-field="${field}"]`).getAttribute('data-value');
    expect([await fact('kind'), await fact('severity'), await fact('status'), await fact('pValue'), await fact('threshold')]).toEqual([
      seen.kind,
      seen.severity,
      'OPEN',
      String(seen.pValue),
      String(seen.threshold),
    ]);
    expect([await fact('eValue'), await fact('alarmAt'), await fact('patronId'), await fact('tableId'), await fact('shoeId'), await fact('gamingDay')]).toEqual(
      [String(seen.evidence.eValue), String(seen.evidence.alarmAt), 'P-SEES-A', sees.table.id, sees.shoe.id, seen.gamingDay],
    );
    expect(await card.locator('[data-field="reason"]').innerText()).toBe(seen.evidence.reason);
    const evidence = page.locator('[data-testid="evidence"]');
    expect(await evidence.locator('[data-field="decisions"]').getAttribute('data-value')).toBe(String(seen.evidence.decisions));
    for (const s of seen.evidence.worthOfTheFirstCard as { currency: string; minor: number }[])
      expect(
        await evidence
          .locator(`tr[data-money="worthOfTheFirstCard"][data-currency="${s.currency}"] [data-field="worthOfTheFirstCard"]`)
          .getAttribute('data-minor'),
      ).toBe(String(s.minor));
    const coups = seen.evidence.coups as { coup: number; cards: string; stake: { minor: number }; net: { minor: number }; bet: string; firstCard: number }[];
    expect(coups.length).toBeGreaterThan(0);
    for (const [i, c] of coups.entries()) {
      const row = evidence.locator(`[data-testid="evidence-coups"] tr[data-coup="${i}"]`);
      expect([
        await row.locator('[data-field="coup"]').getAttribute('data-value'),
        await row.locator('[data-field="cards"]').getAttribute('data-value'),
        await row.locator('[data-field="bet"]').getAttribute('data-value'),
        await row.locator('[data-field="stake"]').getAttribute('data-minor'),
        await row.locator('[data-field="net"]').getAttribute('data-minor'),
        await row.locator('[data-field="firstCard"]').getAttribute('data-value'),
      ]).toEqual([String(c.coup), c.cards, c.bet, String(c.stake.minor), String(c.net.minor), String(c.firstCard)]);
    }
    await page.locator('[data-testid="no-steps"]').waitFor();
    // Surveillance staff acknowledge, by keyboard; closing is a supervisor's, so not offered.
    expect(await page.locator('[data-testid="close-form"]').count()).toBe(0);
    await page.getByText('Closing an alert is for a supervisor.').waitFor();
    expect(await sidewaysOnTablet(page)).toEqual([0, 0]);
    await inEveryLanguage(page, 'surveillance-alert', minors(page), {
      en: ['Evidence', 'Acknowledge'],
      'zh-Hant': ['證據', '確認跟進'],
      'zh-Hans': ['证据', '确认跟进'],
    });
    await page.getByLabel('Note (optional): what you are looking at').focus();
    await page.keyboard.type('pulling the camera footage of seat 2');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="steps"] tr[data-step="ACKNOWLEDGE"]').waitFor();
    const acknowledged = (await ctx.as(watcher).get(`/v1/surveillance/alerts/${seen.id}`)).body as Alert;
    expect([acknowledged.status, acknowledged.steps.map((s) => [s.step, s.note])]).toEqual([
      'ACKNOWLEDGED',
      [['ACKNOWLEDGE', 'pulling the camera footage of seat 2']],
    ]);
    expect(acknowledged.steps[0].keyId).toBe((await ctx.as(watcher).get('/v1/api-keys/me')).body.keyId);
    await until(page, () => document.querySelector('[data-testid="alert"] [data-field="status"]')?.getAttribute('data-value') === 'ACKNOWLEDGED');
    expect(await page.locator('[data-testid="acknowledge-form"]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(problemsOf(page)).toEqual([]);
    await page.close();

    // A supervisor closes the repeated run with what was found; the run's cards are the API's.
    const supervisor = await givenKey(ctx, 'SUPERVISOR');
    const sup = await signedIn(supervisor, `#/surveillance/${slugAlert.id}`);
    await sup.locator('[data-testid="run-cards"]').waitFor();
    expect(await sup.locator('[data-testid="run-cards"] [data-card]').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')))).toEqual(
      slug.map(formatCard),
    );
    expect(await sup.locator('[data-testid="evidence"] [data-field="length"]').getAttribute('data-value')).toBe('16');
    const note = sup.getByLabel('Why it is closed (required)');
    // Without a note the browser asks for one and nothing is sent.
    await sup.getByRole('button', { name: 'Close the alert' }).click();
    expect(await note.evaluate((e) => (e as HTMLTextAreaElement).validity.valueMissing)).toBe(true);
    await note.fill('false shuffle confirmed on camera; dealer suspended');
    await sup.getByRole('button', { name: 'Close the alert' }).click();
    await sup.locator('[data-testid="closed-note"]').waitFor();
    const closed = (await ctx.as(supervisor).get(`/v1/surveillance/alerts/${slugAlert.id}`)).body as Alert;
    expect([closed.status, closed.steps.map((s) => [s.step, s.note])]).toEqual(['CLOSED', [['CLOSE', 'false shuffle confirmed on camera; dealer suspended']]]);
    await sup.locator('[data-testid="steps"] tr[data-step="CLOSE"]').waitFor();

    // Closed meanwhile by someone else: the API's refusal is shown with its code, and the alert as it now is.
    await sup.goto(`${url}/app/#/surveillance/${seen.id}`);
    await sup.locator('[data-testid="close-form"]').waitFor();
    await sup.getByLabel('Why it is closed (required)').fill('my note, too late');
    await ctx.as(await givenKey(ctx, 'SUPERVISOR')).post(`/v1/surveillance/alerts/${seen.id}/close`, { note: 'closed at the other desk' });
    await sup.getByRole('button', { name: 'Close the alert' }).click();
    const refusal = sup.locator('[data-testid="alert-steps-forms"] [role="alert"]');
    await refusal.waitFor();
    expect(await refusal.getAttribute('data-code')).toBe('ALERT_CLOSED');
    await sup.locator('[data-testid="closed-note"]').waitFor();
    expect(await sup.locator('[data-testid="steps"] tr[data-step="CLOSE"] [data-field="note"]').innerText()).toBe('closed at the other desk');
    expect(await axeViolations(sup)).toEqual([]);
    expect(problemsOf(sup).filter((p) => !/status of 409 .*\/v1\/surveillance\/alerts\/[0-9a-f-]+\/close/.test(p))).toEqual([]);
    await sup.close();

    // An auditor reads, and is offered no step.
    const auditor = await signedIn(await givenKey(ctx, 'AUDITOR'), '#/surveillance');
    await auditor.getByLabel('State').selectOption('CLOSED');
    await auditor.locator(`[data-testid="alerts"] tr[data-alert="${slugAlert.id}"]`).waitFor();
    await auditor.locator(`tr[data-alert="${slugAlert.id}"] a`).click();
    await auditor.locator('[data-testid="closed-note"]').waitFor();
    await auditor.goto(`${url}/app/#/surveillance/${(await alertsOf(watcher, 'status=OPEN', () => true))[0]?.id ?? seen.id}`);
    await auditor.locator('[data-testid="alert"]').waitFor();
    expect(await auditor.locator('form.step-form').count()).toBe(0);
    // An alert that does not exist: the API's NOT_FOUND, with what to do.
    await auditor.goto(`${url}/app/#/surveillance/00000000-0000-4000-8000-000000000000`);
    expect(await auditor.locator('main [role="alert"]').getAttribute('data-code')).toBe('NOT_FOUND');
    expect(problemsOf(auditor).filter((p) => !/status of 404 .*\/v1\/surveillance\/alerts\/0{8}-/.test(p))).toEqual([]);
    await auditor.close();
  });
});

// ---------------------------------------------------------------------------------------------

describe("the host's patron view", () => {
  it("shows the top patrons and one patron's record, rating, visits and rolling account as the API does, reading a patron once per view", async () => {
    const host = await givenKey(ctx, 'HOST');
    const auditorKey = await givenKey(ctx, 'AUDITOR');
    for (const p of [
      { card: 'P-DSA-1', name: 'A. Leung', tier: 'Diamond' },
      { card: 'P-DSA-2', name: null, tier: 'Gold' },
    ])
      expect((await ctx.as(host).post('/v1/patrons', { card: p.card, ...(p.name ? { name: p.name } : {}), tier: p.tier })).status).toBe(201);
    const pit = await givenPit(ctx, { code: 'DSA-HOST', currency: 'HKD' });
    const t = ctx.as(pit.terminal);
    expect((await t.post(`/v1/tables/${pit.table.id}/seatings`, { patronId: 'P-DSA-1', seat: 1 })).status).toBe(201);
    const second = (await t.post(`/v1/tables/${pit.table.id}/seatings`, { patronId: 'P-DSA-2', seat: 4 })).body as { id: string };
    for (const [i, cards] of dealtHands(8, 808, 12).entries()) {
      const res = await t.post(`/v1/shoes/${pit.shoe.id}/coups`, {
        cards,
        wagers: [
          { seat: 1, betType: i % 3 ? 'BANKER' : 'PLAYER', amount: 250_000 + i * 1_333 },
          { seat: 1, betType: 'TIE', amount: 10_000 },
          { seat: 4, betType: 'PLAYER', amount: 50_000 },
        ],
      });
      expect(res.status).toBe(201);
    }
    expect((await t.post(`/v1/seatings/${second.id}/end`, {})).status).toBeLessThan(300);
    const cashier = await givenKey(ctx, 'CASHIER');
    // Front money deposited at the cage first: dead chips are drawn on what is held.
    await ctx
      .as(cashier)
      .post(`/v1/properties/${pit.table.propertyId}/cash-transactions`, {
        kind: 'DEPOSIT',
        amount: 5_000_000,
        currency: pit.table.currency,
        patronId: 'P-DSA-1',
      })
      .expect(201);
    expect(
      (
        await ctx
          .as(cashier)
          .post('/v1/patrons/P-DSA-1/chip-exchanges', { kind: 'PURCHASE', amount: 5_000_000, settledIn: 'FRONT_MONEY', tableId: pit.table.id })
      ).status,
    ).toBe(201);

    const me = (await ctx.as(host).get('/v1/api-keys/me')).body as { keyId: string };
    const reads = async () => ((await ctx.as(auditorKey).get(`/v1/audit?keyId=${me.keyId}&action=patron.read&limit=1000`)).body as unknown[]).length;

    // The browser in New York: a visit's times are its table's property's wall clock (the default property's, UTC).
    const page = await signedIn(host, '#/patrons', AWAY);
    const top = page.locator('[data-testid="top-patrons"]');
    await top.locator('tr[data-card="P-DSA-1"]').waitFor();
    const from = await page.getByLabel('From', { exact: true }).inputValue();
    const to = await page.getByLabel('To', { exact: true }).inputValue();
    const range = `from=${from}&to=${to}`;
    const money = ['handle', 'averageBet', 'actualWin', 'theoreticalWin', 'theoStdDev', 'comps'];
    // Time played runs on while a card is in (P-DSA-1's is): it is compared for the patron whose card is out.
    const values = ['coups', 'withinTwoSigma'];
    const expectFigures = async (row: ReturnType<Page['locator']>, r: Record<string, any>, what: string) => {
      for (const field of money)
        expect([what, field, await row.locator(`[data-field="${field}"]`).first().getAttribute('data-minor')]).toEqual([
          what,
          field,
          r[field] === null ? null : String(r[field]),
        ]);
      for (const field of values)
        expect([what, field, await row.locator(`[data-field="${field}"]`).first().getAttribute('data-value')]).toEqual([
          what,
          field,
          r[field] === null ? null : String(r[field]),
        ]);
    };
    const apiTop = (await ctx.as(host).get(`/v1/reports/top-patrons?${range}&limit=50`)).body as Record<string, any>[];
    expect(apiTop.map((p) => p.card)).toEqual(expect.arrayContaining(['P-DSA-1', 'P-DSA-2']));
    expect(await top.locator('tbody tr').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')))).toEqual(apiTop.map((p) => p.card));
    for (const p of apiTop) {
      const row = top.locator(`tr[data-card="${p.card}"]`);
      await expectFigures(row, p, p.card);
      expect(await row.locator('[data-field="rank"]').getAttribute('data-value')).toBe(String(p.rank));
      if (p.card === 'P-DSA-2')
        for (const field of ['secondsPlayed', 'decisionsPerHour'])
          expect([field, await row.locator(`[data-field="${field}"]`).getAttribute('data-value')]).toEqual([
            field,
            p[field] === null ? null : String(p[field]),
          ]);
    }
    // The figures carry no currency: the note names the tables' (several here, when other tests' tables played: said so).
    const currencies = [...new Set(((await ctx.as(host).get('/v1/tables')).body as { currency: string }[]).map((x) => x.currency))].sort();
    expect(await page.locator('[data-testid="currency"]').getAttribute('data-value')).toBe(currencies[0]);
    expect(await sidewaysOnTablet(page)).toEqual([0, 0]);
    await inEveryLanguage(page, 'patrons', minors(page, '[data-testid="top-patrons"]'), {
      en: ['Top patrons'],
      'zh-Hant': ['理論贏額最高的客人'],
      'zh-Hans': ['理论赢额最高的客人'],
    });

    // Typing a card reads nothing; looking it up reads the patron once: record, rating, visits and rolling account.
    let before = await reads();
    await page.getByLabel(/Player card/).focus();
    await page.keyboard.type('P-DSA-1');
    await page.waitForTimeout(300);
    expect(await reads()).toBe(before);
    await page.keyboard.press('Enter');
    await until(page, () => location.hash === '#/patrons/P-DSA-1');
    const record = page.locator('[data-testid="record"]');
    await record.locator('[data-field="registeredAt"]').waitFor();
    await page.locator('[data-testid="rating"] tr[data-day="total"]').waitFor();
    await page.locator('[data-testid="visits"] tr[data-visit]').first().waitFor();
    await page.locator('[data-testid="rolling"] tr[data-currency]').first().waitFor();
    // Each read's audit entry is committed with its answer: the four are there once the four parts show.
    expect(await reads()).toBe(before + 4);

    const patron = (await ctx.as(host).get('/v1/patrons/P-DSA-1')).body as Record<string, any>;
    for (const field of ['card', 'name', 'tier', 'registeredAt'])
      expect([field, await record.locator(`[data-field="${field}"]`).getAttribute('data-value')]).toEqual([field, patron[field]]);
    expect(await record.locator('[data-field="seated"]').getAttribute('data-value')).toBe(`${pit.table.id}:1`);
    const rating = (await ctx.as(host).get(`/v1/patrons/P-DSA-1/rating?${range}`)).body as Record<string, any>;
    const ratingEl = page.locator('[data-testid="rating"]');
    // (An open visit's time played runs on to each read: the money and coups are compared, not the seconds.)
    for (const field of money)
      expect(['total', field, await ratingEl.locator(`tr[data-day="total"] [data-field="${field}"]`).getAttribute('data-minor')]).toEqual([
        'total',
        field,
        String(rating.total[field]),
      ]);
    expect(await ratingEl.locator('tr[data-day="total"] [data-field="coups"]').getAttribute('data-value')).toBe(String(rating.total.coups));
    for (const d of rating.days as Record<string, any>[])
      for (const field of money)
        expect([d.gamingDay, field, await ratingEl.locator(`tr[data-day="${d.gamingDay}"] [data-field="${field}"]`).getAttribute('data-minor')]).toEqual([
          d.gamingDay,
          field,
          String(d[field]),
        ]);
    for (const [bet, b] of Object.entries(rating.total.byBetType as Record<string, Record<string, number>>))
      for (const field of ['handle', 'actualWin', 'theoreticalWin'])
        expect([bet, field, await ratingEl.locator(`tr[data-bet="${bet}"] [data-field="${field}"]`).getAttribute('data-minor')]).toEqual([
          bet,
          field,
          String(b[field]),
        ]);
    expect(await ratingEl.locator('[data-field="visitCount"]').getAttribute('data-value')).toBe(String(rating.visitCount));
    // P-DSA-1 played only at an HKD table: the amounts are said to be in HKD.
    expect(await ratingEl.locator('[data-testid="currency"]').getAttribute('data-value')).toBe('HKD');
    const visits = (await ctx.as(host).get(`/v1/patrons/P-DSA-1/visits?${range}`)).body as { visits: Record<string, any>[] };
    expect(await page.locator('[data-testid="visits"] tr[data-visit]').count()).toBe(visits.visits.length);
    for (const v of visits.visits) {
      const row = page.locator(`[data-testid="visits"] tr[data-visit="${v.seating.id}"]`);
      for (const field of money)
        expect([field, await row.locator(`[data-field="${field}"]`).getAttribute('data-minor')]).toEqual([field, v[field] === null ? null : String(v[field])]);
      expect([
        await row.locator('[data-field="seat"]').getAttribute('data-value'),
        await row.locator('[data-field="tableId"]').getAttribute('data-value'),
      ]).toEqual([String(v.seating.seat), v.seating.tableId]);
    }
    const visit = visits.visits[0].seating as { id: string; startedAt: string };
    await expectWallClock(page, `[data-testid="visits"] tr[data-visit="${visit.id}"] [data-field="startedAt"]`, visit.startedAt, 'UTC');
    const rolling = (await ctx.as(host).get(`/v1/patrons/P-DSA-1/rolling?${range}`)).body as { accounts: Record<string, any>[] };
    expect(rolling.accounts.length).toBeGreaterThan(0);
    for (const a of rolling.accounts)
      for (const field of ['purchased', 'returned', 'netPurchased', 'rolled', 'inHand', 'handle', 'win', 'theoreticalWin'])
        expect([
          a.currency,
          field,
          await page.locator(`[data-testid="rolling"] tr[data-currency="${a.currency}"] [data-field="${field}"]`).getAttribute('data-minor'),
        ]).toEqual([a.currency, field, String(a[field])]);
    expect(await sidewaysOnTablet(page)).toEqual([0, 0]);
    // Switching languages reads nothing again.
    before = await reads();
    await inEveryLanguage(page, 'patron', minors(page, '[data-testid="rating"]'), {
      en: ['Rating', 'Visits'],
      'zh-Hant': ['評級', '到訪', '泥碼戶口'],
      'zh-Hans': ['评级', '到访', '泥码账户'],
    });
    expect(await reads()).toBe(before);

    // The closed visit of the other patron: card out shown, no rolling chips (said so).
    await page.goto(`${url}/app/#/patrons/P-DSA-2`);
    await page.locator('[data-testid="rolling-empty"]').waitFor();
    expect(await page.locator(`[data-testid="visits"] tr[data-visit="${second.id}"] [data-field="endedAt"]`).getAttribute('data-value')).not.toBe('');

    // An unknown card: said so, with no error box.
    await page.getByLabel(/Player card/).fill('P-NOBODY');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.locator('[data-testid="no-patron"]').waitFor();
    expect(await page.getByRole('heading', { name: 'No patron has the card P-NOBODY.' }).count()).toBe(1);
    expect(await page.locator('main [role="alert"]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    // The card is looked up (GET /v1/patrons?card=): an unknown card is an empty answer, so nothing is logged.
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it('a range without play says so', async () => {
    const page = await signedIn(await givenKey(ctx, 'COMPLIANCE'), '#/patrons');
    await page.locator('[data-testid="top-patrons"] tbody tr, [data-testid="top-empty"]').first().waitFor();
    // A range that ends before it starts is not asked for: said so.
    await page.getByLabel('To', { exact: true }).fill('2001-01-31');
    await page.locator('[data-testid="backwards"]').waitFor();
    await page.getByLabel('From', { exact: true }).fill('2001-01-01');
    await page.locator('[data-testid="top-empty"]').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });
});

// ---------------------------------------------------------------------------------------------

// The navigation of every role, and each link opening without a refusal: test/e2e/screens/navigation.spec.ts.
