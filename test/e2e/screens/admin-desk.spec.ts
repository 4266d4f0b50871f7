/// <reference lib="dom" />
import type { Browser, Locator, Page } from 'playwright-core';
import { TestContext } from '../../support/app';
import {
  AWAY,
  expectWallClock,
  inEveryLanguage,
  overflowAt,
  problemsOf,
  Screens,
  signedIn as signedInAt,
  startScreens,
  switchTo,
  until,
} from '../../support/browser';
import { givenAdministrators, givenTable } from '../../support/builders';

/**
 * The administration desk (#/admin, issue 50) in a real Chromium. Every act is done through the
 * screen alone (typed and pressed as a person would) and checked against the API: a property, a
 * table with its limits typed in major units, a change of limits, closing and reopening; the staff
 * register and an administrator's key under two-person control, proposed by one administrator in one
 * page and approved by another in a second page, and the refusal when one approves their own
 * proposal; a key minted, claimed by its holder, witnessed and revoked. In each language, axe-core
 * finds nothing and nothing is logged but the refusal provoked; the page never scrolls sideways on a
 * 1024 × 768 tablet. With SCREENSHOTS=write, saved as docs/screens/admin.<lang>.png.
 */
jest.setTimeout(180_000);
const P = process.pid % 100000;

let ctx: TestContext;
let url: string;
let browser: Browser;
let screens: Screens;
let first: string;
let second: string;

beforeAll(async () => {
  screens = await startScreens();
  ({ ctx, url, browser } = screens);
  ({ first, second } = await givenAdministrators(ctx));
});
afterAll(() => screens?.close());

const signedIn = (key: string, timezoneId?: string) => signedInAt(browser, url, key, '#/admin', undefined, timezoneId);
const api = (key: string) => ctx.as(key);
const form = (page: Page, id: string): Locator => page.locator(`form[data-testid="${id}"]`);
/** Reads the screen again, as a person would after another administrator's act. */
async function readAgain(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: label, exact: true }).click();
  await until(page, () => document.querySelectorAll('main p[role="status"]:not(.done)').length === 0);
}

