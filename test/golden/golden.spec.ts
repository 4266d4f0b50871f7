import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types';
import { ADMIN_KEY, startTestApp, TestContext } from '../support/app';

/**
 * Recorded answers: a fixed script of requests through every room of the API (tables, keys, shoes,
 * whole and stepwise coups, ties carried, side bets, refusals, commission, a two-person void, banks,
 * odds, reports as JSON and CSV, the audit log), and every answer's status, content type and body,
 * kept in answers.txt. A refactoring must leave them byte-identical. Ids, keys, hashes, times and
 * today's date are replaced by placeholders in order of appearance; nothing else is touched.
 * `GOLDEN=record npx jest test/golden` writes the file anew (review the diff before committing it).
 */
const FILE = path.join(__dirname, 'answers.txt');

let ctx: TestContext;
beforeAll(async () => (ctx = await startTestApp()));
afterAll(() => ctx.close());

function normaliser(today: string) {
  const seen = new Map<string, string>();
  const name = (kind: string, value: string) => {
    if (!seen.has(value)) seen.set(value, `<${kind}-${[...seen.keys()].filter((k) => seen.get(k)!.startsWith(`<${kind}-`)).length + 1}>`);
    return seen.get(value)!;
  };
  const days = [-1, 0, 1].map((d) => new Date(Date.parse(`${today}T00:00:00Z`) + d * 86_400_000).toISOString().slice(0, 10));
  return (text: string) =>
    text
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g, '<time>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (v) => name('id', v.toLowerCase()))
      .replace(/sab_[A-Za-z0-9_-]{20,}/g, (v) => name('key', v))
      .replace(/sab_[A-Za-z0-9_-]{1,6}/g, '<key-prefix>')
      .replace(/\b[0-9a-f]{64}\b/g, '<hash>')
      .replace(/\d{4}-\d{2}-\d{2}/g, (d) => (days.includes(d) ? `<day${days.indexOf(d) - 1 || ''}>` : d));
}

