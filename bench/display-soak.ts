/**
 * npm run bench:display — the table-side display left running, as it is on the floor. The built
 * service runs as its own process on a fresh database of the machine's PostgreSQL (BENCH_DATABASE_URL),
 * with the machine's NATS (BENCH_NATS_URL; NATS=off for none, the feeds then read the audit log);
 * Chromium (CHROMIUM_PATH, default Debian's) opens /app/#/display/<table> signed in with a DISPLAY
 * key, through a proxy that drops every connection now and then (the event stream's among them) to
 * force reconnects. A terminal records a coup every COUP_SECONDS (default 3; a new shoe when one
 * ends) for DURATION_MIN minutes (default 120), and each coup must appear on the screen within
 * STALE_SECONDS (default 30). Every minute the page's JS heap is measured after a garbage
 * collection (CDP HeapProfiler.collectGarbage, then Runtime.getHeapUsage); prints a row a minute,
 * then the first, last and largest heap. Exits 1 if the screen stopped updating (a coup not shown in
 * time, or a stream that did not come back), 0 otherwise.
 */
import { chromium } from 'playwright-core';
import { Card, dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../src/domain';
import { benchDatabase } from './bench-db';
import { cutProxy } from './cut-proxy';
import { startServiceProcess } from './service-process';

const DURATION_MIN = Number(process.env.DURATION_MIN ?? 120);
const COUP_SECONDS = Number(process.env.COUP_SECONDS ?? 3);
const STALE_SECONDS = Number(process.env.STALE_SECONDS ?? 30);
/** A cut every few minutes (at most a quarter of the run apart), at a random moment around it. */
const CUT_MIN = Number(process.env.CUT_MIN ?? Math.min(5, DURATION_MIN / 4));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const NATS = process.env.NATS === 'off' ? null : (process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222');
const ADMIN = 'bench-admin-key-0123456789abcdef0123456789';
const DECKS = 8;
/** Where the cut card lies: the shoe ends once fewer cards than this are left. */
const CUT_CARD_LEFT = 14;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Sample {
  minute: number;
  usedMb: number;
  totalMb: number;
  coups: number;
  shoes: number;
  cuts: number;
  lagP50: number;
  lagMax: number;
}

async function main(): Promise<void> {
  const db = await benchDatabase('display');
  const service = await startServiceProcess({
    DATABASE_URL: db.url,
    ADMIN_API_KEY: ADMIN,
    SURVEILLANCE: 'off',
    ...(NATS ? { NATS_URL: NATS, EVENTS_STREAM: `BENCH_DISPLAY_${Date.now().toString(36).toUpperCase()}` } : {}),
  });
  const proxy = await cutProxy(service.base);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox'] });
  let failed: string | null = null;
  try {
    const api = async (key: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
      const res = await fetch(service.base + path, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json()) as Record<string, string | number>;
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const table = await api(ADMIN, 'POST', '/v1/tables', {
      code: 'SOAK-1',
      variant: 'COMMISSION',
      currency: 'HKD',
      minBet: 50_000,
      maxBet: 10_000_000,
      sideBets: ['PLAYER_PAIR', 'BANKER_PAIR'],
    });
    const terminal = String((await api(ADMIN, 'POST', '/v1/api-keys', { name: 'soak terminal', role: 'TERMINAL', tableId: table.id })).key);
    const display = String((await api(ADMIN, 'POST', '/v1/api-keys', { name: 'soak display', role: 'DISPLAY', tableId: table.id })).key);

    // The shoe dealt from: a seeded shuffle, a coup at a time, a new shoe at the cut card.
    let shoe: { id: string; number: number; cards: Card[]; at: number; coups: number } | null = null;
    let shoes = 0;
    const openShoe = async () => {
      if (shoe) await api(terminal, 'POST', `/v1/shoes/${shoe.id}/close`, {});
      const opened = await api(terminal, 'POST', `/v1/tables/${table.id}/shoes`, {});
      shoes++;
      shoe = { id: String(opened.id), number: Number(opened.number), cards: shuffledShoe(DECKS, seededRandom(1000 + shoes)), at: 0, coups: 0 };
    };
    await openShoe();

    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 }, deviceScaleFactor: 1 });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`thrown: ${e.message}`));
    page.on('console', (m) => {
      // A connection the proxy cut is the browser's to note; anything else is the screen's fault.
      if (m.type() === 'error' && !/ERR_|network|Failed to fetch/i.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    await page.goto(`${proxy.url}/app/#/display/${table.id}`);
    await page.locator('#api-key').fill(display);
    await page.keyboard.press('Enter');
    await page.locator('main.display').waitFor();
    const cdp = await page.context().newCDPSession(page);

    /** Whether the screen shows coup `n` of shoe `shoeNo` as the newest result. */
    const shows = async (shoeNo: number, n: number) =>
      (await page
        .locator('[data-testid="shoe"]')
        .getAttribute('data-shoe', { timeout: 1_000 })
        .catch(() => null)) === String(shoeNo) &&
      (await page
        .locator('[data-testid="results"] li')
        .first()
        .getAttribute('data-coup', { timeout: 1_000 })
        .catch(() => null)) === String(n);

    const samples: Sample[] = [];
    const lags: number[] = [];
    let coups = 0;
    let cuts = 0;
    const start = Date.now();
    const end = start + DURATION_MIN * 60_000;
    let nextSample = start;
    let nextCut = start + CUT_MIN * 60_000 * (0.5 + Math.random());
    console.log(
      `display soak: ${DURATION_MIN} min, a coup every ${COUP_SECONDS} s, a cut every ~${CUT_MIN.toFixed(1)} min, ${NATS ? 'NATS' : 'no NATS'}; table ${table.id}`,
    );
    console.log('minute  heap used MB  heap total MB  coups  shoes  cuts  lag p50 ms  lag max ms');
    const sample = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const heap = await cdp.send('Runtime.getHeapUsage');
      const sorted = [...lags].sort((a, b) => a - b);
      const s: Sample = {
        minute: Math.round((Date.now() - start) / 60_000),
        usedMb: heap.usedSize / 2 ** 20,
        totalMb: heap.totalSize / 2 ** 20,
        coups,
        shoes,
        cuts,
        lagP50: sorted[Math.floor(sorted.length / 2)] ?? 0,
        lagMax: sorted[sorted.length - 1] ?? 0,
      };
      samples.push(s);
      console.log(
        [
          String(s.minute).padStart(6),
          s.usedMb.toFixed(2).padStart(13),
          s.totalMb.toFixed(2).padStart(14),
          String(s.coups).padStart(6),
          String(s.shoes).padStart(6),
          String(s.cuts).padStart(5),
          String(s.lagP50).padStart(11),
          String(s.lagMax).padStart(11),
        ].join(' '),
      );
    };

    while (Date.now() < end && !failed) {
      const started = Date.now();
      if (started >= nextSample) {
        await sample();
        nextSample += 60_000;
      }
      if (started >= nextCut) {
        cuts++;
        proxy.cut();
        nextCut = started + CUT_MIN * 60_000 * (0.5 + Math.random());
      }
      // The next coup, or a new shoe when the cut card has come out.
      let s = shoe!;
      let dealt = s.cards.length - s.at >= CUT_CARD_LEFT ? dealPuntoBanco(s.cards, s.at) : null;
      if (!dealt) {
        await openShoe();
        s = shoe!;
        dealt = dealPuntoBanco(s.cards, s.at)!;
      }
      s.at += dealt.used;
      const recorded = await api(terminal, 'POST', `/v1/shoes/${s.id}/coups`, {
        cards: { player: dealt.player.map(formatCard), banker: dealt.banker.map(formatCard) },
        wagers: [{ seat: 1, betType: 'BANKER', amount: 100_000 }],
      });
      coups++;
      s.coups++;
      const answered = Date.now();
      // The screen must show it by itself, whatever the proxy did to its stream.
      for (;;) {
        if (await shows(s.number, recorded.number as number)) break;
        if (Date.now() - answered > STALE_SECONDS * 1000) {
          failed = `coup ${String(recorded.number)} of shoe ${s.number} was not on the screen ${STALE_SECONDS} s after it was recorded`;
          break;
        }
        await sleep(100);
      }
      lags.push(Date.now() - answered);
      await sleep(Math.max(0, started + COUP_SECONDS * 1000 - Date.now()));
    }
    if (!failed) {
      // The stream is back by the end: no "reconnecting" left on the screen.
      const back = Date.now();
      while (await page.locator('[data-testid="reconnecting"]').count()) {
        if (Date.now() - back > STALE_SECONDS * 1000) {
          failed = `the screen still said "reconnecting" ${STALE_SECONDS} s after the last coup`;
          break;
        }
        await sleep(250);
      }
    }
    await sample();
    if (problems.length) failed ??= `the page logged errors: ${problems.slice(0, 5).join(' | ')}`;
    const used = samples.map((s) => s.usedMb);
    console.log(
      `heap used after GC: first ${used[0].toFixed(2)} MB, last ${used[used.length - 1].toFixed(2)} MB, max ${Math.max(...used).toFixed(2)} MB; ` +
        `${coups} coups in ${shoes} shoes, ${cuts} connections cut, each coup on screen ${samples[samples.length - 1].lagP50} ms (median) after its answer, ${samples[samples.length - 1].lagMax} ms at most`,
    );
  } finally {
    await browser.close();
    await proxy.close();
    await service.stop();
    await db.drop();
  }
  if (failed) {
    console.error(`FAILED: ${failed}`);
    process.exit(1);
  }
  console.log('the screen kept up the whole run');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
