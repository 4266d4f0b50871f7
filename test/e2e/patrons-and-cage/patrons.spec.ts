import { Client } from 'pg';
import { quantisedEdges, ruleSet, stakeTheoE12, theoreticalWin } from '../../../src/domain';
import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPatrons, givenPit, givenVoid } from '../../support/builders';

/**
 * Patrons (docs/domain.md §10): the register, card in and card out, wagers attributed from the
 * seat, and ratings computed from the ledger, read through the API as a host reads them.
 */
let ctx: TestContext;
let host: string;
let auditor: string;
beforeAll(async () => {
  ctx = await startTestApp();
  host = await givenKey(ctx, 'HOST');
  auditor = await givenKey(ctx, 'AUDITOR');
});
afterAll(() => ctx.close());

const BANKER_7 = { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] };
const PLAYER_9 = { player: ['9S', 'KD'], banker: ['8H', 'KC'] };
const TIE = { player: ['KS', '6D'], banker: ['3H', '2C', 'AS'] };
const EDGES = quantisedEdges(ruleSet({ variant: 'COMMISSION' }));

interface Wager {
  seat: number;
  betType: 'BANKER' | 'PLAYER' | 'TIE';
  amount: number;
  net: number;
  patronId: string | null;
}
interface Seating {
  id: string;
  patronId: string;
  seat: number;
  startedAt: string;
  endedAt: string | null;
}

/** What the ledger says a patron's wagers are worth: theo from the exact edges, the house's win. */
function expected(wagers: Wager[]) {
  return {
    wagers: wagers.length,
    handle: wagers.reduce((s, w) => s + w.amount, 0),
    actualWin: -wagers.reduce((s, w) => s + w.net, 0),
    theoreticalWin: Number(theoreticalWin(wagers.reduce((s, w) => s + stakeTheoE12(BigInt(w.amount), EDGES[w.betType]!), 0n))),
  };
}

async function rating(card: string, day: string) {
  const res = await ctx.as(host).get(`/v1/patrons/${card}/rating?from=${day}&to=${day}`);
  expect(res.status).toBe(200);
  return res.body;
}

