/// <reference lib="dom" />
/**
 * npm run bench:desk — the pit desk as a dealer works it (issue 50). The built service runs as its
 * own process on a fresh database of the machine's PostgreSQL (BENCH_DATABASE_URL); Debian's
 * Chromium (CHROMIUM_PATH) opens /app/#/desk/<table> at 1024 × 768 signed in with the table's
 * TERMINAL key. Measures:
 *  - the keys pressed to record a typical coup of 8 wagers by keyboard alone (the cards, and a
 *    seat, bet code and amount a wager): a count, the same on every machine;
 *  - for ROUNDS rounds (default 5), each on a new shoe: the desk's API cut, RUN coups (default 30)
 *    recorded on the screen, the API back; the time from "back" until the service has confirmed
 *    all of them (the waiting list gone and the shoe holding RUN coups).
 * Prints one line a round and the median; exits 1 if a coup was lost, doubled or out of order.
 */
import { chromium } from 'playwright-core';
import { benchDatabase } from './bench-db';
import { coupOf, cut, keyCoup, recordAtDesk, restore, TYPICAL_EIGHT } from './offline-desk';
import { startServiceProcess } from './service-process';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const RUN = Number(process.env.RUN ?? 30);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ADMIN = 'bench-admin-key-0123456789abcdef0123456789';

async function main(): Promise<void> {
  const db = await benchDatabase('desk');
  const service = await startServiceProcess({ DATABASE_URL: db.url, ADMIN_API_KEY: ADMIN, SURVEILLANCE: 'off' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox'] });
  let failed = false;
  try {
    const api = async (key: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
      const res = await fetch(service.base + path, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json()) as unknown;
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json as Record<string, unknown> & unknown[];
    };
    const table = await api(ADMIN, 'POST', '/v1/tables', { code: 'DESK-1', variant: 'COMMISSION', currency: 'HKD', minBet: 10_000, maxBet: 10_000_000 });
    const tableId = String(table.id);
    const terminal = String((await api(ADMIN, 'POST', '/v1/api-keys', { name: 'desk terminal', role: 'TERMINAL', tableId })).key);
    let shoeId: string | null = null;
    const newShoe = async () => {
      if (shoeId) await api(terminal, 'POST', `/v1/shoes/${shoeId}/close`, {});
      shoeId = String((await api(terminal, 'POST', `/v1/tables/${tableId}/shoes`, {})).id);
    };

    const page = await browser.newPage({ viewport: { width: 1024, height: 768 }, deviceScaleFactor: 1 });
    await page.goto(`${service.base}/app/#/desk/${tableId}`);
    await page.locator('#api-key').fill(terminal);
    await page.keyboard.press('Enter');
    await page.locator('main.desk').waitFor();
    const atCoup = (n: number) => page.getByRole('heading', { name: `Record a coup: Coup ${n}` }).waitFor();

    await newShoe();
    await page.reload();
    await atCoup(1);
    const keys = await keyCoup(page, '4H 4C', 'KD 7S', TYPICAL_EIGHT);
    await page.getByText('Coup 1 recorded: Player.').waitFor();
    console.log(`keys pressed to record a coup of ${TYPICAL_EIGHT.length} wagers by keyboard: ${keys}`);

    const ms: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      await newShoe();
      await page.reload();
      await atCoup(1);
      await cut(page);
      for (let i = 0; i < RUN; i++) await recordAtDesk(page, i, i + 1, 'here');
      await restore(page);
      const back = performance.now();
      await page.waitForFunction(() => document.querySelector('[data-testid="desk-waiting"]') === null, undefined, { timeout: 300_000, polling: 50 });
      const took = performance.now() - back;
      const coups = (await api(terminal, 'GET', `/v1/shoes/${shoeId}/coups`)) as unknown as { number: number; cards: unknown }[];
      const inOrder = coups.length === RUN && coups.every((c, i) => c.number === i + 1 && JSON.stringify(c.cards) === JSON.stringify(coupOf(i)));
      if (!inOrder) failed = true;
      ms.push(took);
      console.log(
        `round ${round}: ${RUN} coups recorded offline, all confirmed ${took.toFixed(0)} ms after the service was back${inOrder ? '' : ' — LOST, DOUBLED OR OUT OF ORDER'}`,
      );
    }
    const sorted = [...ms].sort((a, b) => a - b);
    console.log(
      `median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, min ${sorted[0].toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)} (${ROUNDS} rounds of ${RUN})`,
    );
  } finally {
    await browser.close();
    await service.stop();
    await db.drop();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
