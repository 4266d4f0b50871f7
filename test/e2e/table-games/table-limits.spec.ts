import { Client } from 'pg';
import { startTestApp, TestContext, databaseSnapshot } from '../../support/app';
import { givenKey, givenPit, givenTable, givenVoid } from '../../support/builders';
import { gamingDayOf } from '../../../src/domain';

/**
 * Table limits over time (docs/domain.md §6, "Limits over time"): a change is a record, never an
 * edit; every wager is checked against the limits in force when it is placed; a change takes effect
 * from the next coup and never while one takes bets; the figures by limit level count each coup at
 * the level its wagers were placed under; and the records are under the audit's seals.
 */
let ctx: TestContext;
let finance: string;
let auditor: string;
beforeAll(async () => {
  ctx = await startTestApp();
  finance = await givenKey(ctx, 'FINANCE');
  auditor = await givenKey(ctx, 'AUDITOR');
});
afterAll(() => ctx?.close());

// Banker natural 9 against Player 0: Banker wins.
const BANKER_WINS = { player: ['KS', 'QH'], banker: ['9S', 'KD'] };
// Player natural 8 against Banker 0: Player wins.
const PLAYER_WINS = { player: ['8S', 'KH'], banker: ['QS', 'JD'] };

const today = () => gamingDayOf(new Date(), 'UTC', 6); // the default property: UTC, 06:00

