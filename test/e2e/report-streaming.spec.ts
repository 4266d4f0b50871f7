import { startTestApp, TestContext } from '../support/app';
import { givenKey, givenTable } from '../support/builders';

/**
 * A win/loss report larger than one streamed batch (~256 kB): the rows arrive in several chunks
 * and must still make one valid JSON answer, in order, whose rows add up to its totals. The rollup
 * rows are written directly (three years of days for two tables), as a quarter's seeder would.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

it('a multi-batch table × gaming-day report is one valid JSON answer, in order, adding up to its totals', async () => {
  const a = await givenTable(ctx, { code: 'STREAM-A' });
  const b = await givenTable(ctx, { code: 'STREAM-B', pit: 'Salon "Privé"' });
  await ctx.prisma.$executeRaw`
    INSERT INTO table_day_rollups (table_id, gaming_day, coups, banker_wins, player_wins, ties, naturals, wagers, handle, payouts, commission, commission_collected, customer_net, theo_e12, banked_coups, house_commission)
    SELECT t.id, d::date, 10 + i % 7, 5, 4, 1 + i % 7, 3, 80, 100000 + i, 60000, 2000, 1500, -3000 - i % 11, (100000 + i)::numeric * 12345678901, 0, 0
    FROM (VALUES (${a.id}::uuid), (${b.id}::uuid)) AS t(id), generate_series(date '2023-01-01', date '2025-12-31', interval '1 day') WITH ORDINALITY AS g(d, i)`;
  const finance = await givenKey(ctx, 'FINANCE');
  const res = await ctx.as(finance).get('/v1/reports/win-loss?from=2023-01-01&to=2025-12-31&groupBy=table,gamingDay');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.text.length).toBeGreaterThan(3 * 256 * 1024); // several batches
  const body = JSON.parse(res.text);
  expect(body.rows).toHaveLength(2 * 1096);
  const keys = body.rows.map((r: { group: { tableId: string; gamingDay: string } }) => `${r.group.tableId} ${r.group.gamingDay}`);
  expect(keys).toEqual([...keys].sort());
  const [sums] = await ctx.prisma.$queryRaw<{ handle: bigint; win: bigint; coups: bigint }[]>`
    SELECT sum(handle)::bigint AS handle, (-sum(customer_net))::bigint AS win, sum(coups)::bigint AS coups FROM table_day_rollups WHERE table_id IN (${a.id}::uuid, ${b.id}::uuid)`;
  expect([body.totals.handle, body.totals.win, body.totals.coups]).toEqual([Number(sums.handle), Number(sums.win), Number(sums.coups)]);
  expect(body.rows.reduce((n: number, r: { handle: number }) => n + r.handle, 0)).toBe(body.totals.handle);
  // The same rows grouped by pit: a name with quotes comes back exactly.
  const byPit = (await ctx.as(finance).get('/v1/reports/win-loss?from=2023-01-01&to=2025-12-31&groupBy=pit')).body;
  expect(byPit.rows.map((r: { group: { pit: string } }) => r.group.pit).sort()).toEqual(['', 'Salon "Privé"']);
});
