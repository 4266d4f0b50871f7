/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { TestContext } from '../../support/app';
import { axeViolations, LANGS, overflowAt, problemsOf, Screens, SHOTS, signedIn, startScreens, switchTo, until } from '../../support/browser';
import { dealtHands, givenKey, givenPatrons, givenPit, givenVoid } from '../../support/builders';
import { cutProxy } from '../../../bench/cut-proxy';

/**
 * The table-side display (#/display/<tableId>) in Chromium, signed in with a DISPLAY key: the
 * board is the API's (roads, limits, last results), a coup recorded through the API appears
 * without a reload, it fits 1920 × 1080 and 3840 × 2160 without scrolling in big type (the most
 * crowded tables too: HK$100 to HK$1,000,000 with Perfect Pair and the widest pays, and all 12
 * bets, in each language, nothing clipped), every language reads its own words, axe-core finds nothing, nothing is logged as an error, and a
 * dropped stream shows a quiet "reconnecting" and comes back by itself. With SCREENSHOTS=write,
 * saved as docs/screens/display.<lang>.png.
 */
jest.setTimeout(180_000);
let screens: Screens;
const HD = { width: 1920, height: 1080 };
const UHD = { width: 3840, height: 2160 };

let ctx: TestContext;
let url: string;
let browser: Browser;
let pit: Awaited<ReturnType<typeof givenPit>>;
let display: string;
let dealt = 0;
const hands = dealtHands(8, 2039, 60);

