import { pgRunner } from '../../../src/platform/database/sql';
import { PitChanges } from '../../../src/foundation/pit/pit-changes';
import { PIT_SQL } from '../../../src/foundation/pit/pit-sql';
import { PitService } from '../../../src/foundation/pit/pit.service';
import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPatrons, givenPit, givenVoid } from '../../support/builders';

/**
 * The pit's state changes (src/foundation/pit/pit.sql) where an examiner found them wanting: lock modes that
 * deadlocked card-ins against coups, a tie bet a void left on the next coup, coups with wagers at a
 * player's bank, a table closed twice, a card out before it went in.
 */
let ctx: TestContext;
let auditor: string;
beforeAll(async () => {
  ctx = await startTestApp();
  auditor = await givenKey(ctx, 'AUDITOR');
});
afterAll(() => ctx.close());

const TIE = { player: ['KS', '6D'], banker: ['3H', '2C', 'AS'] }; // 6–6
const BANKER_7 = { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] };

it("a table's lock lets a row refer to the table meanwhile (a coup's first rollup, a bank): card-ins and coups never deadlock", async () => {
  const { table } = await givenPit(ctx);
  const holder = await ctx.prisma.pool.connect();
  const other = await ctx.prisma.pool.connect();
  try {
    await holder.query('BEGIN');
    await pgRunner(holder).query(PIT_SQL.lockTable.bind({ tableId: table.id }));
    await other.query('BEGIN');
    // What a foreign key takes on the table's row: refused at once (NOWAIT) if the lock excluded it.
    const { rows } = await other.query('SELECT id FROM casino_tables WHERE id = $1::uuid FOR KEY SHARE NOWAIT', [table.id]);
    expect(rows).toHaveLength(1);
    // …while a second writer of the table still waits its turn.
    await expect(other.query('SELECT id FROM casino_tables WHERE id = $1::uuid FOR NO KEY UPDATE NOWAIT', [table.id])).rejects.toMatchObject({ code: '55P03' });
  } finally {
    await holder.query('ROLLBACK');
    await other.query('ROLLBACK');
    holder.release();
    other.release();
  }
});

it('voiding a tie coup returns the bet it carried even once the next coup, taking bets, holds it', async () => {
  const { terminal, supervisor, shoe } = await givenPit(ctx, { tieBetsStay: true });
  const second = await givenKey(ctx, 'SUPERVISOR');
  const tie = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: TIE, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] });
  const carried = tie.body.carriedForward[0].id;
  const betting = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, {});
  expect(betting.body.wagers.map((w: { id: string }) => w.id)).toEqual([carried]);
  await givenVoid(ctx, 'coups', tie.body.id, 'Tie keyed by mistake', supervisor, second);
  const dealt = await ctx.as(terminal).post(`/v1/coups/${betting.body.id}/cards`, BANKER_7);
  expect(dealt.status).toBe(200);
  const bet = dealt.body.wagers.find((w: { id: string }) => w.id === carried);
  expect(bet).toMatchObject({ status: 'WITHDRAWN', result: null, net: null });
});

it("a player-banked table's shoe takes no coup with wagers, whole or opened for betting, and is left as it was", async () => {
  const { terminal, shoe } = await givenPit(ctx, { variant: 'CHEMIN_DE_FER' });
  const before = (await ctx.as(terminal).get(`/v1/shoes/${shoe.id}`)).body;
  for (const body of [{ cards: BANKER_7 }, {}]) {
    const res = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('PLAYER_BANKED');
  }
  expect((await ctx.as(terminal).get(`/v1/shoes/${shoe.id}`)).body).toEqual(before);
});

it('a table closed already, or reopened while open, is refused and writes nothing', async () => {
  const { terminal, supervisor, shoe, table } = await givenPit(ctx);
  const entries = async () => (await ctx.as(auditor).get(`/v1/audit?stream=${table.id}`)).body.length;
  const reopen = await ctx.as(supervisor).post(`/v1/tables/${table.id}/reopen`, {});
  expect([reopen.status, reopen.body.code]).toEqual([409, 'TABLE_OPEN']);
  expect((await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/close`, {})).status).toBe(200);
  expect((await ctx.as(supervisor).post(`/v1/tables/${table.id}/close`, {})).status).toBe(200);
  const count = await entries();
  const again = await ctx.as(supervisor).post(`/v1/tables/${table.id}/close`, {});
  expect([again.status, again.body.code]).toEqual([409, 'TABLE_CLOSED']);
  expect(await entries()).toBe(count);
  expect((await ctx.as(supervisor).post(`/v1/tables/${table.id}/reopen`, {})).status).toBe(200);
});

it("a card comes out no earlier than it went in, whoever's clock put it in (closing the table, or a card-out)", async () => {
  const { terminal, shoe, table } = await givenPit(ctx);
  await givenPatrons(ctx, 'CLOCK-1', 'CLOCK-2');
  const changes = new PitChanges(new PitService(ctx.prisma));
  const ahead = new Date(Date.now() + 60_000); // an instance whose clock runs a minute ahead seated them
  const db = pgRunner(ctx.prisma.pool);
  const day = ahead.toISOString().slice(0, 10);
  const first = await changes.seat(db, { patronId: 'CLOCK-1', tableId: table.id, seat: 1, gamingDay: day, startedAt: ahead, keyId: 'test' });
  expect(await changes.unseat(db, first, 'test', new Date())).toBe(true);
  await changes.seat(db, { patronId: 'CLOCK-2', tableId: table.id, seat: 2, gamingDay: day, startedAt: ahead, keyId: 'test' });
  expect((await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/close`, {})).status).toBe(200);
  const closing = await ctx.admin.post(`/v1/tables/${table.id}/close`, {});
  expect(closing.status).toBe(200);
  const { rows } = await ctx.prisma.pool.query<{ n: string }>('SELECT count(*) AS n FROM seatings WHERE table_id = $1::uuid AND ended_at = started_at', [
    table.id,
  ]);
  expect(Number(rows[0].n)).toBe(2);
});

it('a withdrawn tie bet brought back by the superuser is seen by the verification, before and after a coup pays it', async () => {
  const { terminal, shoe } = await givenPit(ctx, { tieBetsStay: true });
  const tie = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: TIE, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] });
  const carried = tie.body.carriedForward[0].id;
  expect((await ctx.as(terminal).post(`/v1/wagers/${carried}/withdraw`, {})).status).toBe(200);
  const clean = (await ctx.as(auditor).get('/v1/audit/verify')).body;
  expect(clean.problems).not.toContainEqual(expect.objectContaining({ id: `wagers/${carried}` }));
  const su = await ctx.prisma.pool.connect();
  try {
    await su.query('SET session_replication_role = replica');
    await su.query(`UPDATE wagers SET status = 'OPEN' WHERE id = $1::uuid AND gaming_day IS NULL`, [carried]);
    await su.query('RESET session_replication_role');
  } finally {
    su.release();
  }
  const seen = async () => ((await ctx.as(auditor).get(`/v1/audit/verify`)).body.problems as { id: string }[]).filter((f) => f.id === `wagers/${carried}`);
  expect(await seen()).toHaveLength(1);
  // The next coup pays it (the shoe was not touched): still seen.
  const paid = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7 });
  expect(paid.body.wagers.map((w: { id: string }) => w.id)).toContain(carried);
  expect(await seen()).toHaveLength(1);
});
