import { dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../../src/domain';
import { Agent, TestContext } from './app';

let seq = 0;

export interface Table {
  id: string;
  code: string;
  propertyId: string;
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

/**
 * A key as a casino issues it: a terminal's from the bootstrap administrator; a person's (named by
 * a staff number) from an administrator of its own, so that any two people's keys may form the two
 * halves of a void (their keys come from different administrators).
 */
export async function givenKey(ctx: TestContext, role: string, tableId?: string): Promise<string> {
  const n = ++seq;
  const mint = async (by: Agent, body: Record<string, unknown>) => {
    const res = await by.post('/v1/api-keys', body);
    if (res.status !== 201) throw new Error(`givenKey: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.key as string;
  };
  if (role === 'TERMINAL') return mint(ctx.admin, { name: `${role} ${n}`, role, tableId });
  if (role === 'ADMIN') return mint(ctx.admin, { name: `${role} ${n}`, role, staffId: `E-${process.pid}-${n}` });
  const minter = await mint(ctx.admin, { name: `administrator of ${n}`, role: 'ADMIN', staffId: `E-ADM-${process.pid}-${n}` });
  return mint(ctx.as(minter), { name: `${role} ${n}`, role, ...(tableId ? { tableId } : {}), staffId: `E-${process.pid}-${n}` });
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