beforeAll(async () => {
  screens = await startScreens();
  ({ ctx, url, browser } = screens);
  await givenPatrons(ctx, 'P-SCREEN-1');
  pit = await givenPit(ctx, { code: 'BAC-39', currency: 'HKD', minBet: 50_000, maxBet: 10_000_000, sideBets: ['PLAYER_PAIR', 'BANKER_PAIR'] });
  display = await givenKey(ctx, 'DISPLAY', pit.table.id);
  await ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/seatings`, { patronId: 'P-SCREEN-1', seat: 2 }).expect(201);
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) ids.push(await coup());
  await givenVoid(ctx, 'coups', ids[27], 'cards exposed', pit.supervisor, await givenKey(ctx, 'SUPERVISOR'));
});
afterAll(() => screens?.close());

/** The next coup of the shoe through the API, with a patron's wager: returns its id. */
async function coup(): Promise<string> {
  const res = await ctx
    .as(pit.terminal)
    .post(`/v1/shoes/${pit.shoe.id}/coups`)
    .send({
      cards: hands[dealt++],
      wagers: [
        { seat: 2, betType: 'BANKER', amount: 987_600 },
        { seat: 4, betType: 'PLAYER', amount: 100_000 },
      ],
    });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const board = async () => (await ctx.as(display).get(`/v1/tables/${pit.table.id}/display`).expect(200)).body;

/** What the page shows, read off its marks: each road's cells, the limits, the results. */
function shown(page: Page) {
  return page.evaluate(() => {
    const all = (sel: string) => [...document.querySelectorAll(sel)];
    return {
      beadPlate: all('[data-testid="bead-plate"] [data-coup]').map((g) => [Number(g.getAttribute('data-coup')), g.getAttribute('data-winner')]),
      bigRoad: all('[data-testid="big-road"] g[data-coup]').length,
      bigEyeBoy: all('[data-testid="big-eye-boy"] [data-colour]').length,
      smallRoad: all('[data-testid="small-road"] [data-colour]').length,
      cockroachPig: all('[data-testid="cockroach-pig"] [data-colour]').length,
      limits: all('[data-testid="limits"] tbody tr').map((tr) => [
        tr.getAttribute('data-bet'),
        Number(tr.querySelector('[data-field="min"]')!.getAttribute('data-minor')),
        Number(tr.querySelector('[data-field="max"]')!.getAttribute('data-minor')),
      ]),
      results: all('[data-testid="results"] li').map((li) => [
        Number(li.getAttribute('data-coup')),
        li.getAttribute('data-winner'),
        li.getAttribute('data-voided'),
      ]),
      lastCoup: Number(document.querySelector('[data-testid="last-coup"]')?.getAttribute('data-coup')),
      lastCards: all('[data-testid="last-coup"] [data-card]').map((c) => c.getAttribute('data-card')),
    };
  });
}

/** The same, as the API's board says it should be. */
function expected(b: any) {
  const newest = b.results.find((r: { voided: boolean }) => !r.voided);
  return {
    beadPlate: b.roads.beadPlate.cells.map((c: { coup: number; winner: string }) => [c.coup, c.winner]),
    bigRoad: b.roads.bigRoad.cells.length,
    bigEyeBoy: b.roads.bigEyeBoy.cells.length,
    smallRoad: b.roads.smallRoad.cells.length,
    cockroachPig: b.roads.cockroachPig.cells.length,
    limits: b.limits.bets.map((x: { betType: string; min: number; max: number }) => [x.betType, x.min, x.max]),
    results: b.results.map((r: { coup: number; winner: string; voided: boolean }) => [r.coup, r.winner, String(r.voided)]),
    lastCoup: newest.coup,
    lastCards: [...newest.cards.player, ...newest.cards.banker],
  };
}

/** Everything inside the display's own box at this size: it neither scrolls nor hides anything. */
async function fits(page: Page, size: { width: number; height: number }): Promise<void> {
  expect(await overflowAt(page, size)).toEqual([0, 0]);
  // The display lays itself out for the window's size when told of a resize, after a render of its
  // own: wait for the render at this size (its type at 4.45 % of the height), and for it to settle.
  await until(
    page,
    (h: number) => {
      const main = document.querySelector('main.display');
      return (
        !!main &&
        Math.abs(parseFloat(getComputedStyle(main).fontSize) - (4.45 * h) / 100) < 0.5 &&
        main.scrollWidth <= main.clientWidth &&
        main.scrollHeight <= main.clientHeight
      );
    },
    size.height,
  );
  const box = await page.evaluate(() => {
    const main = document.querySelector('main.display')!;
    const rects = [...main.querySelectorAll('*')].map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0);
    return {
      overflowing: [main.scrollWidth - main.clientWidth, main.scrollHeight - main.clientHeight],
      right: Math.max(...rects.map((r) => r.right)),
      bottom: Math.max(...rects.map((r) => r.bottom)),
      results: parseFloat(getComputedStyle(document.querySelector('[data-testid="results"] li')!).fontSize),
      limits: parseFloat(getComputedStyle(document.querySelector('[data-testid="limits"] td')!).fontSize),
    };
  });
  expect(box.overflowing).toEqual([0, 0]);
  expect(box.right).toBeLessThanOrEqual(size.width);
  expect(box.bottom).toBeLessThanOrEqual(size.height);
  // Big type, read from 3 m: the results and the limits at 48 px a 1080-line screen (96 at 2160).
  expect(box.results).toBeGreaterThanOrEqual((47.5 * size.height) / 1080);
  expect(box.limits).toBeGreaterThanOrEqual((47.5 * size.height) / 1080);
}

describe('the table-side display', () => {
  let page: Page;
  beforeAll(async () => {
    page = await signedIn(browser, url, display, `#/display/${pit.table.id}`, HD);
    await until(page, () => document.querySelectorAll('[data-testid="results"] li').length === 20);
  });
  afterAll(() => page?.close());

  it('is the API board: the roads cell for cell, the limits in force, the last 20 results with the voided one, the last coup cards', async () => {
    // No staff navigation: the board alone.
    expect(await page.locator('header.top, nav').count()).toBe(0);
    const api = await board();
    expect(await shown(page)).toEqual(expected(api));
    expect(api.results.filter((r: { voided: boolean }) => r.voided).map((r: { coup: number }) => r.coup)).toEqual([28]);
    expect(await page.locator('[data-testid="results"] li[data-coup="28"]').textContent()).toContain('void');
    // What the Banker's pay does not say, said beneath the limits (a commission table: 5 %).
    expect(await page.locator('[data-testid="pay-notes"] [data-bet]').allTextContents()).toEqual(['Banker: less 5% commission']);
    // Nothing of the wagers or the patron reaches the page.
    const html = await page.content();
    expect(html).not.toMatch(/987[,.]?600|P-SCREEN-1/);
    expect(problemsOf(page)).toEqual([]);
  });

  it('shows a coup recorded through the API without a reload', async () => {
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await coup();
    await until(page, () => document.querySelector('[data-testid="results"] li')?.getAttribute('data-coup') === '31');
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await shown(page)).toEqual(expected(await board()));
    expect(problemsOf(page)).toEqual([]);
  });

  it('fits 1920 × 1080 and 3840 × 2160 without scrolling, in big type', async () => {
    await fits(page, HD);
    await fits(page, UHD);
    await page.setViewportSize(HD);
  });

  it.each([
    ['en', ['Banker', 'Player', 'Tie'], 'B'],
    ['zh-Hant', ['莊', '閒', '和'], '莊'],
    ['zh-Hans', ['庄', '闲', '和'], '庄'],
  ])('reads in %s, remembered, axe-core finds nothing', async (lang, words, bead) => {
    await page.locator('select.lang').selectOption(lang);
    await until(page, (l: string) => document.documentElement.lang === l, lang);
    const counts = await page.locator('[data-testid="counts"]').textContent();
    for (const w of words) expect(counts).toContain(w);
    expect(await page.locator('[data-testid="bead-plate"] [data-winner="BANKER"] text').first().textContent()).toBe(bead);
    expect(await page.locator('[data-testid="limits"] tbody th').first().textContent()).toBe(words[1]);
    await fits(page, HD);
    expect(await axeViolations(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `display.${lang}.png`) });
    // Remembered: the screen opens in it again.
    await page.reload();
    await until(page, (l: string) => document.documentElement.lang === l && document.querySelectorAll('[data-testid="results"] li').length === 20, lang);
    expect(problemsOf(page)).toEqual([]);
  });

  it('says quietly that it is reconnecting when the stream drops, and comes back by itself', async () => {
    const proxy = await cutProxy(url);
    const through = await signedIn(browser, proxy.url, display, `#/display/${pit.table.id}`, HD);
    await until(
      through,
      () => document.querySelectorAll('[data-testid="results"] li').length === 20 && !document.querySelector('[data-testid="reconnecting"]'),
    );
    expect(proxy.cut()).toBeGreaterThan(0);
    await until(through, () => !!document.querySelector('[data-testid="reconnecting"]'));
    const next = (await board()).results[0].coup + 1;
    await coup();
    // Back by itself: the board read again on reconnecting holds the coup recorded while it was away.
    await until(through, (n: number) => document.querySelector('[data-testid="results"] li')?.getAttribute('data-coup') === String(n), next);
    await until(through, () => !document.querySelector('[data-testid="reconnecting"]'));
    expect(await shown(through)).toEqual(expected(await board()));
    // The only complaints: the browser's own note of the connection cut under it.
    expect(problemsOf(through).filter((p) => !/ERR_|network|Failed to fetch/i.test(p))).toEqual([]);
    await through.close();
    await proxy.close();
  });

  it('a staff key opens the same display', async () => {
    const staff = await signedIn(browser, url, pit.supervisor, `#/display/${pit.table.id}`, HD);
    await until(staff, () => document.querySelectorAll('[data-testid="results"] li').length === 20);
    expect(await shown(staff)).toEqual(expected(await board()));
    expect(problemsOf(staff)).toEqual([]);
    await staff.close();
  });

  it('signs itself out when its key is revoked: the sign-in form says so, and nothing retries', async () => {
    const minted = (await ctx.admin.post('/v1/api-keys', { name: 'display to revoke', role: 'DISPLAY', tableId: pit.table.id }).expect(201)).body as {
      id: string;
      key: string;
    };
    const page = await signedIn(browser, url, minted.key, '', HD);
    await page.locator('[data-testid="results"]').waitFor();
    await until(page, () => document.querySelector('main.display[data-live="true"]') !== null);
    await ctx.admin.post(`/v1/api-keys/${minted.id}/revoke`, {}).expect(200);
    await page.locator('[role="alert"][data-code="UNAUTHENTICATED"]').waitFor();
    await page.locator('#api-key').waitFor();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.waitForTimeout(3_000); // a stream retried each second would show here
    expect(requests).toEqual([]);
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it("puts each amount's decimal point where the service does (its ISO 4217 digits, not the browser's), in every language", async () => {
    // HUF, IDR and IQD: browsers write them with fewer digits than their minor unit has.
    const expected: Record<string, string> = { HUF: '123.45', IDR: '123.45', IQD: '12.345', KWD: '12.345', JPY: '12,345', HKD: '123.45', CLF: '1.2345' };
    for (const [currency, text] of Object.entries(expected)) {
      const table = (
        await ctx.admin.post('/v1/tables', { code: `DIG-${currency}`, variant: 'COMMISSION', currency, minBet: 12_345, maxBet: 99_999_999 }).expect(201)
      ).body as { id: string };
      const page = await signedIn(browser, url, await givenKey(ctx, 'DISPLAY', table.id), '', HD);
      for (const lang of LANGS) {
        await switchTo(page, lang);
        const min = page.locator('[data-testid="limits"] td[data-field="min"][data-minor="12345"]').first();
        expect([currency, lang, (await min.innerText()).replace(/[^\d.,]/g, '')]).toEqual([currency, lang, text]);
      }
      expect(problemsOf(page)).toEqual([]);
      await page.close();
    }
  });
});

