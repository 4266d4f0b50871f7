/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { TestContext } from '../../support/app';
import { axeViolations, problemsOf, Screens, signedIn as signedInAt, startScreens, switchTo } from '../../support/browser';
import { givenKey, givenShoe, givenTable } from '../../support/builders';

/**
 * The player-banked games at the table desk (issue 50) in a real Chromium: a terminal opens the
 * bank, records coups against it with their stakes (chemin de fer's stakes and banco; banque's right,
 * left and à cheval), sees each punter's result as the service settled it, and the banker retires; a
 * refused coup is said in the screen's language. Nothing is written but through the screen.
 */
jest.setTimeout(240_000);
const P = process.pid;

let ctx: TestContext;
let url: string;
let browser: Browser;
let screens: Screens;

beforeAll(async () => {
  screens = await startScreens();
  ({ ctx, url, browser } = screens);
});
afterAll(async () => screens?.close());

const signedIn = (key: string, hash: string) => signedInAt(browser, url, key, hash, { width: 1024, height: 768 });
async function bankedTable(variant: 'CHEMIN_DE_FER' | 'BANQUE') {
  const table = await givenTable(ctx, { code: `${variant.slice(0, 4)}-${P}`, variant, currency: 'HKD', minBet: 10_000, maxBet: 10_000_000 });
  const terminal = await givenKey(ctx, 'TERMINAL', table.id);
  const shoe = await givenShoe(ctx, terminal, table.id);
  return { table, terminal, shoe };
}