describe('a limit change mid-shift, with wagers on both sides of it', () => {
  let pit: Awaited<ReturnType<typeof givenPit>>;
  let firstChange: { changeId: string; effectiveAt: string };
  beforeAll(async () => {
    // 1.00 to 100.00, on a table of its own property's clock (UTC, the default property).
    pit = await givenPit(ctx, { minBet: 100, maxBet: 10_000 });
  });

  it('before the change: the opening limits hold (1.00–100.00)', async () => {
    const coup = await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, {
        cards: BANKER_WINS,
        wagers: [
          { seat: 1, betType: 'BANKER', amount: 100 },
          { seat: 2, betType: 'PLAYER', amount: 5_000 },
        ],
      })
      .expect(201);
    expect(coup.body.wagers.map((w: { net: number }) => w.net)).toEqual([95, -5_000]);
  });

  it('the supervisor raises the minimum to 5.00 and the maximum to 200.00, with the reason', async () => {
    const res = await ctx
      .as(pit.supervisor)
      .post(`/v1/tables/${pit.table.id}/limits`, { minBet: 500, maxBet: 20_000, reason: 'Evening crowd: minimum raised' })
      .expect(201);
    expect(res.body.inForce).toMatchObject({ seq: 1, minBet: 500, maxBet: 20_000, reason: 'Evening crowd: minimum raised' });
    expect(res.body.history.map((h: { seq: number; minBet: number }) => [h.seq, h.minBet])).toEqual([
      [0, 100],
      [1, 500],
    ]);
    firstChange = res.body.inForce;
    const table = await ctx.as(pit.terminal).get(`/v1/tables/${pit.table.id}`).expect(200);
    expect(table.body).toMatchObject({ minBet: 500, maxBet: 20_000, limitsSince: firstChange.effectiveAt });
  });

  it('after it: a 1.00 bet is refused with the new minimum named, and nothing is written', async () => {
    const before = await databaseSnapshot(ctx.prisma);
    const res = await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: PLAYER_WINS, wagers: [{ seat: 1, betType: 'BANKER', amount: 100 }] })
      .expect(422);
    expect(res.body.code).toBe('BET_LIMIT');
    expect(res.body.message).toContain('between 500 and 20000');
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
  });

  it('after it: bets within the new limits (one above the old maximum) are taken', async () => {
    await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, {
        cards: PLAYER_WINS,
        wagers: [
          { seat: 1, betType: 'BANKER', amount: 500 },
          { seat: 2, betType: 'PLAYER', amount: 15_000 },
          { seat: 3, betType: 'PLAYER', amount: 1_000 },
        ],
      })
      .expect(201);
  });

  it('a change while a coup takes bets is refused (its bets were placed under the limits before), and nothing is written', async () => {
    const open = await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, { wagers: [{ seat: 1, betType: 'PLAYER', amount: 600 }] })
      .expect(201);
    const before = await databaseSnapshot(ctx.prisma);
    const res = await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/limits`, { minBet: 1_000, maxBet: 20_000, reason: 'too early' }).expect(409);
    expect(res.body.code).toBe('COUP_IN_PROGRESS');
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
    // The coup taking bets is dealt under the limits it opened with, then voided: it counts nowhere.
    const dealt = await ctx.as(pit.terminal).post(`/v1/coups/${open.body.id}/cards`, BANKER_WINS).expect(200);
    const voider = await givenKey(ctx, 'SUPERVISOR');
    await givenVoid(ctx, 'coups', dealt.body.id, 'Dealt to the wrong table', pit.supervisor, voider);
  });

  it('the history reads oldest first, the opening limits included', async () => {
    const res = await ctx.as(pit.terminal).get(`/v1/tables/${pit.table.id}/limits`).expect(200);
    expect(res.body.history.map((h: { minBet: number; maxBet: number; reason: string }) => [h.minBet, h.maxBet, h.reason])).toEqual([
      [100, 10_000, 'opening limits'],
      [500, 20_000, 'Evening crowd: minimum raised'],
    ]);
    expect(res.body.history[1].changedByKeyId).toEqual(expect.any(String));
  });

  it('the figures by limit level count each coup at the level its wagers were placed under', async () => {
    const res = await ctx.as(finance).get(`/v1/reports/limit-levels?from=${today()}&to=${today()}`).expect(200);
    const mine = res.body.filter((r: { minBet: number }) => r.minBet === 100 || r.minBet === 500);
    // 1.00: Banker 1.00 wins (+0.95), Player 50.00 loses: win 49.05 on 51.00. 5.00: Banker 5.00 loses,
    // Player 150.00 and 10.00 win: win −155.00 on 165.00. The voided coup at 5.00 counts nowhere.
    expect(mine).toEqual([
      expect.objectContaining({
        currency: 'EUR',
        minBet: 100,
        tables: 1,
        tableDays: 1,
        coups: 1,
        playerDecisions: 2,
        occupancy: '2.00',
        handle: 5_100,
        win: 4_905,
        holdPercent: '96.1765',
        commissionCharged: 5,
        averageBet: 2_550,
      }),
      expect.objectContaining({
        currency: 'EUR',
        minBet: 500,
        tables: 1,
        tableDays: 1,
        coups: 1,
        playerDecisions: 3,
        occupancy: '3.00',
        handle: 16_500,
        win: -15_500,
        holdPercent: '-93.9394',
        commissionCharged: 0,
        averageBet: 5_500,
      }),
    ]);
    const csv = await ctx.as(finance).get(`/v1/reports/limit-levels.csv?from=${today()}&to=${today()}`).expect(200);
    expect(csv.text.split('\n')[0]).toContain('minBet');
  });

  it('the reconciliation rebuilds the limit rollups from the coups and finds them equal', async () => {
    const res = await ctx.as(finance).get(`/v1/reports/reconciliation?from=${today()}&to=${today()}`).expect(200);
    expect(res.body.differences).toEqual([]);
  });

  it('the audit verifies, the change sealed by its entry', async () => {
    expect((await ctx.as(auditor).get('/v1/audit/verify')).body).toMatchObject({ ok: true });
  });
});

describe('the next coup computed from memory', () => {
  it('is never written over a change: a bet the new limits refuse is refused, one they allow is taken', async () => {
    const pit = await givenPit(ctx, { minBet: 100, maxBet: 10_000 });
    const coup = (amount: number, cards = BANKER_WINS) =>
      ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards, wagers: [{ seat: 1, betType: 'PLAYER', amount }] });
    expect((await coup(100)).status).toBe(201); // the instance now remembers the shoe
    await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/limits`, { minBet: 200, maxBet: 10_000, reason: 'raise' }).expect(201);
    expect((await coup(150)).body.code).toBe('BET_LIMIT');
    expect((await coup(200)).status).toBe(201);
    await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/limits`, { minBet: 100, maxBet: 50_000, reason: 'lower again' }).expect(201);
    expect((await coup(40_000, PLAYER_WINS)).status).toBe(201);
    const shoe = await ctx.prisma.shoe.findUniqueOrThrow({ where: { id: pit.shoe.id } });
    expect(shoe.coupCount).toBe(3);
  });

  it('a shoe opened after a change starts under it', async () => {
    const pit = await givenPit(ctx, { minBet: 100, maxBet: 10_000 });
    await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/close`, {}).expect(200);
    await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/limits`, { minBet: 300, maxBet: 10_000, reason: 'new shoe, new limits' }).expect(201);
    const shoe = (await ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/shoes`, {}).expect(201)).body;
    const res = await ctx.as(pit.terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_WINS, wagers: [{ seat: 1, betType: 'PLAYER', amount: 200 }] });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('BET_LIMIT');
  });
});