describe('the administration desk', () => {
  it('sets up a property and a table in major units, changes its limits, closes and reopens it, each checked against the API', async () => {
    const page = await signedIn(first);
    await page.locator('[data-testid="admin-properties"]').waitFor();
    // A property.
    const name = `Casino Admin ${P}`;
    const property = form(page, 'property-add');
    await property.getByLabel('Name').fill(name);
    await property.getByLabel('Time zone (IANA)').fill('Asia/Macau');
    await property.getByLabel('Gaming day starts at (hour, 0–23)').fill('10');
    await property.getByLabel('Gaming day starts at (hour, 0–23)').press('Enter');
    await page.getByTestId('property-added').waitFor();
    const made = (
      (await api(first).get('/v1/properties').expect(200)).body as { id: string; name: string; timeZone: string; gamingDayStartHour: number }[]
    ).find((p) => p.name === name);
    expect(made).toMatchObject({ timeZone: 'Asia/Macau', gamingDayStartHour: 10 });
    // The new property is the one the tables part shows.
    await until(
      page,
      (id: string) => document.querySelector<HTMLSelectElement>('[data-testid="admin-tables"] select[name="property"]')?.value === id,
      made!.id,
    );

    // A table, its limits typed in Hong Kong dollars and sent as cents.
    const code = `ADM-${P}`;
    const table = form(page, 'table-add');
    await table.getByLabel('Table code').fill(code);
    await table.getByLabel('Pit').fill('Salon');
    await table.getByLabel('Game').selectOption('EZ');
    await table.getByLabel('Currency (ISO 4217)').fill('HKD');
    await table.getByLabel('Minimum (HKD)').fill('100.5');
    await table.getByLabel('Maximum (HKD)').fill('50000');
    await table.getByLabel('Maximum (HKD)').press('Enter');
    await page.getByTestId('table-added').waitFor();
    const [created] = (await api(first).get(`/v1/tables?propertyId=${made!.id}`).expect(200)).body as Record<string, any>[];
    expect(created).toMatchObject({ code, pit: 'Salon', variant: 'EZ', currency: 'HKD', minBet: 10050, maxBet: 5000000, status: 'OPEN' });
    const row = page.locator(`tr[data-table="${created.id}"]`);
    expect(await row.locator('[data-field="minBet"]').getAttribute('data-minor')).toBe('10050');
    expect(await row.locator('[data-field="maxBet"]').getAttribute('data-minor')).toBe('5000000');

    // More decimals than the currency has: said in words, and nothing is sent.
    const limits = form(page, 'table-limits');
    await limits.getByLabel('Minimum (HKD)').fill('12.345');
    await limits.getByLabel('Maximum (HKD)').fill('60000');
    await limits.getByLabel('Reason').fill('A typing slip');
    await limits.getByLabel('Reason').press('Enter');
    await limits.getByTestId('bad-amount').waitFor();
    expect((await api(first).get(`/v1/tables/${created.id}/limits`).expect(200)).body.history).toHaveLength(1);

    // In Simplified Chinese: the limits change, with the reason.
    await switchTo(page, 'zh-Hans');
    await limits.getByLabel('最低（HKD）').fill('200');
    await limits.getByLabel('最高（HKD）').fill('80000.25');
    await limits.getByLabel('原因').fill('周六晚上提高最低投注');
    await limits.getByLabel('原因').press('Enter');
    await page.getByTestId('limits-changed').waitFor();
    const after = (await api(first).get(`/v1/tables/${created.id}/limits`).expect(200)).body;
    expect(after.inForce).toMatchObject({ minBet: 20000, maxBet: 8000025, reason: '周六晚上提高最低投注' });
    await until(
      page,
      (id: string) => document.querySelector(`tr[data-table="${id}"] [data-field="minBet"]`)?.getAttribute('data-minor') === '20000',
      created.id,
    );

    // Closed, then reopened.
    const openClose = form(page, 'table-open-close');
    await openClose.getByRole('button', { name: '关闭赌台' }).click();
    await until(page, () => document.querySelector('[data-testid="table-open-close-done"]') !== null);
    expect((await api(first).get(`/v1/tables/${created.id}`).expect(200)).body.status).toBe('CLOSED');
    await openClose.getByRole('button', { name: '重开赌台' }).click();
    await until(
      page,
      (id: string) => document.querySelector(`tr[data-table="${id}"] [data-field="status"]`)?.getAttribute('data-value') === 'OPEN',
      created.id,
    );
    expect((await api(first).get(`/v1/tables/${created.id}`).expect(200)).body.status).toBe('OPEN');
    await switchTo(page, 'en');
    expect(problemsOf(page)).toEqual([]);
    await page.close();
  });

  it('changes the register and revokes an administrator key with two administrators in two pages, refuses one approving their own proposal, and mints, witnesses and revokes keys', async () => {
    // The first administrator's browser is in New York: a table's key is shown in its property's wall clock.
    const a = await signedIn(first, AWAY);
    const staffId = `E-ADM-${P}`;
    // One administrator proposes a third administrator.
    const propose = form(a, 'staff-propose');
    await propose.getByLabel('Staff number').fill(staffId);
    await propose.getByLabel('Name', { exact: true }).fill('Mei Ling Chan');
    await propose.getByLabel('Administrator', { exact: true }).check();
    await propose.getByLabel('Reason').fill('Hired as administrator');
    await propose.getByLabel('Reason').press('Enter');
    await a.getByTestId('staff-proposed').waitFor();
    const [change] = ((await api(first).get('/v1/staff/changes?status=PENDING').expect(200)).body as { id: string; staffId: string; roles: string[] }[]).filter(
      (c) => c.staffId === staffId,
    );
    expect(change.roles).toEqual(['ADMIN']);

    // The same administrator approves their own proposal: refused, said in words, nothing changes.
    const decideA = form(a, 'staff-decide');
    await decideA.getByLabel('Change').selectOption(change.id);
    await decideA.getByRole('button', { name: 'Approve', exact: true }).click();
    await decideA.locator('[role="alert"][data-code="SAME_PERSON"]').waitFor();
    expect(await decideA.getByTestId('refusal').textContent()).toContain('A second person must do this');
    expect((await api(first).get('/v1/staff/changes?status=PENDING').expect(200)).body.map((c: { id: string }) => c.id)).toContain(change.id);

    // A second administrator, in another page and in Traditional Chinese, approves it.
    const b = await signedIn(second);
    await switchTo(b, 'zh-Hant');
    const decideB = form(b, 'staff-decide');
    await decideB.getByLabel('更改').selectOption(change.id);
    await decideB.getByLabel('備註（拒絕時必填）').fill('已核對人事紀錄');
    await decideB.getByRole('button', { name: '批准', exact: true }).click();
    await b.getByTestId('staff-decide-done').waitFor();
    const person = ((await api(first).get('/v1/staff').expect(200)).body as { staffId: string; roles: string[]; active: boolean }[]).find(
      (p) => p.staffId === staffId,
    );
    expect(person).toMatchObject({ roles: ['ADMIN'], active: true });
    await until(b, (id: string) => document.querySelector(`tr[data-staff="${id}"] [data-field="roles"]`)?.getAttribute('data-value') === 'ADMIN', staffId);

    // The first mints the new administrator's key; it is shown once; its holder claims it.
    await readAgain(a, 'Read again');
    const mint = form(a, 'key-mint');
    await mint.getByLabel('Who or what uses it').fill(`${staffId} administrator`);
    await mint.getByLabel('Role').selectOption('ADMIN');
    await mint.getByLabel('Staff number').fill(staffId);
    await mint.getByLabel('Staff number').press('Enter');
    const shown = (await a.getByTestId('minted-key').textContent())!;
    const keyId = (await a.getByTestId('key-minted').getAttribute('data-key-id'))!;
    const holder = (await api(shown).post('/v1/api-keys/claim').send({}).expect(201)).body.key as string;

    // The second witnesses the claim.
    await readAgain(b, '重新讀取');
    const witness = form(b, 'key-witness');
    await witness.getByLabel('已領取的金鑰').selectOption(keyId);
    await witness.getByRole('button', { name: '見證領取' }).click();
    await b.getByTestId('key-witnessed').waitFor();
    const witnessed = ((await api(first).get('/v1/api-keys').expect(200)).body as Record<string, unknown>[]).find((k) => k.id === keyId)!;
    expect(witnessed.claimWitnessedBy).not.toBeNull();

    // An administrator's key: the first proposes its revocation (in Simplified Chinese), the second approves it.
    await readAgain(a, 'Read again');
    await switchTo(a, 'zh-Hans');
    const revoke = form(a, 'key-revoke');
    await revoke.getByLabel('密钥').selectOption(keyId);
    await revoke.getByLabel('原因').fill('已离职，收回密钥');
    await revoke.getByLabel('原因').press('Enter');
    await a.getByTestId('key-revoked').waitFor();
    const [revocation] = ((await api(first).get('/v1/api-keys/revocations?status=PENDING').expect(200)).body as { id: string; keyId: string }[]).filter(
      (r) => r.keyId === keyId,
    );
    await api(holder).get('/v1/api-keys/me').expect(200);
    await readAgain(b, '重新讀取');
    const decideRevocation = form(b, 'revocation-decide');
    await decideRevocation.getByLabel('撤銷').selectOption(revocation.id);
    await decideRevocation.getByRole('button', { name: '批准', exact: true }).click();
    await b.getByTestId('revocation-decide-done').waitFor();
    await api(holder).get('/v1/api-keys/me').expect(401);

    // A table's display key: minted, then revoked by one administrator at once.
    const table = await givenTable(ctx, { code: `ADK-${P}` });
    await switchTo(a, 'en');
    await readAgain(a, 'Read again');
    await mint.getByLabel('Who or what uses it').fill(`Display ${table.code}`);
    await mint.getByLabel('Role').selectOption('DISPLAY');
    await mint.getByLabel('Table').selectOption(table.id);
    await mint.getByRole('button', { name: 'Mint' }).click();
    await until(a, (n: string) => document.querySelector('[data-testid="key-minted"]')?.textContent?.includes(n) ?? false, `Display ${table.code}`);
    const display = (await a.getByTestId('minted-key').textContent())!;
    const displayId = (await a.getByTestId('key-minted').getAttribute('data-key-id'))!;
    await api(display).get(`/v1/tables/${table.id}/display`).expect(200);
    await revoke.getByLabel('Key').selectOption(displayId);
    await revoke.getByRole('button', { name: 'Revoke now' }).click();
    await a.getByTestId('key-revoked').waitFor();
    await api(display).get(`/v1/tables/${table.id}/display`).expect(401);
    // Revoked at the default property's wall clock (UTC), the property of the key's table, not New York's.
    const { revokedAt } = ((await api(first).get('/v1/api-keys').expect(200)).body as { id: string; revokedAt: string }[]).find((k) => k.id === displayId)!;
    await expectWallClock(a, `tr[data-key="${displayId}"] [data-field="revokedAt"]`, revokedAt, 'UTC');

    // The desk in each language; one page on a 1024 × 768 tablet, never sideways.
    const same = () =>
      a.locator('main [data-value], main [data-minor]').evaluateAll((els) => els.map((e) => e.getAttribute('data-value') ?? e.getAttribute('data-minor')));
    await inEveryLanguage(
      a,
      'admin',
      same,
      { en: ['Staff register', 'API keys', 'Tables'], 'zh-Hant': ['員工名冊', 'API 金鑰', '賭枱'], 'zh-Hans': ['员工名册', 'API 密钥', '赌台'] },
      /status of 403/,
    );
    expect((await overflowAt(a, { width: 1024, height: 768 }))[0]).toBe(0);
    expect(problemsOf(b)).toEqual([]);
    await a.close();
    await b.close();
  });
});
