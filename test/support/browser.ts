/// <reference lib="dom" />
import fs from 'node:fs';
import path from 'node:path';
import { connect } from 'nats';
import { Browser, chromium, Page } from 'playwright-core';
import { listening, startTestApp, TestContext } from './app';

/**
 * The screens' tests drive Debian's Chromium (playwright-core downloads no browser). Every page
 * opened here records what a screen must never do: throw, or log an error to the console (a failed
 * request included: a 404 for a favicon is one), so a test can insist there was none.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox'] });
}

/** The service on its own database and its own NATS stream (the machine's NATS), listening, and Chromium: where every screens spec starts. */
export interface Screens {
  ctx: TestContext;
  url: string;
  browser: Browser;
  close(): Promise<void>;
}

const MACHINE_NATS = 'nats://127.0.0.1:4222';

export async function startScreens(env: NodeJS.ProcessEnv = {}): Promise<Screens> {
  const stream = `SABOT_SCREENS_${process.pid}_${Date.now().toString(36).toUpperCase()}`;
  const ctx = await startTestApp({ NATS_URL: MACHINE_NATS, EVENTS_STREAM: stream, ...env });
  const url = await listening(ctx.app);
  const browser = await launchChromium();
  return {
    ctx,
    url,
    browser,
    async close() {
      await browser.close();
      await ctx.close();
      const nc = await connect({ servers: MACHINE_NATS });
      await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
      await nc.close();
    },
  };
}

const PROBLEMS = new WeakMap<Page, string[]>();

/** A page of `size` (a tablet's by default), recording its errors; with `timezoneId`, the browser's clock is in that zone. */
export async function openPage(browser: Browser, size = { width: 1280, height: 800 }, timezoneId?: string): Promise<Page> {
  const page = await browser.newPage({ viewport: size, deviceScaleFactor: 1, ...(timezoneId ? { timezoneId } : {}) });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`thrown: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()} (${m.location().url})`);
  });
  PROBLEMS.set(page, problems);
  return page;
}

/** What the page threw or logged as an error since it opened. */
export const problemsOf = (page: Page): string[] => PROBLEMS.get(page) ?? [];

/** A page signed in with `key` through the sign-in form, by keyboard only, at `url`/app/`hash` (in the browser's zone `timezoneId`, if given). */
export async function signedIn(
  browser: Browser,
  url: string,
  key: string,
  hash = '',
  size?: { width: number; height: number },
  timezoneId?: string,
): Promise<Page> {
  const page = await openPage(browser, size, timezoneId);
  await page.goto(`${url}/app/${hash}`);
  await page.locator('#api-key').waitFor();
  await page.focus('#api-key');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
  await page.locator('header.top, main.display').first().waitFor();
  return page;
}

/**
 * A browser's zone far from every property the specs set up (UTC, Asia/Macau, America/Los_Angeles):
 * a page opened in it shows a property's wall clock only if the screen asks for the property's zone.
 */
export const AWAY = 'America/New_York';

/** A moment as the screens write it in English (format.ts, dateTime) in `timeZone`, every run of spaces as one. */
export const wallClock = (iso: string, timeZone: string): string =>
  new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(Date.parse(iso)).replace(/\s+/gu, ' ');

/** The text of the first element `selector` finds in the page, every run of spaces as one. */
export async function shownAt(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/gu, ' ').trim();
}

/**
 * The first element `selector` finds shows `iso` as `timeZone`'s wall clock (in the words `said`
 * puts it in, if given; waiting, a while, for a zone the screen reads after the moment), and that
 * is not the browser's (a page opened in AWAY).
 */
export async function expectWallClock(page: Page, selector: string, iso: string, timeZone: string, said = (clock: string) => clock): Promise<void> {
  const want = said(wallClock(iso, timeZone));
  expect([iso, timeZone, said(wallClock(iso, AWAY)) === want]).toEqual([iso, timeZone, false]);
  await until(
    page,
    ([sel, text]: [string, string]) => (document.querySelector(sel)?.textContent ?? '').replace(/\s+/gu, ' ').trim() === text,
    [selector, want],
    10_000,
  ).catch(() => undefined);
  expect([selector, await shownAt(page, selector)]).toEqual([selector, want]);
}

const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's automated checks (WCAG 2.0 to 2.2, A and AA, and its best practices) of the page as
 * it stands, run inside Chromium: each violation as "rule: the elements it found".
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol: the service's Content-Security-Policy forbids inline scripts, rightly.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } })
      .axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
  });
  return violations;
}

/** How far the page scrolls sideways and down at `size` (0, 0: it fits). */
export async function overflowAt(page: Page, size: { width: number; height: number }): Promise<[number, number]> {
  await page.setViewportSize(size);
  return page.evaluate(
    () => [document.documentElement.scrollWidth - window.innerWidth, document.documentElement.scrollHeight - window.innerHeight] as [number, number],
  );
}

/** The screens' languages, as their picker names them. */
export const LANGS = ['en', 'zh-Hant', 'zh-Hans'] as const;
export type Lang = (typeof LANGS)[number];
/** With SCREENSHOTS=write (npm run screenshots), the screens are saved here for the README. */
export const SHOTS = process.env.SCREENSHOTS === 'write' ? path.join(__dirname, '../../docs/screens') : null;

/** Waits (as long as it takes, up to a generous bound) until `fn` holds in the page. */
export async function until<A>(page: Page, fn: (arg: A) => unknown, arg?: A, timeout = 30_000): Promise<void> {
  await page.waitForFunction(fn as (arg: unknown) => unknown, arg, { timeout, polling: 100 });
}

/** Switches the screen's language with its picker, as a person would. */
export async function switchTo(page: Page, lang: Lang): Promise<void> {
  await page.locator('select.lang').selectOption(lang);
  await until(page, (l: string) => document.documentElement.lang === l, lang);
}

/**
 * The screen in each language: `words` are the language's own and show, `same` (figures, card
 * faces) reads the same in each, axe-core finds nothing, and nothing was logged as an error (but
 * what `allowed` matches: a refusal the test provoked); with SCREENSHOTS=write and a name, saved as
 * docs/screens/<name>.<lang>.png.
 */
export async function inEveryLanguage(page: Page, name: string | null, same: () => Promise<unknown>, words: Record<Lang, string[]>, allowed?: RegExp) {
  const first = await same();
  for (const lang of LANGS) {
    await switchTo(page, lang);
    for (const word of words[lang]) await page.getByText(word, { exact: false }).first().waitFor();
    expect([name, lang, await same()]).toEqual([name, lang, first]);
    expect([name, lang, await axeViolations(page)]).toEqual([name, lang, []]);
    if (SHOTS && name) await page.screenshot({ path: path.join(SHOTS, `${name}.${lang}.png`), fullPage: true });
  }
  await switchTo(page, 'en');
  expect([name, problemsOf(page).filter((p) => !allowed?.test(p))]).toEqual([name, []]);
}