/** The widest pay the API takes (six digits and four decimals): the widest text a pay can put on the board. */
const WIDEST_PAY = '999999.9999 to 1';

/**
 * Tables whose limits and pays crowd the board: HK$100 to HK$1,000,000 (the widest amounts of a
 * Macau table) with Perfect Pair, its pays the widest the API takes and rounded to HK$10 (a pay note
 * on each); and every one of the 12 bets offered, each at the table's limits, with a note on four.
 */
const CROWDED: [string, Record<string, unknown>][] = [
  [
    'a HK$100 to HK$1,000,000 table with Perfect Pair and the widest pays',
    {
      code: 'BAC-PP',
      currency: 'HKD',
      minBet: 10_000,
      maxBet: 100_000_000,
      sideBets: ['PLAYER_PAIR', 'BANKER_PAIR', 'PERFECT_PAIR'],
      pays: [{ betType: 'PERFECT_PAIR', pays: WIDEST_PAY }],
      perfectPairBothPays: WIDEST_PAY,
      rounding: { mode: 'HALF_UP', unit: 1000 },
    },
  ],
  [
    'a table with 12 bets',
    {
      code: 'BAC-12',
      currency: 'HKD',
      minBet: 10_000,
      maxBet: 100_000_000,
      sideBets: ['PLAYER_PAIR', 'BANKER_PAIR', 'EITHER_PAIR', 'PERFECT_PAIR', 'BIG', 'SMALL', 'SUPER_6', 'DRAGON_7', 'PANDA_8'],
      perfectPairBothPays: '250 to 1',
      rounding: { mode: 'HALF_UP', unit: 1000 },
    },
  ],
];