describe('the figures by limit level, counted once', () => {
  it('a table-day kept at one minimum by several changes counts once there; a level whose coups were all voided counts nowhere', async () => {
    const pit = await givenPit(ctx, { currency: 'CHF', minBet: 7_700, maxBet: 100_000 });
    const coup = (amount = 7_700) =>
      ctx
        .as(pit.terminal)
        .post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_WINS, wagers: [{ seat: 1, betType: 'PLAYER', amount }] })
        .expect(201);
    await coup();
    for (const maxBet of [200_000, 300_000]) {
      await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/limits`, { minBet: 7_700, maxBet, reason: 'maximum raised' }).expect(201);
      await coup();
    }
    await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/limits`, { minBet: 9_900, maxBet: 300_000, reason: 'minimum raised' }).expect(201);
    const voided = await coup(9_900);
    await givenVoid(ctx, 'coups', voided.body.id, 'Keyed at the wrong table', pit.supervisor, await givenKey(ctx, 'SUPERVISOR'));
    const res = await ctx.as(finance).get(`/v1/reports/limit-levels?from=${today()}&to=${today()}`).expect(200);
    const chf = res.body.filter((r: { currency: string }) => r.currency === 'CHF');
    expect(chf.map((r: { minBet: number; tables: number; tableDays: number; coups: number }) => [r.minBet, r.tables, r.tableDays, r.coups])).toEqual([
      [7_700, 1, 1, 3],
    ]);
  });
});