async function visits(card: string, day: string, page = '') {
  const res = await ctx.as(host).get(`/v1/patrons/${card}/visits?from=${day}&to=${day}${page}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('rated play at a table', () => {
  it('a gaming day: cards in, a shared seat, two seats, a card out, a void; every figure from the ledger', async () => {
    await givenPatrons(ctx, 'P-A', 'P-B', 'P-C');
    const pit = await givenPit(ctx, { code: 'RATE-1', decks: 8 });
    const t = ctx.as(pit.terminal);
    const seat = async (patronId: string, n: number) => {
      const res = await t.post(`/v1/tables/${pit.table.id}/seatings`, { patronId, seat: n });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ patronId, seat: n, tableId: pit.table.id, endedAt: null });
      return res.body as Seating;
    };
    const aAt1 = await seat('P-A', 1);
    await seat('P-B', 3);
    await seat('P-C', 3);
    const aAt5 = await seat('P-A', 5);

    // A shared seat: whose the wager is cannot be guessed; refused, and the shoe is as it was.
    const shared = await t.post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 3, betType: 'PLAYER', amount: 2000 }] });
    expect([shared.status, shared.body.code]).toEqual([422, 'PATRON_REQUIRED']);
    expect(shared.body.message).toContain('Seat 3 has 2 patrons seated (P-B, P-C)');
    expect((await t.get(`/v1/shoes/${pit.shoe.id}`)).body.coupCount).toBe(0);

    const coup1 = await t.post(`/v1/shoes/${pit.shoe.id}/coups`, {
      cards: BANKER_7,
      wagers: [
        { seat: 1, betType: 'BANKER', amount: 10_000 },
        { seat: 3, betType: 'PLAYER', amount: 2_000, patronId: 'P-C' },
        { seat: 5, betType: 'BANKER', amount: 5_000 },
        { seat: 2, betType: 'BANKER', amount: 1_000 },
      ],
    });
    expect(coup1.status).toBe(201);
    expect((coup1.body.wagers as Wager[]).map((w) => w.patronId)).toEqual(['P-A', 'P-C', 'P-A', null]);
    const coup2 = await t.post(`/v1/shoes/${pit.shoe.id}/coups`, {
      cards: PLAYER_9,
      wagers: [
        { seat: 1, betType: 'BANKER', amount: 10_000 },
        { seat: 1, betType: 'TIE', amount: 1_000 },
        { seat: 3, betType: 'BANKER', amount: 3_000, patronId: 'P-B' },
      ],
    });
    expect((coup2.body.wagers as Wager[]).map((w) => w.patronId)).toEqual(['P-A', 'P-A', 'P-B']);

    const out = await t.post(`/v1/seatings/${aAt1.id}/end`, {});
    expect(out.status).toBe(200);
    expect(out.body.endedAt).not.toBeNull();
    const coup3 = await t.post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 1, betType: 'BANKER', amount: 10_000 }] });
    expect(coup3.body.wagers[0].patronId).toBeNull();

    const day = coup1.body.gamingDay as string;
    const aWagers = [...coup1.body.wagers, ...coup2.body.wagers].filter((w: Wager) => w.patronId === 'P-A') as Wager[];
    const r = await rating('P-A', day);
    expect(r.total).toMatchObject({
      coups: 2,
      ...expected(aWagers),
      averageBet: 13_000,
      comps: Math.floor((expected(aWagers).theoreticalWin * 2000) / 10_000),
    });
    expect(r.total.byBetType).toEqual({
      BANKER: expected(aWagers.filter((w) => w.betType === 'BANKER')),
      TIE: expected(aWagers.filter((w) => w.betType === 'TIE')),
    });
    expect(r.days).toMatchObject([{ gamingDay: day, coups: 2 }]);
    // Two visits: seat 1 (two coups, card out) and seat 5 (one coup, card still in), a page at a time.
    expect(r.visitCount).toBe(2);
    const v = await visits('P-A', day);
    expect(v.visits.map((x: { seating: Seating; coups: number; handle: number }) => [x.seating.seat, x.coups, x.handle])).toEqual([
      [1, 2, 21_000],
      [5, 1, 5_000],
    ]);
    expect(v.next).toBeNull();
    const ended = out.body as Seating;
    expect(v.visits[0].secondsPlayed).toBe(Math.floor((Date.parse(ended.endedAt!) - Date.parse(ended.startedAt)) / 1000));
    expect(v.visits[1].seating).toMatchObject({ id: aAt5.id, endedAt: null });
    // A visit's figures add up with the other's to the day's (P-A played on no other visit).
    expect(v.visits[0].handle + v.visits[1].handle).toBe(r.total.handle);
    expect(v.visits[0].theoreticalWin + v.visits[1].theoreticalWin - r.total.theoreticalWin).toBeGreaterThanOrEqual(-1);
    const first = await visits('P-A', day, '&limit=1');
    expect([first.visits.map((x: { seating: Seating }) => x.seating.seat), first.next]).toEqual([[1], v.visits[0].seating.id]);
    const second = await visits('P-A', day, `&limit=1&after=${first.next}`);
    expect([second.visits.map((x: { seating: Seating }) => x.seating.seat), second.next]).toEqual([[5], null]);

    const c = await rating('P-C', day);
    expect(c.total).toMatchObject({ coups: 1, ...expected(coup1.body.wagers.filter((w: Wager) => w.patronId === 'P-C')) });

    // A void after the rating was read: the figures move.
    const supervisor2 = await givenKey(ctx, 'SUPERVISOR');
    await givenVoid(ctx, 'coups', coup2.body.id, 'Cards recorded for the wrong coup', pit.supervisor, supervisor2);
    const afterVoid = await rating('P-A', day);
    expect(afterVoid.total).toMatchObject({ coups: 1, ...expected(coup1.body.wagers.filter((w: Wager) => w.patronId === 'P-A')) });

    // The patron rollups the ratings read are the rated wagers summed again, coup by coup.
    const reconciled = await ctx.as(auditor).get(`/v1/reports/reconciliation?from=${day}&to=${day}`);
    expect(reconciled.body).toMatchObject({ ok: true, differences: [] });
    const owner = new Client({ connectionString: ctx.databaseUrl });
    await owner.connect();
    try {
      await owner.query(`UPDATE patron_rollups SET handle = handle + 1 WHERE patron_id = 'P-C'`);
    } finally {
      await owner.end();
    }
    const tampered = (await ctx.as(auditor).get(`/v1/reports/reconciliation?from=${day}&to=${day}`)).body;
    expect(tampered.ok).toBe(false);
    expect(tampered.differences).toEqual([
      expect.objectContaining({ field: 'byPatronVisitAndBet.handle', patronId: 'P-C', betType: 'PLAYER', rollup: '2001', raw: '2000' }),
    ]);

    // Every read is in the audit chain, with the range read.
    const reads = (await ctx.as(auditor).get('/v1/audit?stream=patrons&action=patron.read&entityId=P-A')).body as {
      entityId: string;
      entry: { data: Record<string, unknown> };
    }[];
    expect(reads.map((e) => e.entry.data)).toEqual([
      { read: 'rating', from: day, to: day, propertyId: null },
      { read: 'visits', from: day, to: day, propertyId: null, after: null },
      { read: 'visits', from: day, to: day, propertyId: null, after: null },
      { read: 'visits', from: day, to: day, propertyId: null, after: v.visits[0].seating.id },
      { read: 'rating', from: day, to: day, propertyId: null },
    ]);
  });

  it('betting first, cards later, and a tie bet carried: the patron and the visit go with the wager', async () => {
    await givenPatrons(ctx, 'P-D');
    const pit = await givenPit(ctx, { code: 'RATE-2', tieBetsStay: true });
    const t = ctx.as(pit.terminal);
    const visit = (await t.post(`/v1/tables/${pit.table.id}/seatings`, { patronId: 'P-D', seat: 4 })).body as Seating;
    const open = await t.post(`/v1/shoes/${pit.shoe.id}/coups`, { wagers: [{ seat: 4, betType: 'BANKER', amount: 2_000 }] });
    expect(open.status).toBe(201);
    const added = await t.post(`/v1/coups/${open.body.id}/wagers`, { wagers: [{ seat: 4, betType: 'PLAYER', amount: 1_000 }] });
    expect((added.body.wagers as Wager[]).map((w) => w.patronId)).toEqual(['P-D', 'P-D']);
    const tie = await t.post(`/v1/coups/${open.body.id}/cards`, TIE);
    expect(tie.status).toBe(200);
    expect(tie.body.carriedForward.map((w: Wager) => w.patronId)).toEqual(['P-D', 'P-D']);
    // The card comes out before the carried bets are decided: they stay the patron's, in that visit.
    await t.post(`/v1/seatings/${visit.id}/end`, {});
    const next = await t.post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_7 });
    expect((next.body.wagers as Wager[]).map((w) => w.patronId)).toEqual(['P-D', 'P-D']);
    const r = await rating('P-D', tie.body.gamingDay);
    const v = await visits('P-D', tie.body.gamingDay);
    expect(v.visits).toHaveLength(1);
    expect(v.visits[0]).toMatchObject({ coups: 2, wagers: 4, handle: 6_000 });
    expect(r.total).toMatchObject(expected([...tie.body.wagers, ...next.body.wagers]));
  });
});

describe('refusals: a clear 4xx, nothing written', () => {
  it('unknown cards, overlapping seatings, a second table, a closed table, a card out twice, bad input, another table’s terminal', async () => {
    await givenPatrons(ctx, 'P-R1', 'P-R2');
    const pit = await givenPit(ctx, { code: 'RATE-R1' });
    const other = await givenPit(ctx, { code: 'RATE-R2' });
    const t = ctx.as(pit.terminal);
    const path = `/v1/tables/${pit.table.id}/seatings`;
    const first = await t.post(path, { patronId: 'P-R1', seat: 2 });
    expect(first.status).toBe(201);

    const refusals: [unknown, number, string][] = [
      [{ patronId: 'P-NOBODY', seat: 1 }, 422, 'UNKNOWN_PATRON'],
      [{ patronId: 'P-R1', seat: 2 }, 409, 'ALREADY_SEATED'],
      [{ patronId: 'P-R2', seat: 0 }, 400, 'VALIDATION_FAILED'],
      [{ patronId: 'P-R2', seat: 21 }, 400, 'VALIDATION_FAILED'],
      [{ patronId: 'P-R2', seat: 1.5 }, 400, 'VALIDATION_FAILED'],
      [{ patronId: '', seat: 1 }, 400, 'VALIDATION_FAILED'],
      [{ patronId: 'x'.repeat(65), seat: 1 }, 400, 'VALIDATION_FAILED'],
      [{ patronId: 'P R2; DROP TABLE', seat: 1 }, 400, 'VALIDATION_FAILED'],
      [{ patronId: 'P-R2', seat: 1, since: '2026-01-01' }, 400, 'VALIDATION_FAILED'],
      [{ seat: 1 }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [body, status, code] of refusals) {
      const res = await t.post(path, body);
      expect([res.status, res.body.code]).toEqual([status, code]);
    }
    const elsewhere = await ctx.as(other.terminal).post(`/v1/tables/${other.table.id}/seatings`, { patronId: 'P-R1', seat: 1 });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([409, 'PATRON_SEATED_ELSEWHERE']);
    expect(elsewhere.body.message).toContain('RATE-R1, seat 2');
    const theirs = await ctx.as(other.terminal).post(path, { patronId: 'P-R2', seat: 1 });
    expect([theirs.status, theirs.body.code]).toEqual([403, 'FORBIDDEN']);
    const theirEnd = await ctx.as(other.terminal).post(`/v1/seatings/${first.body.id}/end`, {});
    expect([theirEnd.status, theirEnd.body.code]).toEqual([403, 'FORBIDDEN']);
    const noTable = await ctx.as(pit.supervisor).post('/v1/tables/00000000-0000-4000-8000-000000000000/seatings', { patronId: 'P-R2', seat: 1 });
    expect([noTable.status, noTable.body.code]).toEqual([404, 'NOT_FOUND']);
    const noSeating = await t.post('/v1/seatings/00000000-0000-4000-8000-000000000000/end', {});
    expect([noSeating.status, noSeating.body.code]).toEqual([404, 'NOT_FOUND']);

    // A wager naming an unknown card: refused before anything is written.
    const unknown = await t.post(`/v1/shoes/${pit.shoe.id}/coups`, {
      cards: BANKER_7,
      wagers: [{ seat: 1, betType: 'BANKER', amount: 1_000, patronId: 'P-GHOST' }],
    });
    expect([unknown.status, unknown.body.code]).toEqual([422, 'UNKNOWN_PATRON']);
    expect((await t.get(`/v1/shoes/${pit.shoe.id}`)).body.coupCount).toBe(0);
    const betting = await t.post(`/v1/shoes/${pit.shoe.id}/coups`, { wagers: [{ seat: 1, betType: 'BANKER', amount: 1_000, patronId: 'P-GHOST' }] });
    expect([betting.status, betting.body.code]).toEqual([422, 'UNKNOWN_PATRON']);
    expect((await t.get(`/v1/shoes/${pit.shoe.id}`)).body).toMatchObject({ coupCount: 0, openCoupId: null });

    expect((await t.post(`/v1/seatings/${first.body.id}/end`, {})).status).toBe(200);
    const twice = await t.post(`/v1/seatings/${first.body.id}/end`, {});
    expect([twice.status, twice.body.code]).toEqual([409, 'SEATING_ENDED']);

    await t.post(`/v1/shoes/${pit.shoe.id}/close`, {});
    expect((await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/close`, {})).status).toBe(200);
    const closed = await ctx.as(pit.supervisor).post(path, { patronId: 'P-R2', seat: 1 });
    expect([closed.status, closed.body.code]).toEqual([409, 'TABLE_CLOSED']);

    // Only the one seating was ever written.
    const day = first.body.gamingDay as string;
    expect(((await t.get(`${path}?gamingDay=${day}`)).body as Seating[]).map((s) => [s.patronId, s.seat])).toEqual([['P-R1', 2]]);
    expect((await t.get(path)).body).toEqual([]);
  });

  it('the register and the reads: a card once, who may read, bad cards and ranges', async () => {
    const h = ctx.as(host);
    const made = await h.post('/v1/patrons', { card: 'P-REG', name: 'A. Martin', tier: 'Gold' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ card: 'P-REG', name: 'A. Martin', tier: 'Gold', seated: [] });
    const again = await h.post('/v1/patrons', { card: 'P-REG' });
    expect([again.status, again.body.code]).toEqual([409, 'CONFLICT']);
    for (const body of [{}, { card: '' }, { card: 'a b' }, { card: 'x'.repeat(65) }, { card: 'P-X', email: 'a@b.c' }, { card: 7 }]) {
      const res = await h.post('/v1/patrons', body);
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect((await h.get('/v1/patrons/P-REG')).body).toMatchObject({ card: 'P-REG', tier: 'Gold' });
    expect((await h.get('/v1/patrons/P-NONE')).status).toBe(404);
    const badCard = await h.get(`/v1/patrons/${encodeURIComponent('P REG')}`);
    expect([badCard.status, badCard.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const badRange = await h.get('/v1/patrons/P-REG/rating?from=2026-11-30&to=2026-11-01');
    expect([badRange.status, badRange.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const noDates = await h.get('/v1/patrons/P-REG/rating');
    expect([noDates.status, noDates.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    for (const page of [
      'limit=0',
      'limit=501',
      'limit=1.5',
      'after=not-a-uuid',
      // A visit of nobody, or of another patron: not a place to page from.
      'after=00000000-0000-4000-8000-000000000000',
    ]) {
      const res = await h.get(`/v1/patrons/P-REG/visits?from=2026-11-01&to=2026-11-30&${page}`);
      expect([page, res.status, res.body.code]).toEqual([page, 400, 'VALIDATION_FAILED']);
    }
    expect((await h.get('/v1/patrons/P-NONE/visits?from=2026-11-01&to=2026-11-30')).status).toBe(404);

    const pit = await givenPit(ctx, { code: 'RATE-R3' });
    for (const key of [pit.terminal, await givenKey(ctx, 'FINANCE'), await givenKey(ctx, 'SURVEILLANCE')]) {
      const res = await ctx.as(key).get('/v1/patrons/P-REG/rating?from=2026-11-01&to=2026-11-30');
      expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
    }
    const terminalRegisters = await ctx.as(pit.terminal).post('/v1/patrons', { card: 'P-T' });
    expect([terminalRegisters.status, terminalRegisters.body.code]).toEqual([403, 'FORBIDDEN']);
    for (const role of ['COMPLIANCE', 'AUDITOR', 'SUPERVISOR']) {
      expect((await ctx.as(await givenKey(ctx, role)).get('/v1/patrons/P-REG/rating?from=2026-11-01&to=2026-11-30')).status).toBe(200);
    }
    // A refused read is not a read: only the reads answered are in the audit chain.
    const reads = (await ctx.as(auditor).get('/v1/audit?stream=patrons&action=patron.read&entityId=P-REG')).body as { entityId: string }[];
    expect(reads.map((e) => e.entityId)).toEqual(['P-REG', 'P-REG', 'P-REG', 'P-REG']);
  });
});

describe('looking a card up', () => {
  it('answers the patron in a list of one (an audited read), or an empty list for a card nobody holds; a bad card is 400, a cashier 403', async () => {
    await givenPatrons(ctx, 'P-LOOK');
    const found = (await ctx.as(host).get('/v1/patrons?card=P-LOOK').expect(200)).body as { card: string }[];
    expect(found).toEqual([(await ctx.as(host).get('/v1/patrons/P-LOOK').expect(200)).body]);
    expect((await ctx.as(host).get('/v1/patrons?card=P-NOBODY-HOLDS').expect(200)).body).toEqual([]);
    const reads = async (card: string) =>
      ((await ctx.as(auditor).get(`/v1/audit?stream=patrons&action=patron.read&entityId=${card}`)).body as unknown[]).length;
    expect([await reads('P-LOOK'), await reads('P-NOBODY-HOLDS')]).toEqual([2, 0]);
    for (const bad of ['', 'a b', '<x>', 'x'.repeat(200)])
      expect([bad, (await ctx.as(host).get(`/v1/patrons?card=${encodeURIComponent(bad)}`)).body.code]).toEqual([bad, 'VALIDATION_FAILED']);
    expect((await ctx.as(await givenKey(ctx, 'CASHIER')).get('/v1/patrons?card=P-LOOK')).body.code).toBe('FORBIDDEN');
  });
});

describe('a table closing', () => {
  it("takes the cards still in out with it: each seating ends, in the table's audit stream", async () => {
    await givenPatrons(ctx, 'P-CL1', 'P-CL2');
    const pit = await givenPit(ctx, { code: 'RATE-CL' });
    const t = ctx.as(pit.terminal);
    const one = (await t.post(`/v1/tables/${pit.table.id}/seatings`, { patronId: 'P-CL1', seat: 1 })).body as Seating;
    const two = (await t.post(`/v1/tables/${pit.table.id}/seatings`, { patronId: 'P-CL2', seat: 2 })).body as Seating;
    await t.post(`/v1/seatings/${two.id}/end`, {});
    await t.post(`/v1/shoes/${pit.shoe.id}/close`, {});
    expect((await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/close`, {})).status).toBe(200);
    expect((await t.get(`/v1/tables/${pit.table.id}/seatings`)).body).toEqual([]);
    const ends = (await ctx.as(auditor).get(`/v1/audit?stream=${pit.table.id}&action=seating.end`)).body as {
      entityId: string;
      entry: { data: Record<string, unknown> };
    }[];
    expect(ends.map((e) => [e.entityId, e.entry.data.tableClosed ?? false])).toEqual([
      [two.id, false],
      [one.id, true],
    ]);
    // The patron may sit down at another table now.
    const other = await givenPit(ctx, { code: 'RATE-CL2' });
    expect((await ctx.as(other.terminal).post(`/v1/tables/${other.table.id}/seatings`, { patronId: 'P-CL1', seat: 1 })).status).toBe(201);
  });
});

describe('the top patrons by theoretical win', () => {
  it('ranks by exact theo, with each one’s rated play and band, as JSON and as CSV; the read is audited', async () => {
    await givenPatrons(ctx, 'P-TOP1', 'P-TOP2', 'P-TOP3');
    const property = (await ctx.admin.post('/v1/properties', { name: 'Casino Top', timeZone: 'UTC', gamingDayStartHour: 6, compShareBps: 3000 })).body;
    const pit = await givenPit(ctx, { code: 'RATE-TOP', propertyId: property.id });
    const t = ctx.as(pit.terminal);
    await t.post(`/v1/tables/${pit.table.id}/seatings`, { patronId: 'P-TOP1', seat: 1 });
    await t.post(`/v1/tables/${pit.table.id}/seatings`, { patronId: 'P-TOP2', seat: 2 });
    const coups: { body: { gamingDay: string; wagers: Wager[] } }[] = [];
    for (const cards of [BANKER_7, PLAYER_9, BANKER_7])
      coups.push(
        await t.post(`/v1/shoes/${pit.shoe.id}/coups`, {
          cards,
          wagers: [
            { seat: 1, betType: 'BANKER', amount: 5_000 },
            { seat: 2, betType: 'BANKER', amount: 20_000 },
            { seat: 2, betType: 'TIE', amount: 1_000 },
            { seat: 3, betType: 'PLAYER', amount: 2_000, patronId: 'P-TOP3' },
          ],
        }),
      );
    const day = coups[0].body.gamingDay;
    const mine = (card: string) => coups.flatMap((c) => c.body.wagers).filter((w) => w.patronId === card);
    const res = await ctx.as(host).get(`/v1/reports/top-patrons?from=${day}&to=${day}&propertyId=${property.id}&limit=2`);
    expect(res.status).toBe(200);
    // P-TOP2: 600.00 on Banker and 30.00 on Tie; P-TOP1: 150.00 on Banker; P-TOP3 (60.00 on Player) is third and left out.
    expect(res.body.map((r: { rank: number; card: string }) => [r.rank, r.card])).toEqual([
      [1, 'P-TOP2'],
      [2, 'P-TOP1'],
    ]);
    expect(res.body[0]).toMatchObject({ coups: 3, ...expected(mine('P-TOP2')), comps: Math.floor((expected(mine('P-TOP2')).theoreticalWin * 3000) / 10_000) });
    expect(res.body[0].theoStdDev).toBeGreaterThan(0);
    const csv = await ctx.as(host).get(`/v1/reports/top-patrons?from=${day}&to=${day}&propertyId=${property.id}&limit=2`).set('Accept', 'text/csv');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const [header, first] = csv.text.trim().split('\n');
    expect(header.split(',').slice(0, 8)).toEqual(['rank', 'card', 'name', 'tier', 'coups', 'wagers', 'handle', 'averageBet']);
    expect(first.split(',').slice(0, 7)).toEqual(['1', 'P-TOP2', '', '', '3', '6', String(expected(mine('P-TOP2')).handle)]);
    const refused = await ctx.as(host).get(`/v1/reports/top-patrons?from=${day}&to=${day}&limit=501`);
    expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await ctx.as(pit.terminal).get(`/v1/reports/top-patrons?from=${day}&to=${day}`)).status).toBe(403);
    const reads = (await ctx.as(auditor).get('/v1/audit?stream=patrons&action=patron.read&entityId=top-patrons')).body as {
      entry: { data: { cards: string[] } };
    }[];
    expect(reads.map((e) => e.entry.data.cards)).toEqual([
      ['P-TOP1', 'P-TOP2'],
      ['P-TOP1', 'P-TOP2'],
    ]);
  });
});