/**
 * The board at `size`, read off the page once it has rendered at that size (its type at 4.45 % of
 * the height): whatever is clipped (wider than its box: scrollWidth past clientWidth) in the limits,
 * the pay notes and the results, whatever lies outside the viewport or outside its own column,
 * and the type of each part.
 */
async function boardAt(page: Page, size: { width: number; height: number }) {
  const scroll = await overflowAt(page, size);
  await until(
    page,
    (h: number) => {
      const main = document.querySelector('main.display');
      return !!main && Math.abs(parseFloat(getComputedStyle(main).fontSize) - (4.45 * h) / 100) < 0.5;
    },
    size.height,
  );
  const board = await page.evaluate(() => {
    const px = (e: Element) => parseFloat(getComputedStyle(e).fontSize);
    const name = (e: Element) =>
      `${e.tagName.toLowerCase()}${[...e.attributes]
        .filter((a) => a.name.startsWith('data-') || a.name === 'class')
        .map((a) => `[${a.name}=${a.value}]`)
        .join('')} ${(e.textContent ?? '').trim().slice(0, 40)}`;
    const limits = document.querySelector('[data-testid="limits"]')!;
    const notes = document.querySelector('[data-testid="pay-notes"]');
    const results = document.querySelector('[data-testid="results"]')!;
    const side = limits.closest('section')!;
    const roads = ['bead-plate', 'big-road', 'big-eye-boy', 'small-road', 'cockroach-pig'].map((id) => document.querySelector(`[data-testid="${id}"]`)!);
    const within = (r: DOMRect, box: { left: number; top: number; right: number; bottom: number }) =>
      r.left >= box.left - 0.5 && r.top >= box.top - 0.5 && r.right <= box.right + 0.5 && r.bottom <= box.bottom + 0.5;
    const screen = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
    const area = [side, ...side.querySelectorAll('*')];
    const main = document.querySelector('main.display')!;
    return {
      page: [main.scrollWidth - main.clientWidth, main.scrollHeight - main.clientHeight],
      // Cut off: text wider than its cell, a table wider than its column, a column taller than the screen.
      clipped: area
        .filter((e) => e.scrollWidth > e.clientWidth + 0.5 && getComputedStyle(e).display !== 'inline')
        .map((e) => `${name(e)}: ${e.scrollWidth} > ${e.clientWidth}`)
        .concat(side.scrollHeight > side.clientHeight + 0.5 ? [`column: ${side.scrollHeight} > ${side.clientHeight}`] : []),
      // Off the screen, or out of the column (over the roads).
      outside: area
        .filter((e) => e.getBoundingClientRect().width > 0)
        .filter((e) => !within(e.getBoundingClientRect(), screen) || !within(e.getBoundingClientRect(), side.getBoundingClientRect()))
        .map(name)
        .concat(roads.filter((r) => !within(r.getBoundingClientRect(), screen)).map(name)),
      results: [...results.querySelectorAll('li')].map(px),
      // The main bets' limits, as big as the results.
      mainLimits: [...limits.querySelectorAll('tr[data-bet="PLAYER"] td, tr[data-bet="BANKER"] td, tr[data-bet="TIE"] td')]
        .filter((e) => e.getAttribute('data-field') !== 'pays')
        .map(px),
      // Every bet's name, limits and pay, and every pay note: smaller, but legible from 3 m.
      pays: [...limits.querySelectorAll('tbody th, tbody td'), ...(notes ? [notes] : [])].map(px),
    };
  });
  return { scroll, ...board };
}