describe('what a change may not be', () => {
  let table: { id: string };
  let supervisor: string;
  beforeAll(async () => {
    table = await givenTable(ctx, { minBet: 100, maxBet: 10_000 });
    supervisor = await givenKey(ctx, 'SUPERVISOR');
  });

  it.each([
    ['a maximum below the minimum', { minBet: 500, maxBet: 400, reason: 'typo' }, 400, 'VALIDATION_FAILED'],
    ['a minimum of nothing', { minBet: 0, maxBet: 400, reason: 'typo' }, 400, 'VALIDATION_FAILED'],
    ['a fraction of a minor unit', { minBet: 1.5, maxBet: 400, reason: 'typo' }, 400, 'VALIDATION_FAILED'],
    ['an amount as text', { minBet: '100', maxBet: 400, reason: 'typo' }, 400, 'VALIDATION_FAILED'],
    ['no reason', { minBet: 100, maxBet: 400 }, 400, 'VALIDATION_FAILED'],
    [
      'a limit for a bet the table does not offer',
      { minBet: 100, maxBet: 400, reason: 'x y z', betLimits: [{ betType: 'DRAGON_7', min: 100, max: 200 }] },
      422,
      'INVALID_RULES',
    ],
    [
      'the same bet limited twice',
      {
        minBet: 100,
        maxBet: 400,
        reason: 'x y z',
        betLimits: [
          { betType: 'TIE', min: 100, max: 200 },
          { betType: 'TIE', min: 100, max: 300 },
        ],
      },
      400,
      'VALIDATION_FAILED',
    ],
    [
      'a bet limit with its maximum below its minimum',
      { minBet: 100, maxBet: 400, reason: 'x y z', betLimits: [{ betType: 'TIE', min: 300, max: 200 }] },
      400,
      'VALIDATION_FAILED',
    ],
  ])('%s: refused, nothing written', async (_what, body, status, code) => {
    const before = await databaseSnapshot(ctx.prisma);
    const res = await ctx.as(supervisor).post(`/v1/tables/${table.id}/limits`, body);
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
  });

  it('a terminal may read its table’s limits but not change them; another table’s, neither', async () => {
    const terminal = await givenKey(ctx, 'TERMINAL', table.id);
    const other = await givenTable(ctx);
    expect((await ctx.as(terminal).post(`/v1/tables/${table.id}/limits`, { minBet: 100, maxBet: 400, reason: 'mine' })).status).toBe(403);
    expect((await ctx.as(terminal).get(`/v1/tables/${table.id}/limits`)).status).toBe(200);
    expect((await ctx.as(terminal).get(`/v1/tables/${other.id}/limits`)).status).toBe(403);
  });

  it('a reason of nothing visible: refused', async () => {
    for (const reason of ['   ', '\u200b\u200b\u200b', '\u202e\u200f\u2060']) {
      const res = await ctx.as(supervisor).post(`/v1/tables/${table.id}/limits`, { minBet: 100, maxBet: 400, reason });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
  });

  it('tie bets waiting on the layout for the next coup: refused until that coup is dealt', async () => {
    const pit = await givenPit(ctx, { minBet: 100, maxBet: 10_000, tieBetsStay: true });
    const tie = { player: ['9H', 'KC'], banker: ['9C', 'QD'] };
    await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: tie, wagers: [{ seat: 1, betType: 'BANKER', amount: 200 }] })
      .expect(201);
    const refused = await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/limits`, { minBet: 500, maxBet: 10_000, reason: 'raise' });
    expect([refused.status, refused.body.code]).toEqual([409, 'COUP_IN_PROGRESS']);
    await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_WINS, wagers: [] }).expect(201);
    await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/limits`, { minBet: 500, maxBet: 10_000, reason: 'raise' }).expect(201);
  });

  it('a change that leaves out the bets’ own limits keeps them; an empty list clears them', async () => {
    const t = await givenTable(ctx, { minBet: 1_000, maxBet: 100_000, betLimits: [{ betType: 'TIE', min: 500, max: 5_000 }] });
    const tieOf = (body: { inForce: { bets: { betType: string; min: number; max: number }[] } }) => body.inForce.bets.find((b) => b.betType === 'TIE');
    const kept = await ctx.as(supervisor).post(`/v1/tables/${t.id}/limits`, { minBet: 5_000, maxBet: 100_000, reason: 'minimum raised' }).expect(201);
    expect(tieOf(kept.body)).toMatchObject({ min: 500, max: 5_000 });
    const cleared = await ctx
      .as(supervisor)
      .post(`/v1/tables/${t.id}/limits`, { minBet: 5_000, maxBet: 100_000, betLimits: [], reason: 'tie limit lifted' })
      .expect(201);
    expect(tieOf(cleared.body)).toMatchObject({ min: 5_000, max: 100_000 });
  });

  it('an unknown table: 404', async () => {
    const res = await ctx.as(supervisor).post('/v1/tables/00000000-0000-4000-8000-00000000abcd/limits', { minBet: 100, maxBet: 400, reason: 'ghost' });
    expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('a per-bet limit set at a change holds for that bet alone', async () => {
    const pit = await givenPit(ctx, { minBet: 100, maxBet: 10_000 });
    await ctx
      .as(pit.supervisor)
      .post(`/v1/tables/${pit.table.id}/limits`, { minBet: 100, maxBet: 10_000, reason: 'tie capped', betLimits: [{ betType: 'TIE', min: 100, max: 1_000 }] })
      .expect(201);
    const tie = await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_WINS, wagers: [{ seat: 1, betType: 'TIE', amount: 2_000 }] });
    expect([tie.status, tie.body.code]).toEqual([422, 'BET_LIMIT']);
    const player = await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_WINS, wagers: [{ seat: 1, betType: 'PLAYER', amount: 2_000 }] });
    expect(player.status).toBe(201);
  });
});

