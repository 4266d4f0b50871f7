import type { Page } from 'playwright-core';

/**
 * What the offline pit's spec and its benchmark share: coups that an 8-deck shoe can deal many of
 * (the Player's natural against the Banker's two picture cards: nobody draws), and the desk driven
 * as a dealer drives it, its API cut and restored as a network would drop.
 */

const NATURALS: [string, string][] = [
  ['8', 'T'],
  ['9', 'J'],
  ['4', '4'],
  ['3', '5'],
  ['2', '6'],
  ['A', '7'],
  ['4', '5'],
  ['3', '6'],
  ['2', '7'],
  ['A', '8'],
  ['8', 'Q'],
  ['9', 'K'],
  ['5', '3'],
  ['6', '2'],
  ['7', 'A'],
  ['5', '4'],
];
const SUITS = ['S', 'H', 'D', 'C'];
const ZEROS = ['T', 'J', 'Q', 'K'];

/**
 * The run's coups: each a Player natural against Banker 0 (nobody draws), taking the next pattern
 * and suits whose cards an 8-deck shoe still holds, so that fifty of them deal from one shoe.
 */
const RUN_COUPS: { player: string[]; banker: string[] }[] = (() => {
  const left = new Map<string, number>();
  const take = (cards: string[]) => {
    const want = new Map<string, number>();
    for (const c of cards) want.set(c, (want.get(c) ?? 0) + 1);
    if ([...want].some(([c, n]) => (left.get(c) ?? 8) < n)) return false;
    for (const [c, n] of want) left.set(c, (left.get(c) ?? 8) - n);
    return true;
  };
  const coups: { player: string[]; banker: string[] }[] = [];
  for (let k = 0; k < 5000 && coups.length < 50; k++) {
    const [a, b] = NATURALS[k % NATURALS.length];
    const s = SUITS[k % 4];
    const t = SUITS[Math.floor(k / 4) % 4];
    const player = [`${a}${s}`, `${b}${t}`];
    const banker = [`${ZEROS[Math.floor(k / 3) % 4]}${SUITS[(k + 2) % 4]}`, `${ZEROS[Math.floor(k / 5) % 4]}${SUITS[(k + 3) % 4]}`];
    if (take([...player, ...banker])) coups.push({ player, banker });
  }
  return coups;
})();

/** The i-th coup of the run (0-based): a Player natural against Banker 0, so it settles without a draw. */
export const coupOf = (i: number): { player: string[]; banker: string[] } => RUN_COUPS[i];

/** The wagers of every coup of the run, as typed at the desk and as the API takes them. */
export const RUN_WAGERS = [
  { seat: 1, code: 'B', typed: '1000', betType: 'BANKER', amount: 100_000 },
  { seat: 2, code: 'P', typed: '500', betType: 'PLAYER', amount: 50_000 },
  { seat: 3, code: 'T', typed: '100', betType: 'TIE', amount: 10_000 },
];

/** The desk's API out of reach (the page's requests to /v1 fail as a dropped network fails them), or back. */
export async function cut(page: Page): Promise<void> {
  await page.route('**/v1/**', (r) => r.abort('internetdisconnected'));
}
export async function restore(page: Page): Promise<void> {
  await page.unroute('**/v1/**');
}

/** Records the i-th coup of the run at the desk, through its form, and waits for the desk to say what became of it. */
export async function recordAtDesk(page: Page, i: number, number: number, outcome: 'here' | 'recorded'): Promise<void> {
  const c = coupOf(i);
  await page.getByLabel('Player cards').fill(c.player.join(' '));
  await page.getByLabel('Banker cards').fill(c.banker.join(' '));
  for (const [n, w] of RUN_WAGERS.entries()) {
    await page.getByLabel(`Seat of wager ${n + 1}`).fill(String(w.seat));
    await page.getByLabel(`Bet of wager ${n + 1}`).fill(w.code);
    await page.getByLabel(`Amount of wager ${n + 1}`, { exact: false }).fill(w.typed);
  }
  await page.getByRole('button', { name: 'Record the coup' }).click();
  await page
    .getByText(outcome === 'here' ? `Coup ${number} recorded here, not yet confirmed` : `Coup ${number} recorded:`, { exact: false })
    .first()
    .waitFor();
}

/**
 * A coup typed at the desk by keyboard alone, as a dealer types it: the Player's cards, Tab, the
 * Banker's, then each wager's seat (typed only when the prefilled one is not it), bet code and
 * amount, then Enter. Answers the keys pressed.
 */
export async function keyCoup(page: Page, player: string, banker: string, wagers: [seat: number, bet: string, amount: string][]): Promise<number> {
  let pressed = 0;
  const type = async (text: string) => {
    await page.keyboard.type(text);
    pressed += [...text].length;
  };
  const press = async (key: string, times = 1) => {
    for (let i = 0; i < times; i++) await page.keyboard.press(key);
    pressed += times;
  };
  await page.getByLabel('Player cards').focus();
  await type(player);
  await press('Tab');
  await type(banker);
  for (const [i, [seat, bet, amount]] of wagers.entries()) {
    await press('Tab'); // the line's seat (its text selected as the field is entered)
    if ((await page.getByLabel(`Seat of wager ${i + 1}`, { exact: true }).inputValue()) !== String(seat)) await type(String(seat));
    await press('Tab');
    await type(bet);
    await press('Tab');
    await type(amount);
    await press('Tab', 2); // past the chips' kind and the patron's card
  }
  await press('Enter');
  return pressed;
}

/** A typical coup of a busy commission table: 8 wagers on 7 seats, a side bet among them. */
export const TYPICAL_EIGHT: [seat: number, bet: string, amount: string][] = [
  [1, 'B', '1000'],
  [2, 'P', '500'],
  [3, 'T', '100'],
  [4, 'P', '2,000'],
  [5, 'B', '300'],
  [6, 'P', '150'],
  [7, 'PP', '100'],
  [8, 'B', '1000.50'],
];
