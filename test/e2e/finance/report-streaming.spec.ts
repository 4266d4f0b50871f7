import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenTable } from '../../support/builders';
import { inlineParameters } from '../../../src/platform/database/copy-rows';
import { ROLLUP_FIGURES_SQL } from '../../../src/finance/reports/report-figures';

/**
 * A win/loss report larger than one streamed batch (~256 kB): the rows arrive in several chunks
 * and must still make one valid JSON answer, in order, whose rows add up to its totals. The rollup
 * rows are written directly (three years of days for two tables), as a quarter's seeder would.
 */
let ctx: TestContext;
let finance: string;
beforeAll(async () => {
  ctx = await startTestApp();
  finance = await givenKey(ctx, 'FINANCE');
});
afterAll(() => ctx.close());

it('a multi-batch table × gaming-day report is one valid JSON answer, in order, adding up to its totals', async () => {
  const a = await givenTable(ctx, { code: 'STREAM-A' });
  const b = await givenTable(ctx, { code: 'STREAM-B', pit: 'Salon "Privé"' });
  await ctx.prisma.$executeRaw`
    INSERT INTO table_day_rollups (table_id, property_id, gaming_day, coups, banker_wins, player_wins, ties, naturals, wagers, handle, payouts, commission, commission_collected, customer_net, theo_e12, banked_coups, house_commission)
    SELECT t.id, (SELECT property_id FROM casino_tables c WHERE c.id = t.id), d::date, 10 + i % 7, 5, 4, 1 + i % 7, 3, 80, 100000 + i, 60000, 2000, 1500, -3000 - i % 11, (100000 + i)::numeric * 12345678901, 0, 0
    FROM (VALUES (${a.id}::uuid), (${b.id}::uuid)) AS t(id), generate_series(date '2023-01-01', date '2025-12-31', interval '1 day') WITH ORDINALITY AS g(d, i)`;
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

it('a client that goes away mid-report frees its database connection, and the next report is whole', async () => {
  const server = (ctx.app.getHttpServer() as http.Server).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const pool = ctx.prisma.pool;
  for (let i = 0; i < 3; i++) {
    const received = await new Promise<number>((resolve, reject) => {
      const req = http.get(
        {
          host: '127.0.0.1',
          port,
          path: '/v1/reports/win-loss?from=2023-01-01&to=2025-12-31&groupBy=table,gamingDay',
          headers: { Authorization: `Bearer ${finance}` },
        },
        (res) => {
          res.once('data', (chunk: Buffer) => {
            req.destroy(); // gone after the first chunk
            resolve(chunk.length);
          });
        },
      );
      req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
    });
    expect(received).toBeGreaterThan(0);
  }
  // Every connection comes back to the pool (or is dropped), none stays busy with an abandoned report.
  for (let i = 0; i < 50 && pool.totalCount - pool.idleCount > 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(pool.totalCount - pool.idleCount).toBe(0);
  // A dropped connection's backend ends when PostgreSQL next writes to it.
  const running = async () =>
    (
      await ctx.prisma.$queryRaw<
        { n: number }[]
      >`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND query LIKE '%"group"%'`
    )[0].n;
  for (let i = 0; i < 50 && (await running()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(await running()).toBe(0);
  const whole = await ctx.as(finance).get('/v1/reports/win-loss?from=2023-01-01&to=2025-12-31&groupBy=table,gamingDay');
  expect(JSON.parse(whole.text).rows).toHaveLength(2 * 1096);
  await new Promise((resolve) => server.close(resolve));
});

it('the figures a table-day rollup keeps rendered are the report formulas, whatever the sums', async () => {
  const t = await givenTable(ctx, { code: 'STORED-FIGURES' });
  // Edge rows: no handle (hold % null), a day the players won (−265,433 / 1,234,567 = −21.50008… %), a
  // theoretical win of exactly 1.5 (rounded half away from zero), sums past 2^53.
  await ctx.prisma.$executeRaw`
    INSERT INTO table_day_rollups (table_id, property_id, gaming_day, coups, banker_wins, player_wins, ties, naturals, wagers, handle, payouts, commission, commission_collected, customer_net, theo_e12, banked_coups, house_commission)
    VALUES (${t.id}::uuid, ${t.propertyId}::uuid, date '2030-01-01', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 250),
           (${t.id}::uuid, ${t.propertyId}::uuid, date '2030-01-02', 70, 30, 35, 5, 20, 500, 1234567, 1500000, 9000, 4000, 265433, 1500000000000, 0, 0),
           (${t.id}::uuid, ${t.propertyId}::uuid, date '2030-01-03', 1, 1, 0, 0, 1, 1, 9007199254740993, 0, 0, 0, -9007199254740993, 123456789012345678901234567, 0, 0),
           (${t.id}::uuid, ${t.propertyId}::uuid, date '2030-01-04', 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0)`;
  const [{ differing, checked }] = await ctx.prisma.$queryRawUnsafe<{ differing: bigint; checked: bigint }[]>(
    `SELECT count(*) FILTER (WHERE figures_json IS DISTINCT FROM (${ROLLUP_FIGURES_SQL})) AS differing, count(*) AS checked FROM table_day_rollups`,
  );
  expect(Number(checked)).toBeGreaterThanOrEqual(4);
  expect(Number(differing)).toBe(0);
  const res = await ctx.as(finance).get('/v1/reports/win-loss?from=2030-01-01&to=2030-01-04&groupBy=table,gamingDay');
  expect(res.status).toBe(200);
  const [empty, playerDay, huge] = res.body.rows;
  expect(empty).toMatchObject({ handle: 0, holdPercent: null, bankedCoups: 3, houseCommission: 250, totalRevenue: 250 });
  expect(empty.expectedOutcomes).toEqual({ bankerWins: '0.00', playerWins: '0.00', ties: '0.00', naturals: '0.00' });
  expect(playerDay).toMatchObject({
    win: -265433,
    holdPercent: '-21.5001',
    commissionOutstanding: 5000,
    revenue: -270433,
    theoreticalWin: 2,
    winMinusTheoretical: -265435,
  });
  expect(JSON.parse(res.text.replace(/"handle":9007199254740993/, '"handle":"big"')).rows[2].handle).toBe('big'); // exact digits, not a rounded double
  expect(huge.theoreticalWin).toBe(123456789012346);
  // The totals too keep every digit: 1,234,567 + 9,007,199,254,740,993 + 1 handle (odd: no double holds it).
  expect(res.text).toMatch(/"totals":\{"currency":"EUR","wagers":502,"handle":9007199255975561,/);
  expect(res.text).toMatch(/"totalsByCurrency":\[\{"currency":"EUR","wagers":502,"handle":9007199255975561,/);
  // So do the CSV answer and the quarterly statement, in JSON and in CSV.
  const csv = await ctx.as(finance).get('/v1/reports/win-loss?from=2030-01-01&to=2030-01-04&groupBy=table,gamingDay').set('Accept', 'text/csv');
  expect(csv.status).toBe(200);
  expect(csv.text.split('\n').find((line) => line.includes('2030-01-03'))).toContain(',9007199254740993,');
  const statement = await ctx.as(finance).get('/v1/reports/quarterly?year=2030&quarter=1');
  expect(statement.status).toBe(200);
  expect(statement.headers['content-type']).toMatch(/^application\/json/);
  expect(statement.text).toMatch(/"totals":\[\{"currency":"EUR","wagers":502,"handle":9007199255975561,/);
  expect(statement.body.tables).toHaveLength(1);
  const statementCsv = await ctx.as(finance).get('/v1/reports/quarterly?year=2030&quarter=1').set('Accept', 'text/csv');
  expect(statementCsv.text.split('\n').find((line) => line.startsWith('total,'))).toContain(',9007199255975561,');
});

it("a table-day rollup keeps its table's deck count, and its expected outcomes are those every other grouping computes", async () => {
  // 70 coups: 8 decks expect 70 × 0.458597422632763 = 32.10 banker wins, one deck 70 × 0.459624155172162 = 32.17.
  const tables = [await givenTable(ctx, { code: 'DECKS-8', decks: 8 }), await givenTable(ctx, { code: 'DECKS-1', decks: 1 })];
  for (const t of tables) {
    // The deck count a writer gives is not the one kept: PostgreSQL takes the table's.
    await ctx.prisma.$executeRaw`
      INSERT INTO table_day_rollups (table_id, property_id, gaming_day, decks, coups, banker_wins, player_wins, ties, naturals, wagers, handle, payouts, commission, commission_collected, customer_net, theo_e12)
      VALUES (${t.id}::uuid, ${t.propertyId}::uuid, date '2031-05-05', 3, 70, 30, 35, 5, 20, 500, 1234567, 1500000, 9000, 4000, 265433, 1500000000000)`;
  }
  await ctx.prisma.$executeRaw`UPDATE table_day_rollups SET decks = 2 WHERE gaming_day = date '2031-05-05'`;
  const kept = await ctx.prisma.$queryRaw<{ code: string; decks: number }[]>`
    SELECT t.code, r.decks FROM table_day_rollups r JOIN casino_tables t ON t.id = r.table_id WHERE r.gaming_day = date '2031-05-05' ORDER BY t.code`;
  expect(kept).toEqual([
    { code: 'DECKS-1', decks: 1 },
    { code: 'DECKS-8', decks: 8 },
  ]);
  const stored = (await ctx.as(finance).get('/v1/reports/win-loss?from=2031-05-05&to=2031-05-05&groupBy=table,gamingDay')).body.rows;
  const computed = (await ctx.as(finance).get('/v1/reports/win-loss?from=2031-05-05&to=2031-05-05&groupBy=table')).body.rows;
  const byCode = (rows: { group: { tableCode: string }; expectedOutcomes: unknown }[]) =>
    Object.fromEntries(rows.map((r) => [r.group.tableCode, r.expectedOutcomes]));
  expect(byCode(stored)).toEqual(byCode(computed));
  expect(byCode(stored)).toEqual({
    'DECKS-8': { bankerWins: '32.10', playerWins: '31.24', ties: '6.66', naturals: '24.01' },
    'DECKS-1': { bankerWins: '32.17', playerWins: '31.27', ties: '6.55', naturals: '24.11' },
  });
});

it('a report for one property has only its tables, at the rollup grain and grouped coarser', async () => {
  const other = await ctx.admin.post('/v1/properties', { name: 'Streaming Annex', timeZone: 'Europe/Monaco', gamingDayStartHour: 6 });
  expect(other.status).toBe(201);
  const here = await givenTable(ctx, { code: 'PROP-HERE' });
  const there = await givenTable(ctx, { code: 'PROP-THERE', propertyId: other.body.id });
  await ctx.prisma.$executeRaw`
    INSERT INTO table_day_rollups (table_id, property_id, gaming_day, coups, banker_wins, player_wins, ties, naturals, wagers, handle, payouts, commission, commission_collected, customer_net, theo_e12)
    SELECT t.id, (SELECT property_id FROM casino_tables c WHERE c.id = t.id), d::date, 10, 5, 4, 1, 3, 80, t.handle, 60000, 2000, 1500, -3000, 0
    FROM (VALUES (${here.id}::uuid, 100000), (${there.id}::uuid, 7000)) AS t(id, handle), generate_series(date '2032-02-01', date '2032-02-03', interval '1 day') AS d`;
  const range = 'from=2032-02-01&to=2032-02-03';
  const byDay = (await ctx.as(finance).get(`/v1/reports/win-loss?${range}&groupBy=table,gamingDay&propertyId=${other.body.id}`)).body;
  expect(byDay.rows.map((r: { group: { tableCode: string; gamingDay: string } }) => `${r.group.tableCode} ${r.group.gamingDay}`)).toEqual([
    'PROP-THERE 2032-02-01',
    'PROP-THERE 2032-02-02',
    'PROP-THERE 2032-02-03',
  ]);
  expect(byDay.totals).toMatchObject({ handle: 21000, coups: 30 });
  const byPit = (await ctx.as(finance).get(`/v1/reports/win-loss?${range}&groupBy=pit&propertyId=${other.body.id}`)).body;
  expect(byPit.rows).toHaveLength(1);
  expect(byPit.rows[0]).toMatchObject({ handle: 21000, coups: 30 });
  const all = (await ctx.as(finance).get(`/v1/reports/win-loss?${range}&groupBy=table,gamingDay`)).body;
  expect(all.rows).toHaveLength(6);
  expect(all.totals).toMatchObject({ handle: 321000 });
});

it('a table × day report over a few days of a long history has exactly those days, for the tables that have them', async () => {
  const early = await givenTable(ctx, { code: 'HIST-A' });
  const late = await givenTable(ctx, { code: 'HIST-B' });
  const gone = await givenTable(ctx, { code: 'HIST-GONE' }); // rollups only before the range
  await ctx.prisma.$executeRaw`
    INSERT INTO table_day_rollups (table_id, property_id, gaming_day, coups, banker_wins, player_wins, ties, naturals, wagers, handle, payouts, commission, commission_collected, customer_net, theo_e12)
    SELECT t.id, (SELECT property_id FROM casino_tables c WHERE c.id = t.id), d::date, 1, 1, 0, 0, 0, 1, 100 + extract(day FROM d)::int, 0, 0, 0, -100, 0
    FROM (VALUES (${early.id}::uuid, date '2041-01-01', date '2043-12-31'), (${late.id}::uuid, date '2042-03-01', date '2043-12-31'),
                 (${gone.id}::uuid, date '2041-01-01', date '2042-02-26')) AS t(id, first, last),
         LATERAL generate_series(t.first, t.last, interval '1 day') AS d`;
  const res = await ctx.as(finance).get('/v1/reports/win-loss?from=2042-02-27&to=2042-03-02&groupBy=table,gamingDay');
  expect(res.status).toBe(200);
  const rows = res.body.rows.map(
    (r: { group: { tableCode: string; gamingDay: string }; handle: number }) => `${r.group.tableCode} ${r.group.gamingDay} ${r.handle}`,
  );
  const days = new Map([
    [early.id, [`HIST-A 2042-02-27 127`, `HIST-A 2042-02-28 128`, `HIST-A 2042-03-01 101`, `HIST-A 2042-03-02 102`]],
    [late.id, [`HIST-B 2042-03-01 101`, `HIST-B 2042-03-02 102`]],
  ]);
  expect(rows).toEqual([...days.keys()].sort().flatMap((id) => days.get(id))); // tables in id order, days in order
  expect(res.body.totals).toMatchObject({ handle: 661, coups: 6 });
});

it('literals written into a COPY statement come back exactly from PostgreSQL', async () => {
  const nasty = ["O'Brien", 'back\\slash', "'; DROP TABLE wagers; --", 'Salon "Privé" 百家乐', '$1 $2', ''];
  for (const s of nasty) {
    const [{ v }] = await ctx.prisma.$queryRawUnsafe<{ v: string }[]>(`SELECT ${inlineParameters({ text: '$1::text', values: [s] })} AS v`);
    expect(v).toBe(s);
  }
});

it('a client that reads slowly still gets the whole report', async () => {
  const server = (ctx.app.getHttpServer() as http.Server).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const text = await new Promise<string>((resolve, reject) => {
      http.get(
        {
          host: '127.0.0.1',
          port,
          path: '/v1/reports/win-loss?from=2023-01-01&to=2025-12-31&groupBy=table,gamingDay',
          headers: { Authorization: `Bearer ${finance}` },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            res.pause(); // the service must wait, not drop or reorder anything
            setTimeout(() => res.resume(), 5);
          });
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          res.on('error', reject);
        },
      );
    });
    const body = JSON.parse(text);
    expect(body.rows).toHaveLength(2 * 1096);
    expect(body.rows.reduce((n: number, r: { handle: number }) => n + r.handle, 0)).toBe(body.totals.handle);
  } finally {
    server.close();
  }
});