describe('recorded answers', () => {
  it('a script through every room of the API answers exactly as recorded', async () => {
    const server = ctx.app.getHttpServer() as App;
    const out: string[] = [];
    const send = async (key: string, method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) => {
      let r = request(server)[method === 'GET' ? 'get' : 'post'](url).set('Authorization', `Bearer ${key}`);
      for (const [h, v] of Object.entries(headers)) r = r.set(h, v);
      const res = body === undefined ? await r : await r.send(body as object);
      out.push(
        `### ${method} ${url}${body === undefined ? '' : ` ${JSON.stringify(body)}`}`,
        `${res.status} ${res.headers['content-type'] ?? ''}`,
        res.text,
        '',
      );
      return res.body as Record<string, any>;
    };

    const property = await send(ADMIN_KEY, 'POST', '/v1/properties', { name: 'Golden Casino', timeZone: 'UTC', gamingDayStartHour: 0 });
    const table = await send(ADMIN_KEY, 'POST', '/v1/tables', {
      code: 'GOLD-1',
      pit: 'Salon Privé',
      variant: 'COMMISSION',
      currency: 'EUR',
      minBet: 1000,
      maxBet: 500000,
      propertyId: property.id,
      tieBetsStay: true,
      sideBets: ['PLAYER_PAIR', 'BANKER_PAIR', 'EITHER_PAIR'],
    });
    const super6 = await send(ADMIN_KEY, 'POST', '/v1/tables', {
      code: 'GOLD-S6',
      variant: 'SUPER_6',
      currency: 'EUR',
      minBet: 1000,
      maxBet: 500000,
      propertyId: property.id,
    });
    const chemmy = await send(ADMIN_KEY, 'POST', '/v1/tables', {
      code: 'GOLD-CF',
      variant: 'CHEMIN_DE_FER',
      decks: 6,
      currency: 'EUR',
      minBet: 1000,
      maxBet: 500000,
      propertyId: property.id,
    });
    const mint = async (by: string, body: Record<string, unknown>) => (await send(by, 'POST', '/v1/api-keys', body)).key as string;
    const terminal = await mint(ADMIN_KEY, { name: 'GOLD-1 terminal', role: 'TERMINAL', tableId: table.id });
    const s6terminal = await mint(ADMIN_KEY, { name: 'GOLD-S6 terminal', role: 'TERMINAL', tableId: super6.id });
    const cfterminal = await mint(ADMIN_KEY, { name: 'GOLD-CF terminal', role: 'TERMINAL', tableId: chemmy.id });
    // The staff register (not recorded: the answers before it stay as they were): the bootstrap key
    // registers the first two administrators alone and mints their keys (then touches no person);
    // everyone else is proposed by E-GA and approved by E-GB.
    const quiet = async (key: string, url: string, body: unknown) => {
      const res = await request(server)
        .post(url)
        .set('Authorization', `Bearer ${key}`)
        .send(body as object);
      if (res.status >= 300) throw new Error(`${url}: ${res.status} ${res.text}`);
      return res.body as Record<string, any>;
    };
    for (const staffId of ['E-GA', 'E-GB']) await quiet(ADMIN_KEY, '/v1/staff', { staffId, name: staffId, roles: ['ADMIN'], reason: 'setup' });
    const adminA = await mint(ADMIN_KEY, { name: 'Admin A', role: 'ADMIN', staffId: 'E-GA' });
    const adminB = await mint(ADMIN_KEY, { name: 'Admin B', role: 'ADMIN', staffId: 'E-GB' });
    for (const [staffId, role] of [
      ['E-G1', 'SUPERVISOR'],
      ['E-G2', 'SUPERVISOR'],
      ['E-G3', 'FINANCE'],
      ['E-G4', 'AUDITOR'],
      ['E-G5', 'HOST'],
    ]) {
      const change = await quiet(adminA, '/v1/staff', { staffId, name: staffId, roles: [role], reason: 'hired' });
      await quiet(adminB, `/v1/staff/changes/${change.id}/approve`, {});
    }
    const supA = await mint(adminA, { name: 'Supervisor A', role: 'SUPERVISOR', staffId: 'E-G1' });
    const supB = await mint(adminB, { name: 'Supervisor B', role: 'SUPERVISOR', staffId: 'E-G2' });
    const finance = await mint(adminA, { name: 'Finance', role: 'FINANCE', staffId: 'E-G3' });
    const auditor = await mint(adminB, { name: 'Auditor', role: 'AUDITOR', staffId: 'E-G4' });
    const host = await mint(adminA, { name: 'Host', role: 'HOST', staffId: 'E-G5' });
    await send(host, 'POST', '/v1/patrons', { card: 'P-1', tier: 'Gold' });

    const shoe = await send(terminal, 'POST', `/v1/tables/${table.id}/shoes`, { burnCards: ['3H', '9C', '4D', 'KS'], cutCardPosition: 16 });
    const wholeCoup = {
      cards: { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] },
      wagers: [
        { seat: 1, betType: 'BANKER', amount: 10000, patronId: 'P-1' },
        { seat: 2, betType: 'PLAYER', amount: 5000 },
        { seat: 3, betType: 'PLAYER_PAIR', amount: 1000 },
      ],
    };
    const coup1: Record<string, any> = await send(terminal, 'POST', `/v1/shoes/${shoe.id}/coups`, wholeCoup, { 'Idempotency-Key': 'gold-1' });
    // The same request again: its stored answer, replayed.
    await send(terminal, 'POST', `/v1/shoes/${shoe.id}/coups`, wholeCoup, { 'Idempotency-Key': 'gold-1' });
    await send(host, 'GET', `/v1/patrons/P-1/rating?from=${coup1.gamingDay}&to=${coup1.gamingDay}`);
    await send(host, 'GET', `/v1/patrons/P-1/visits?from=${coup1.gamingDay}&to=${coup1.gamingDay}`);
    await send(terminal, 'POST', `/v1/shoes/${shoe.id}/coups`, {
      cards: { player: ['7C', 'QD'], banker: ['7D', 'TC'] },
      wagers: [
        { seat: 1, betType: 'BANKER', amount: 4000 },
        { seat: 4, betType: 'TIE', amount: 1000 },
      ],
    });
    const open = await send(terminal, 'POST', `/v1/shoes/${shoe.id}/coups`, { wagers: [{ seat: 5, betType: 'EITHER_PAIR', amount: 1000 }] });
    await send(terminal, 'POST', `/v1/coups/${open.id}/wagers`, { wagers: [{ seat: 2, betType: 'PLAYER', amount: 2500 }] });
    await send(terminal, 'POST', `/v1/coups/${open.id}/cards`, { player: ['9H', '9D'], banker: ['8S', 'AD'] });
    await send(terminal, 'POST', `/v1/shoes/${shoe.id}/coups`, { cards: { player: ['2S', '3D'], banker: ['7S', 'QC'] } });
    await send(terminal, 'POST', `/v1/shoes/${shoe.id}/coups`, {
      cards: { player: ['2S', '4D'], banker: ['7S', 'QC'] },
      wagers: [{ seat: 1, betType: 'BANKER', amount: 999999 }],
    });
    await send(terminal, 'POST', `/v1/shoes/${shoe.id}/coups`, {
      cards: { player: ['2S', '4D'], banker: ['7S', 'QC'] },
      wagers: [{ seat: 1, betType: 'DRAGON_7', amount: 1000 }],
    });
    await send(terminal, 'POST', `/v1/shoes/${shoe.id}/coups`, { wagers: [{ seat: 1, betType: 'BANKER', amount: 1.5 }], extra: true });
    await send(terminal, 'GET', `/v1/shoes/${shoe.id}/commissions`);
    await send(supA, 'POST', `/v1/shoes/${shoe.id}/commissions/collections`, { seat: 1, amount: 300 });
    const asked = await send(supA, 'POST', `/v1/coups/${coup1.id}/void`, { reason: 'Keyed at the wrong table', returnCards: true });
    await send(supA, 'POST', `/v1/void-requests/${asked.voidRequestId}/approve`, {});
    await send(supB, 'POST', `/v1/void-requests/${asked.voidRequestId}/approve`, { note: 'Checked on camera' });
    await send(terminal, 'GET', `/v1/coups/${coup1.id}`);
    await send(terminal, 'GET', `/v1/shoes/${shoe.id}`);

    const s6shoe = await send(s6terminal, 'POST', `/v1/tables/${super6.id}/shoes`, {});
    await send(s6terminal, 'POST', `/v1/shoes/${s6shoe.id}/coups`, {
      cards: { player: ['2C', '3C', 'AC'], banker: ['3H', '3D'] },
      wagers: [{ seat: 1, betType: 'BANKER', amount: 10001 }],
    });

    const cfshoe = await send(cfterminal, 'POST', `/v1/tables/${chemmy.id}/shoes`, {});
    const bank = await send(cfterminal, 'POST', `/v1/shoes/${cfshoe.id}/banks`, { bankerSeat: 1, amount: 10000, rotation: [1, 2, 3, 4] });
    await send(cfterminal, 'POST', `/v1/banks/${bank.id}/coups`, {
      cards: { player: ['2C', '3D'], banker: ['4H', '3S'] },
      stakes: [{ seat: 2, amount: 6000 }],
    });
    await send(cfterminal, 'POST', `/v1/banks/${bank.id}/retire`, {});
    await send(cfterminal, 'POST', `/v1/shoes/${cfshoe.id}/banks`, { bankerSeat: 3, amount: 1000, declined: [2] });
    await send(cfterminal, 'POST', `/v1/shoes/${cfshoe.id}/banks`, { bankerSeat: 3, amount: 20000, declined: [2] });

    // The gaming day the coups were recorded in (not the clock's, which may have moved on).
    const today = coup1.gamingDay as string;
    await send(finance, 'POST', '/v1/odds', { shoe: { decks: 8 } });
    await send(finance, 'GET', `/v1/reports/win-loss?from=${today}&to=${today}&groupBy=variant,betType&propertyId=${property.id}`);
    await send(finance, 'GET', `/v1/reports/win-loss?from=${today}&to=${today}&groupBy=pit&propertyId=${property.id}`, undefined, { Accept: 'text/csv' });
    await send(finance, 'GET', `/v1/reports/table-accounting?from=${today}&to=${today}&propertyId=${property.id}`);
    await send(finance, 'GET', `/v1/reports/reconciliation?from=${today}&to=${today}`);
    await send(auditor, 'GET', `/v1/audit?stream=${table.id}&limit=3`);
    await send(auditor, 'GET', '/v1/audit/verify');

    const normalise = normaliser(today);
    const text = normalise(out.join('\n'));
    if (process.env.GOLDEN === 'record') fs.writeFileSync(FILE, text);
    expect(text).toBe(fs.readFileSync(FILE, 'utf8'));
  });
});