describe('the superuser', () => {
  let su: Client;
  let pit: Awaited<ReturnType<typeof givenPit>>;
  beforeEach(async () => {
    pit = await givenPit(ctx, { minBet: 100, maxBet: 10_000 });
    await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/limits`, { minBet: 500, maxBet: 10_000, reason: 'raise' }).expect(201);
    await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_WINS, wagers: [{ seat: 1, betType: 'PLAYER', amount: 600 }] })
      .expect(201);
    su = new Client({ connectionString: ctx.databaseUrl });
    await su.connect();
    await su.query('SET session_replication_role = replica');
  });
  afterEach(async () => {
    await su.query('RESET session_replication_role');
    await su.end();
  });

  const expectFinding = async (text: string) => {
    const res = await ctx.as(auditor).get('/v1/audit/verify').expect(200);
    expect(res.body.ok).toBe(false);
    expect(res.body.problems.map((p: { reason: string }) => p.reason).join('\n')).toContain(text);
  };

  it('lowers a change’s minimum behind the triggers: its seal no longer matches', async () => {
    await su.query('UPDATE table_limits SET min_bet = 100 WHERE table_id = $1', [pit.table.id]);
    await expectFinding('table_limits');
  });

  it('writes a change of limits around the service: it has no seal', async () => {
    await su.query(
      `INSERT INTO table_limits (id, table_id, property_id, seq, min_bet, max_bet, reason, changed_by_key_id, effective_at)
       SELECT gen_random_uuid(), id, property_id, 2, 1, 10000, 'quietly', 'nobody', now() FROM casino_tables WHERE id = $1`,
      [pit.table.id],
    );
    await expectFinding('has no seal');
  });

  it('moves a coup back to the opening limits: the coup no longer matches its entry', async () => {
    await su.query('UPDATE coups SET limits_id = NULL WHERE table_id = $1', [pit.table.id]);
    await expectFinding('differs from what the audit log says was dealt and settled');
  });

  it('forges a change the next shoe adopts, deals under it, then deletes it: the coups dealt under it are named', async () => {
    await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/close`, {}).expect(200);
    const forged = '44444444-4444-4444-8444-444444444444';
    await su.query(
      `INSERT INTO table_limits (id, table_id, property_id, seq, min_bet, max_bet, reason, changed_by_key_id, effective_at)
       SELECT $2, id, property_id, 2, 1, 10000, 'quietly', 'nobody', now() FROM casino_tables WHERE id = $1`,
      [pit.table.id, forged],
    );
    await su.query('RESET session_replication_role');
    const shoe = (await ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/shoes`, {}).expect(201)).body;
    const under = await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_WINS, wagers: [{ seat: 1, betType: 'PLAYER', amount: 100 }] })
      .expect(201);
    await ctx.as(pit.terminal).post(`/v1/shoes/${shoe.id}/close`, {}).expect(200);
    await su.query('SET session_replication_role = replica');
    await su.query('DELETE FROM table_limits WHERE id = $1', [forged]);
    await su.query('DELETE FROM limit_rollups WHERE table_id = $1 AND limits_seq = 2', [pit.table.id]);
    const res = await ctx.as(auditor).get('/v1/audit/verify').expect(200);
    const reasons = res.body.problems.map((p: { reason: string }) => p.reason).join('\n');
    expect(reasons).toContain('was dealt under other limits than those in force at its table');
    expect(reasons).toContain(under.body.id);
  });

  it('points the open shoe at older limits and back: the coups dealt meanwhile are named', async () => {
    await su.query('UPDATE shoes SET limits_id = NULL WHERE id = $1', [pit.shoe.id]);
    await su.query('RESET session_replication_role');
    const under = await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_WINS, wagers: [{ seat: 1, betType: 'PLAYER', amount: 100 }] })
      .expect(201);
    await su.query('SET session_replication_role = replica');
    await su.query('UPDATE shoes SET limits_id = (SELECT id FROM table_limits WHERE table_id = $1 AND seq = 1) WHERE id = $2', [pit.table.id, pit.shoe.id]);
    const res = await ctx.as(auditor).get('/v1/audit/verify').expect(200);
    const reasons = res.body.problems.map((p: { reason: string }) => p.reason).join('\n');
    expect(reasons).toContain('was dealt under other limits than those in force at its table');
    expect(reasons).toContain(under.body.id);
  });

  it('moves the open shoe back to the opening limits: the shoe’s seal no longer matches', async () => {
    await su.query('UPDATE shoes SET limits_id = NULL WHERE id = $1', [pit.shoe.id]);
    await expectFinding(`shoes ${pit.shoe.id}`);
  });
});