describe('the table-side display fits the most crowded tables', () => {
  const pages: Record<string, { page: Page; table: string; key: string }> = {};
  beforeAll(async () => {
    for (const [title, table] of CROWDED) {
      const at = await givenPit(ctx, table);
      const cards = dealtHands(8, 4051, 40);
      for (const hand of cards) await ctx.as(at.terminal).post(`/v1/shoes/${at.shoe.id}/coups`).send({ cards: hand, wagers: [] }).expect(201);
      const key = await givenKey(ctx, 'DISPLAY', at.table.id);
      const page = await signedIn(browser, url, key, `#/display/${at.table.id}`, HD);
      await until(page, () => document.querySelectorAll('[data-testid="results"] li').length === 20);
      pages[title] = { page, table: at.table.id, key };
    }
  });
  afterAll(async () => {
    for (const { page } of Object.values(pages)) await page.close();
  });

  const cases = CROWDED.flatMap(([title]) => LANGS.flatMap((lang) => [HD, UHD].map((size) => [title, lang, `${size.width} × ${size.height}`, size] as const)));
  it.each(cases)('%s in %s fits %s whole: nothing clipped or off the screen, in big type', async (title, lang, _size, size) => {
    const { page, table, key } = pages[title];
    await switchTo(page, lang);
    const board = await boardAt(page, size);
    const at = [title, lang, size.width];
    expect([...at, board.scroll, board.page]).toEqual([...at, [0, 0], [0, 0]]);
    expect([...at, board.clipped]).toEqual([...at, []]);
    expect([...at, board.outside]).toEqual([...at, []]);
    // Every bet the API offers is on the board, with its limits: none left out to make room.
    const api = (await ctx.as(key).get(`/v1/tables/${table}/display`).expect(200)).body;
    const rows = await page.locator('[data-testid="limits"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-bet')));
    expect(rows).toEqual(api.limits.bets.map((b: { betType: string }) => b.betType));
    expect(board.results).toHaveLength(20);
    // Read from 3 m: the results and the main bets' limits at 48 px a 1080-line screen, the pays no smaller than 28.
    const k = size.height / 1080;
    expect([...at, board.results.filter((px) => px < 47.5 * k)]).toEqual([...at, []]);
    expect(board.mainLimits).toHaveLength(6);
    expect([...at, board.mainLimits.filter((px) => px < 47.5 * k)]).toEqual([...at, []]);
    expect([...at, board.pays.filter((px) => px < 28 * k)]).toEqual([...at, []]);
    expect(problemsOf(page)).toEqual([]);
  });
});

// The docs' screenshots directory exists when SCREENSHOTS=write is asked for.
if (SHOTS) fs.mkdirSync(SHOTS, { recursive: true });