describe('the desk of a player-banked game', () => {
  it('chemin de fer: the bank opened, a coup with stakes settled as the service settles it, a refusal in words, the banker retires', async () => {
    const { table, terminal, shoe } = await bankedTable('CHEMIN_DE_FER');
    const page = await signedIn(terminal, `#/desk/${table.id}`);
    const bank = page.locator('[data-testid="desk-bank"]');
    await bank.getByLabel('Banker seat').fill('1');
    await bank.getByLabel('Bank (HKD)').fill('1,000');
    await bank.getByLabel(/^Seats in rotation/).fill('1, 2, 3, 4');
    await bank.getByRole('button', { name: 'Open the bank' }).click();
    await page.getByText('Seat 1 holds the bank.').waitFor();
    const [opened] = (await ctx.as(terminal).get(`/v1/shoes/${shoe.id}/banks`).expect(200)).body;
    expect([opened.bankerSeat, opened.bank, opened.rotation, opened.status]).toEqual([1, 100_000, [1, 2, 3, 4], 'ACTIVE']);

    // Seats 2 and 3 cover HK$500 of the HK$1,000; the punters' 5 stands, the banker's 7 wins.
    await bank.getByLabel('Punter cards').fill('2C 3D');
    await bank.getByLabel('Banker cards').fill('4H 3S');
    await bank.getByLabel('Seat of stake 1').fill('2');
    await bank.getByLabel('Amount of stake 1 (HKD)').fill('300');
    await bank.getByLabel('Seat of stake 2').fill('3');
    await bank.getByLabel('Amount of stake 2 (HKD)').fill('200');
    await bank.getByRole('button', { name: 'Record the coup' }).click();
    await page.getByText('Coup 1 recorded against the bank.').waitFor();
    const [coup] = (await ctx.as(terminal).get(`/v1/banks/${opened.id}/coups`).expect(200)).body;
    expect(coup.punters.map((p: { seat: number; stake: number; net: number }) => [p.seat, p.stake, p.net])).toEqual([
      [2, 30_000, -30_000],
      [3, 20_000, -20_000],
    ]);
    const settled = page.locator('[data-testid="bank-settled"]');
    for (const field of ['bankBefore', 'commission', 'bankAfter'])
      expect([field, await settled.locator(`[data-field="${field}"]`).getAttribute('data-minor')]).toEqual([field, String(coup[field])]);
    for (const p of coup.punters) expect(await settled.locator(`tr[data-seat="${p.seat}"] [data-field="net"]`).getAttribute('data-minor')).toBe(String(p.net));

    // More staked than the bank holds: refused, in the screen's language, nothing written.
    await switchTo(page, 'zh-Hans');
    await bank.getByLabel('闲家的牌').fill('2C 3D');
    await bank.getByLabel('庄家的牌').fill('4H 3S');
    await bank.getByLabel('第 1 注的座位').fill('2');
    await bank.getByLabel('第 1 注的金额 (HKD)').fill('50,000');
    await bank.getByRole('button', { name: '记录此局' }).click();
    const refusal = bank.locator('[role="alert"][data-code="STAKES_EXCEED_BANK"] [data-testid="refusal"]');
    expect(await refusal.textContent()).toBe('注码多于庄金：闲家合共不可押多于庄家所有。');
    expect((await ctx.as(terminal).get(`/v1/banks/${opened.id}/coups`).expect(200)).body).toHaveLength(1);
    expect(await axeViolations(page)).toEqual([]);
    await switchTo(page, 'en');

    await bank.getByRole('button', { name: 'The banker retires' }).click();
    await bank.getByRole('button', { name: 'Open the bank' }).waitFor();
    const [retired] = (await ctx.as(terminal).get(`/v1/shoes/${shoe.id}/banks`).expect(200)).body;
    expect(retired.status).toBe('RETIRED');
    expect(problemsOf(page).filter((p) => !/status of 4\d\d/.test(p))).toEqual([]);
    await page.close();
  });

  it('baccarat banque: stakes on the right, the left and à cheval, each settled against the banker', async () => {
    const { table, terminal, shoe } = await bankedTable('BANQUE');
    const page = await signedIn(terminal, `#/desk/${table.id}`);
    await switchTo(page, 'zh-Hant');
    const bank = page.locator('[data-testid="desk-bank"]');
    await bank.getByLabel('坐莊座位').fill('1');
    await bank.getByLabel('莊金 (HKD)').fill('2000');
    await bank.getByLabel(/^輪莊次序的座位/).fill('1 2 3 4 5 6');
    await bank.getByRole('button', { name: '開莊' }).click();
    await page.getByText('第 1 號位坐莊。').waitFor();
    await bank.getByLabel('右手的牌').fill('9S KD');
    await bank.getByLabel('左手的牌').fill('2H 3C');
    await bank.getByLabel('莊家的牌').fill('7H KC');
    for (const [i, [seat, amount, side]] of [
      ['2', '500', 'RIGHT'],
      ['3', '400', 'LEFT'],
      ['4', '300.01', 'A_CHEVAL'],
    ].entries()) {
      await bank.getByLabel(`第 ${i + 1} 注的座位`).fill(seat);
      await bank.getByLabel(`第 ${i + 1} 注的金額 (HKD)`).fill(amount);
      await bank.getByLabel(`第 ${i + 1} 注的邊`).selectOption(side);
    }
    await bank.getByRole('button', { name: '記錄此局' }).click();
    await page.getByText('已記錄對莊的第 1 局。').waitFor();
    const [opened] = (await ctx.as(terminal).get(`/v1/shoes/${shoe.id}/banks`).expect(200)).body;
    const [coup] = (await ctx.as(terminal).get(`/v1/banks/${opened.id}/coups`).expect(200)).body;
    expect(coup.punters.map((p: { seat: number; side: string; stake: number }) => [p.seat, p.side, p.stake])).toEqual([
      [2, 'RIGHT', 50_000],
      [3, 'LEFT', 40_000],
      [4, 'A_CHEVAL', 30_001],
    ]);
    const settled = page.locator('[data-testid="bank-settled"]');
    for (const p of coup.punters) expect(await settled.locator(`tr[data-seat="${p.seat}"] [data-field="net"]`).getAttribute('data-minor')).toBe(String(p.net));
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });
});
