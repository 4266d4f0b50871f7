import { dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../../src/domain';
import { ADMIN_KEY, TestContext } from './app';

let seq = 0;

export interface Table {
  id: string;
  code: string;
  propertyId: string;
  currency: string;
  [k: string]: unknown;
}

/** A table through the API, with the usual commission rules unless overridden. */
export async function givenTable(ctx: TestContext, overrides: Record<string, unknown> = {}): Promise<Table> {
  const res = await ctx.admin.post('/v1/tables', {
    code: `T-${++seq}-${Date.now() % 100000}`,
    variant: 'COMMISSION',
    currency: 'EUR',
    minBet: 100,
    maxBet: 1_000_000,
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`givenTable: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Calls a service as a key: a TestContext's `as`, or a spawned service's `client(url, …)`. */
export type Caller = (key: string) => { post(path: string, body?: unknown): PromiseLike<{ status: number; body: any }> };

function expectStatus(res: { status: number; body: any }, status: number, what: string): Record<string, any> {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * A service's staff register as the tests fill it (one per database): its first two administrators,
 * registered by the bootstrap key at setup, whose keys it minted (after which it touches no person);
 * the first proposes and mints, the second approves and witnesses. And the roles each person holds so far.
 */
interface Register {
  administrators: Promise<{ first: string; second: string }>;
  roles: Map<string, string[]>;
}
const registers = new Map<unknown, Register>();

/**
 * A person's key as a casino issues it: minted by `minter`, claimed by its holder (a new secret
 * nobody who minted it saw) and the claim witnessed by `witness`, a second administrator.
 */
export async function claimedKey(as: Caller, minter: string, witness: string, body: Record<string, unknown>): Promise<string> {
  const minted = expectStatus(await as(minter).post('/v1/api-keys', body), 201, 'mint');
  const claimed = expectStatus(await as(minted.key).post('/v1/api-keys/claim', {}), 201, 'claim');
  expectStatus(await as(witness).post(`/v1/api-keys/${minted.id}/witness`, {}), 200, 'witness');
  return claimed.key as string;
}

function registerOf(scope: unknown, as: Caller, bootstrap: string): Register {
  let r = registers.get(scope);
  if (!r) {
    const ids = [`E-REG1-${process.pid}-${++seq}`, `E-REG2-${process.pid}-${++seq}`];
    const administrators = (async () => {
      const keys: string[] = [];
      for (const staffId of ids) {
        // The register has fewer than two administrators: the bootstrap key registers them alone, and mints their keys.
        const done = expectStatus(await as(bootstrap).post('/v1/staff', { staffId, name: staffId, roles: ['ADMIN'], reason: 'setup' }), 202, 'setup');
        if (done.status !== 'APPROVED') throw new Error(`setup: ${JSON.stringify(done)}`);
        keys.push(expectStatus(await as(bootstrap).post('/v1/api-keys', { name: staffId, role: 'ADMIN', staffId }), 201, 'setup key').key as string);
      }
      return { first: keys[0], second: keys[1] };
    })();
    r = { administrators, roles: new Map(ids.map((id) => [id, ['ADMIN']])) };
    registers.set(scope, r);
  }
  return r;
}

/** The two administrators the tests' register was set up with (`first` proposes and mints, `second` approves and witnesses). */
export const administratorsOn = (scope: unknown, as: Caller, bootstrap: string) => registerOf(scope, as, bootstrap).administrators;

/**
 * A person on the staff register of the service behind `as` (`scope` names that service's
 * database), holding `role` among theirs: proposed by one administrator, approved by the other.
 */
export async function givenStaffOn(scope: unknown, as: Caller, bootstrap: string, staffId: string, role: string): Promise<void> {
  const register = registerOf(scope, as, bootstrap);
  const { first, second } = await register.administrators;
  const held = register.roles.get(staffId) ?? [];
  if (held.includes(role)) return;
  const roles = [...held, role].sort();
  const proposed = expectStatus(await as(first).post('/v1/staff', { staffId, name: staffId, roles, reason: 'hired' }), 202, `register ${staffId}`);
  expectStatus(await as(second).post(`/v1/staff/changes/${proposed.id}/approve`, {}), 200, `register ${staffId}: approval`);
  register.roles.set(staffId, roles);
}

/** A person's key on the service behind `as`: the person registered, the key minted, claimed and witnessed. */
export async function personKeyOn(scope: unknown, as: Caller, bootstrap: string, body: { name: string; role: string; staffId: string }): Promise<string> {
  await givenStaffOn(scope, as, bootstrap, body.staffId, body.role);
  const { first, second } = await registerOf(scope, as, bootstrap).administrators;
  return claimedKey(as, first, second, body);
}

/** A test app's two administrators (`first` proposes and mints, `second` approves and witnesses). */
export const givenAdministrators = (ctx: TestContext) => administratorsOn(ctx, (k) => ctx.as(k), ADMIN_KEY);

/** A person on a test app's staff register. */
export const givenStaff = (ctx: TestContext, staffId: string, role: string) => givenStaffOn(ctx, (k) => ctx.as(k), ADMIN_KEY, staffId, role);

/**
 * A key as a casino issues it: a terminal's from the bootstrap administrator; a person's for a
 * person put on the staff register under two-person control, claimed by its holder, so that any
 * two people's keys may form the two halves of a void.
 */
export async function givenKey(ctx: TestContext, role: string, tableId?: string): Promise<string> {
  const n = ++seq;
  if (role === 'TERMINAL' || role === 'DISPLAY')
    return expectStatus(await ctx.admin.post('/v1/api-keys', { name: `${role} ${n}`, role, tableId }), 201, 'givenKey').key as string;
  return personKeyOn(ctx, (k) => ctx.as(k), ADMIN_KEY, { name: `${role} ${n}`, role, staffId: `E-${process.pid}-${n}`, ...(tableId ? { tableId } : {}) });
}

export interface Shoe {
  id: string;
  tableId: string;
  [k: string]: unknown;
}

export async function givenShoe(ctx: TestContext, key: string, tableId: string, overrides: Record<string, unknown> = {}): Promise<Shoe> {
  const res = await ctx.as(key).post(`/v1/tables/${tableId}/shoes`, overrides);
  if (res.status !== 201) throw new Error(`givenShoe: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A table, a terminal key bound to it, a supervisor key and an open shoe. */
export async function givenPit(ctx: TestContext, table: Record<string, unknown> = {}, shoe: Record<string, unknown> = {}) {
  const t = await givenTable(ctx, table);
  const terminal = await givenKey(ctx, 'TERMINAL', t.id);
  const supervisor = await givenKey(ctx, 'SUPERVISOR');
  const s = await givenShoe(ctx, terminal, t.id, shoe);
  return { table: t, terminal, supervisor, shoe: s };
}

/** A two-person void: one supervisor asks, another approves. Returns the approval's response. */
export async function givenVoid(ctx: TestContext, target: 'coups' | 'slips' | 'buy-ins', id: string, reason: string, requester: string, approver: string) {
  const asked = await ctx.as(requester).post(`/v1/${target}/${id}/void`, { reason });
  if (asked.status !== 202) throw new Error(`givenVoid request: ${asked.status} ${JSON.stringify(asked.body)}`);
  const approved = await ctx.as(approver).post(`/v1/void-requests/${asked.body.voidRequestId}/approve`, {});
  if (approved.status !== 200) throw new Error(`givenVoid approve: ${approved.status} ${JSON.stringify(approved.body)}`);
  return approved.body;
}

/** The first `n` hands of a shuffled shoe of `decks` decks (seeded), dealt by the punto banco tableau. */
export function dealtHands(decks: number, seed: number, n: number): { player: string[]; banker: string[] }[] {
  const cards = shuffledShoe(decks, seededRandom(seed));
  const out = [];
  for (let pos = 0; out.length < n;) {
    const d = dealPuntoBanco(cards, pos)!;
    pos += d.used;
    out.push({ player: d.player.map(formatCard), banker: d.banker.map(formatCard) });
  }
  return out;
}

const hosts = new WeakMap<TestContext, Promise<string>>();

/** Registered player cards (each once per test app: registering one again is a no-op here). */
export async function givenPatrons(ctx: TestContext, ...cards: string[]): Promise<void> {
  if (!hosts.has(ctx)) hosts.set(ctx, givenKey(ctx, 'HOST'));
  const host = ctx.as(await hosts.get(ctx)!);
  for (const card of cards) {
    const res = await host.post('/v1/patrons', { card });
    if (res.status !== 201 && res.body.code !== 'CONFLICT') throw new Error(`givenPatrons: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

const creditOfficers = new WeakMap<TestContext, Promise<{ requester: string; approver: string; manager: string }>>();

/** A test app's credit department: a credit officer who requests, a second who approves, and a casino manager (three people). */
export function givenCreditOfficers(ctx: TestContext): Promise<{ requester: string; approver: string; manager: string }> {
  if (!creditOfficers.has(ctx))
    creditOfficers.set(
      ctx,
      (async () => ({ requester: await givenKey(ctx, 'FINANCE'), approver: await givenKey(ctx, 'FINANCE'), manager: await givenKey(ctx, 'CASINO_MANAGER') }))(),
    );
  return creditOfficers.get(ctx)!;
}

/**
 * A credit line in force, as a casino puts one in place: requested by one credit officer and
 * approved by a second (and, over the property's threshold, last by the casino manager).
 */
export async function givenCreditLine(
  ctx: TestContext,
  propertyId: string,
  holder: { patronId: string; currency?: string } | { junketId: string },
  creditLimit: number,
): Promise<void> {
  const { requester, approver, manager } = await givenCreditOfficers(ctx);
  const asked = expectStatus(
    await ctx.as(requester).post(`/v1/properties/${propertyId}/credit-requests`, { act: 'LIMIT', ...holder, creditLimit, reason: 'test credit line' }),
    201,
    'credit line request',
  );
  let r = expectStatus(await ctx.as(approver).post(`/v1/credit-requests/${asked.id}/approve`, {}), 200, 'credit line approval');
  if (r.status === 'PENDING') r = expectStatus(await ctx.as(manager).post(`/v1/credit-requests/${asked.id}/approve`, {}), 200, 'credit line: casino manager');
  if (r.status !== 'APPROVED') throw new Error(`givenCreditLine: ${JSON.stringify(r)}`);
}

/** Approves, by a second credit officer, the pending credit request `requestId` of the test app. */
export async function approveCredit(ctx: TestContext, requestId: string): Promise<Record<string, any>> {
  const { approver, manager } = await givenCreditOfficers(ctx);
  let r = expectStatus(await ctx.as(approver).post(`/v1/credit-requests/${requestId}/approve`, {}), 200, 'credit approval');
  if (r.status === 'PENDING') r = expectStatus(await ctx.as(manager).post(`/v1/credit-requests/${requestId}/approve`, {}), 200, 'credit: casino manager');
  return r;
}
