import { dealPuntoBanco, formatCard, gamingDayOf, seededRandom, shuffledShoe } from '../../../src/domain';
import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPit, givenVoid } from '../../support/builders';

let ctx: TestContext;
let supervisor: string;
let supervisor2: string;
let finance: string;
const today = () => gamingDayOf(new Date(), 'UTC', 6); // the default property: UTC, 06:00
const BANKER_7 = { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] };
const PLAYER_9 = { player: ['9S', 'KD'], banker: ['8H', 'KC'] };
const TIE = { player: ['KS', '6D'], banker: ['3H', '2C', 'AS'] };

let commissionTable: { id: string; code: string };
let ezTable: { id: string; code: string };
let hkdTable: { id: string; code: string };

beforeAll(async () => {
  ctx = await startTestApp();
  supervisor = await givenKey(ctx, 'SUPERVISOR');
  supervisor2 = await givenKey(ctx, 'SUPERVISOR');
  finance = await givenKey(ctx, 'FINANCE');

  // Table 1, commission, EUR: known coups, a carried tie, a collection, a void.
  const a = await givenPit(ctx, { code: 'FIN-A', tieBetsStay: true });
  commissionTable = a.table;
  const rec = (shoe: string, key: string, cards: object, wagers: object[]) => ctx.as(key).post(`/v1/shoes/${shoe}/coups`, { cards, wagers });
  await rec(a.shoe.id, a.terminal, BANKER_7, [
    { seat: 1, betType: 'BANKER', amount: 1000 },
    { seat: 2, betType: 'PLAYER', amount: 500 },
  ]);
  await rec(a.shoe.id, a.terminal, TIE, [
    { seat: 1, betType: 'BANKER', amount: 2000 },
    { seat: 3, betType: 'TIE', amount: 100 },
  ]);
  await rec(a.shoe.id, a.terminal, BANKER_7, [{ seat: 4, betType: 'PLAYER_PAIR', amount: 100 }]); // the carried Banker 2000 wins here
  const voided = await rec(a.shoe.id, a.terminal, PLAYER_9, [{ seat: 1, betType: 'BANKER', amount: 5000 }]);
  await givenVoid(ctx, 'coups', voided.body.id, 'Wrong table', supervisor, supervisor2);
  await ctx.as(supervisor).post(`/v1/shoes/${a.shoe.id}/commissions/collections`, { seat: 1, amount: 100 });

  // Table 2, EZ, EUR: a whole shoe from a real shuffle with mixed bets.
  const b = await givenPit(ctx, { code: 'FIN-B', variant: 'EZ' });
  ezTable = b.table;
  const random = seededRandom(7);
  const cards = shuffledShoe(8, random);
  for (let pos = 0, i = 0; i < 40; i++) {
    const d = dealPuntoBanco(cards, pos)!;
    pos += d.used;
    await rec(b.shoe.id, b.terminal, { player: d.player.map(formatCard), banker: d.banker.map(formatCard) }, [
      { seat: 1, betType: 'BANKER', amount: 100 * (1 + Math.floor(random() * 20)) },
      { seat: 2, betType: 'PLAYER', amount: 100 * (1 + Math.floor(random() * 20)) },
      { seat: 3, betType: 'DRAGON_7', amount: 100 },
      { seat: 4, betType: 'PANDA_8', amount: 100 },
    ]);
  }

  // Table 3, HKD.
  const c = await givenPit(ctx, { code: 'FIN-C', currency: 'HKD' });
  hkdTable = c.table;
  await rec(c.shoe.id, c.terminal, PLAYER_9, [{ seat: 1, betType: 'PLAYER', amount: 10000 }]);
});
afterAll(() => ctx.close());

const q = (path: string) => ctx.as(finance).get(path);

describe('win/loss report', () => {
  it('totals equal the sums over settled, unvoided wagers, to the minor unit, per currency', async () => {
    const res = await q(`/v1/reports/win-loss?from=${today()}&to=${today()}`);
    expect(res.status).toBe(200);
    expect(res.body.totals).toBeNull(); // two currencies: never summed together
    const raw = await ctx.prisma.$queryRaw<{ currency: string; wagers: bigint; handle: bigint; payouts: bigint; commission: bigint; net: bigint }[]>`
      SELECT t.currency::text, count(*) AS wagers, sum(w.amount)::bigint AS handle, sum(w.payout)::bigint AS payouts, sum(w.commission)::bigint AS commission, sum(w.net)::bigint AS net
      FROM wagers w JOIN coups c ON c.id = w.coup_id JOIN casino_tables t ON t.id = c.table_id
      WHERE w.status = 'SETTLED' AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
      GROUP BY 1 ORDER BY 1`;
    expect(
      res.body.totalsByCurrency.map((t: Record<string, number | string>) => [t.currency, t.wagers, t.handle, t.payouts, t.commissionCharged, t.win]),
    ).toEqual(raw.map((r) => [r.currency, Number(r.wagers), Number(r.handle), Number(r.payouts), Number(r.commission), -Number(r.net)]));
    expect(res.body.voided).toEqual({ coups: 1, wagers: 1, handle: 5000 });
  });

  // The same summary filled in by the migration for voids made before it: test/e2e/operations/upgrade.spec.ts.
  it('the void summary is what each void keeps, and the reconciliation proves it', async () => {
    const kept = await ctx.prisma.$queryRaw<
      object[]
    >`SELECT table_id, gaming_day, voided_coups, voided_wagers, voided_handle FROM table_day_rollups ORDER BY 1, 2`;
    expect(kept).toContainEqual(expect.objectContaining({ table_id: commissionTable.id, voided_coups: 1n, voided_wagers: 1n, voided_handle: 5000n }));
    const rec = await q(`/v1/reports/reconciliation?from=${today()}&to=${today()}`);
    expect([rec.body.ok, rec.body.differences]).toEqual([true, []]);
    // A rollup that drifted from the void records is found.
    await ctx.prisma.$executeRaw`UPDATE table_day_rollups SET voided_handle = voided_handle + 1 WHERE table_id = ${commissionTable.id}::uuid`;
    try {
      const drifted = await q(`/v1/reports/reconciliation?from=${today()}&to=${today()}`);
      expect(drifted.body.differences).toEqual([
        expect.objectContaining({ tableId: commissionTable.id, field: 'byDay.voided_handle', rollup: '5001', raw: '5000' }),
      ]);
    } finally {
      await ctx.prisma.$executeRaw`UPDATE table_day_rollups SET voided_handle = voided_handle - 1 WHERE table_id = ${commissionTable.id}::uuid`;
    }
  });

  it('FIN-A by bet type: exact hand-computed figures, commission charged and collected, revenue', async () => {
    const res = await q(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=table,betType`);
    const rows = res.body.rows.filter((r: { group: { tableCode: string } }) => r.group.tableCode === 'FIN-A');
    const by = Object.fromEntries(rows.map((r: { group: { betType: string } }) => [r.group.betType, r]));
    // BANKER: 1000 wins (+1000, 50 commission), 2000 pushes on the tie, carried 2000 wins (+2000, 100 commission); the voided 5000 is left out.
    expect(by.BANKER).toMatchObject({
      coups: null,
      wagers: 3,
      handle: 5000,
      payouts: 3000,
      commissionCharged: 150,
      commissionCollected: 100,
      commissionOutstanding: 50,
      win: -2850,
      revenue: -2900,
    });
    expect(by.PLAYER).toMatchObject({ wagers: 1, handle: 500, payouts: 0, win: 500, holdPercent: '100.0000' });
    expect(by.TIE).toMatchObject({ wagers: 1, handle: 100, payouts: 800, win: -800 });
    expect(by.PLAYER_PAIR).toMatchObject({ wagers: 1, handle: 100, win: 100 });
    // Theoretical win = handle × the exact edge (docs/domain.md §4: Banker 1.0579 %, Player 1.2351 %, Tie 14.3596 %).
    expect(by.BANKER.theoreticalWin).toBe(Math.round(5000 * 0.010579));
    expect(by.PLAYER.theoreticalWin).toBe(Math.round(500 * 0.012351));
    expect(by.TIE.theoreticalWin).toBe(Math.round(100 * 0.143596));
    expect(by.BANKER.winMinusTheoretical).toBe(-2850 - by.BANKER.theoreticalWin);
  });

  it('by table: coups and outcomes beside their expected frequencies', async () => {
    const res = await q(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=table`);
    const a = res.body.rows.find((r: { group: { tableCode: string } }) => r.group.tableCode === 'FIN-A');
    expect(a.coups).toBe(3);
    expect(a.outcomes).toEqual({ bankerWins: 2, playerWins: 0, ties: 1, naturals: 0 });
    expect(a.expectedOutcomes).toEqual({
      bankerWins: (3 * 0.458597).toFixed(2),
      playerWins: (3 * 0.446247).toFixed(2),
      ties: (3 * 0.095156).toFixed(2),
      naturals: expect.any(String),
    });
    const b = res.body.rows.find((r: { group: { tableCode: string } }) => r.group.tableCode === 'FIN-B');
    expect(b.coups).toBe(40);
    expect(b.outcomes.bankerWins + b.outcomes.playerWins + b.outcomes.ties).toBe(40);
  });

  it('the same numbers as CSV', async () => {
    const json = await q(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=table,betType`);
    const csv = await q(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=table,betType`).set('Accept', 'text/csv');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const [header, ...lines] = csv.text.trim().split('\n');
    const cols = header.split(',');
    expect(lines).toHaveLength(json.body.rows.length);
    const handleCol = cols.indexOf('handle');
    const winCol = cols.indexOf('win');
    const codeCol = cols.indexOf('tableCode');
    lines.forEach((line, i) => {
      const cells = line.split(',');
      expect([cells[codeCol], Number(cells[handleCol]), Number(cells[winCol])]).toEqual([
        json.body.rows[i].group.tableCode,
        json.body.rows[i].handle,
        json.body.rows[i].win,
      ]);
    });
  });

  it('reconciliation recomputes from the raw records and finds no difference after ties, voids and collections', async () => {
    const res = await q(`/v1/reports/reconciliation?from=${today()}&to=${today()}`);
    expect(res.status).toBe(200);
    expect(res.body.differences).toEqual([]);
    expect(res.body.ok).toBe(true);
    expect(res.body.wagersRecomputed).toBe(6 + 160 + 1);
    // Over the whole month, the month rollups are compared too.
    const d = today();
    const monthEnd = new Date(Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)), 0)).toISOString().slice(0, 10);
    const month = await q(`/v1/reports/reconciliation?from=${d.slice(0, 8)}01&to=${monthEnd}`);
    expect([month.body.ok, month.body.differences]).toEqual([true, []]);
    expect(month.body.rowsChecked).toBeGreaterThan(res.body.rowsChecked);
    // And it does find one when a rollup is tampered with.
    await ctx.prisma.$executeRaw`UPDATE wager_rollups SET handle = handle + 1 WHERE table_id = ${hkdTable.id}::uuid`;
    const broken = await q(`/v1/reports/reconciliation?from=${today()}&to=${today()}`);
    expect(broken.body.ok).toBe(false);
    expect(broken.body.differences).toEqual([
      { tableId: hkdTable.id, gamingDay: today(), betType: 'PLAYER', field: 'byDayAndBet.handle', rollup: '10001', raw: '10000' },
    ]);
    await ctx.prisma.$executeRaw`UPDATE wager_rollups SET handle = handle - 1 WHERE table_id = ${hkdTable.id}::uuid`;
  });

  it.each([
    ['groupBy=table,colour', 'Cannot group by "colour"'],
    ['from=2026-09-30&to=2026-07-01', 'is after to'],
    ['from=2026-02-30&to=2026-03-01', 'from must be a calendar date YYYY-MM-DD'],
    ['from=26-1-1&to=2026-03-01', 'from must be a calendar date YYYY-MM-DD'],
    ['from=2010-01-01&to=2026-03-01', 'at most ten years'],
    ['to=2026-03-01', 'from'],
    ['from=2026-01-01&to=2026-03-01&extra=1', 'not a field'],
  ])('%s → VALIDATION_FAILED', async (query, message) => {
    const base = query.includes('from=') || query.includes('to=') ? '' : `from=${today()}&to=${today()}&`;
    const res = await q(`/v1/reports/win-loss?${base}${query}`);
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(`${res.body.message} ${JSON.stringify(res.body.details ?? '')}`).toContain(message);
  });

  it('terminals cannot read reports', async () => {
    const t = await givenKey(ctx, 'TERMINAL', ezTable.id);
    expect((await ctx.as(t).get(`/v1/reports/win-loss?from=${today()}&to=${today()}`)).status).toBe(403);
  });
});

describe('table accounting', () => {
  it('statistical win, drop hold and the difference from the wager-level win; voided slips left out; slips numbered in sequence', async () => {
    const open = await ctx.as(supervisor).post(`/v1/tables/${commissionTable.id}/sessions`, {
      opener: [
        { denomination: 2500, count: 100 },
        { denomination: 10000, count: 50 },
      ],
    });
    expect(open.status).toBe(201);
    expect(open.body.openerTotal).toBe(750000);
    const fill1 = await ctx.as(supervisor).post(`/v1/table-sessions/${open.body.id}/slips`, { kind: 'FILL', chips: [{ denomination: 10000, count: 20 }] });
    const fill2 = await ctx.as(supervisor).post(`/v1/table-sessions/${open.body.id}/slips`, { kind: 'FILL', chips: [{ denomination: 2500, count: 8 }] });
    const credit = await ctx.as(supervisor).post(`/v1/table-sessions/${open.body.id}/slips`, { kind: 'CREDIT', chips: [{ denomination: 10000, count: 5 }] });
    expect([fill1.body.number, fill2.body.number, credit.body.number]).toEqual([1, 2, 1]);
    const v = await givenVoid(ctx, 'slips', fill2.body.id, 'Fill entered twice', supervisor, supervisor2);
    expect(v).toMatchObject({ target: 'SLIP', status: 'APPROVED', reason: 'Fill entered twice' });
    expect((await ctx.as(supervisor).post(`/v1/slips/${fill2.body.id}/void`, { reason: 'again' })).body.code).toBe('SLIP_ALREADY_VOIDED');
    expect((await ctx.as(supervisor).get(`/v1/table-sessions/${open.body.id}`)).body.slips[1].voidReason).toBe('Fill entered twice');
    const closed = await ctx.as(supervisor).post(`/v1/table-sessions/${open.body.id}/close`, {
      closer: [
        { denomination: 2500, count: 90 },
        { denomination: 10000, count: 60 },
      ],
      drop: 30000,
    });
    // closer 825000 − opener 750000 + credits 50000 − fills 200000 + drop 30000
    expect(closed.body.statisticalWin).toBe(825000 - 750000 + 50000 - 200000 + 30000);
    expect(
      (await ctx.as(supervisor).post(`/v1/table-sessions/${open.body.id}/slips`, { kind: 'FILL', chips: [{ denomination: 100, count: 1 }] })).body.code,
    ).toBe('SESSION_CLOSED');

    const report = await q(`/v1/reports/table-accounting?from=${open.body.gamingDay}&to=${open.body.gamingDay}`);
    const line = report.body.find((l: { tableCode: string }) => l.tableCode === 'FIN-A');
    expect(line).toMatchObject({
      sessions: 1,
      opener: 750000,
      closer: 825000,
      fills: 200000,
      credits: 50000,
      drop: 30000,
      statisticalWin: -45000,
      wagerWin: -3050,
      difference: -45000 + 3050,
    });
    expect(line.dropHoldPercent).toBe('-150.0000');
  });

  it('rejects a second open session and a repeated denomination', async () => {
    const first = await ctx.as(supervisor).post(`/v1/tables/${hkdTable.id}/sessions`, { opener: [] });
    expect(first.status).toBe(201);
    expect((await ctx.as(supervisor).post(`/v1/tables/${hkdTable.id}/sessions`, { shift: 'swing', opener: [] })).body.code).toBe('SESSION_ALREADY_OPEN');
    const dup = await ctx.as(supervisor).post(`/v1/table-sessions/${first.body.id}/slips`, {
      kind: 'FILL',
      chips: [
        { denomination: 100, count: 1 },
        { denomination: 100, count: 2 },
      ],
    });
    expect([dup.status, dup.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});

describe('quarterly statement', () => {
  it('totals, months, variants, tables, table accounting and the exception report, in JSON and CSV', async () => {
    const day = today();
    const year = Number(day.slice(0, 4));
    const quarter = Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1;
    const res = await q(`/v1/reports/quarterly?year=${year}&quarter=${quarter}`);
    expect(res.status).toBe(200);
    expect(res.body.propertyName).toBe('Default property');
    const eur = res.body.totals.find((t: { currency: string }) => t.currency === 'EUR');
    const wl = await q(`/v1/reports/win-loss?from=${res.body.from}&to=${res.body.to}`);
    const eurWl = wl.body.totalsByCurrency.find((t: { currency: string }) => t.currency === 'EUR');
    expect(eur).toEqual(eurWl);
    expect(res.body.variants.map((v: { group: { variant: string; currency: string } }) => `${v.group.currency}/${v.group.variant}`)).toEqual([
      'EUR/COMMISSION',
      'EUR/EZ',
      'HKD/COMMISSION',
    ]);
    expect(res.body.months).toHaveLength(2); // one month, two currencies
    expect(res.body.tables.map((t: { group: { tableCode: string } }) => t.group.tableCode)).toEqual(['FIN-A', 'FIN-B', 'FIN-C']);
    expect(res.body.exceptions.voidedCoups).toEqual([expect.objectContaining({ tableCode: 'FIN-A', coupNumber: 4, reason: 'Wrong table', handle: 5000 })]);
    expect(res.body.exceptions.voidedSlips).toEqual([expect.objectContaining({ tableCode: 'FIN-A', kind: 'FILL', number: 2, amount: 20000 })]);
    expect(res.body.tableAccounting.find((l: { tableCode: string }) => l.tableCode === 'FIN-A')).toMatchObject({ gamingDay: null, statisticalWin: -45000 });

    const csv = await q(`/v1/reports/quarterly?year=${year}&quarter=${quarter}`).set('Accept', 'text/csv');
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split('\n');
    const cols = lines[0].split(',');
    const totalEur = lines.find((l) => l.startsWith('total,EUR'))!.split(',');
    expect(Number(totalEur[cols.indexOf('win')])).toBe(eur.win);
    expect(lines.filter((l) => l.startsWith('voided-coup,')).length).toBe(1);
  });

  it.each([['year=2026&quarter=5'], ['year=2026&quarter=0'], ['year=26&quarter=1'], ['year=1999&quarter=1'], ['year=2101&quarter=1'], ['quarter=1']])(
    '%s → VALIDATION_FAILED',
    async (query) => {
      const res = await q(`/v1/reports/quarterly?${query}`);
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    },
  );
});

describe('every grouping', () => {
  it('rows add up to the totals for each dimension alone and all together, and names typed by people come back exactly', async () => {
    const pit = 'Salon "Privé" \\ 2';
    const d = await givenPit(ctx, { code: 'FIN-D', pit });
    await ctx.as(d.terminal).post(`/v1/shoes/${d.shoe.id}/coups`, {
      cards: BANKER_7,
      wagers: [
        { seat: 1, betType: 'BANKER', amount: 700 },
        { seat: 2, betType: 'TIE', amount: 100 },
      ],
    });
    const total = (await q(`/v1/reports/win-loss?from=${today()}&to=${today()}`)).body.totalsByCurrency;
    const sum = (rows: Record<string, number & { currency: string }>[], currency: string, f: string) =>
      rows.filter((r) => (r.group as unknown as { currency: string }).currency === currency).reduce((n, r) => n + r[f], 0);
    for (const groupBy of [
      'property',
      'pit',
      'table',
      'variant',
      'betType',
      'currency',
      'gamingDay',
      'month',
      'quarter',
      'property,pit,table,variant,betType,currency,gamingDay,month,quarter',
    ]) {
      const res = await q(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=${groupBy}`);
      expect(res.status).toBe(200);
      for (const t of total) {
        for (const f of ['wagers', 'handle', 'payouts', 'win', 'commissionCharged', 'commissionCollected', 'revenue']) {
          expect([groupBy, t.currency, f, sum(res.body.rows, t.currency, f)]).toEqual([groupBy, t.currency, f, t[f]]);
        }
      }
      if (groupBy.includes('pit')) expect(res.body.rows.map((r: { group: { pit: string } }) => r.group.pit)).toContain(pit);
    }
    const byTable = (await q(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=pit,table`)).body.rows;
    expect(byTable.find((r: { group: { tableCode: string } }) => r.group.tableCode === 'FIN-D')).toMatchObject({
      group: { pit, tableId: d.table.id, tableCode: 'FIN-D', currency: 'EUR' },
      wagers: 2,
      handle: 800,
      payouts: 700,
      win: -(700 - 35) + 100, // the Banker bet is paid 700 less 35 commission; the Tie bet is lost
      commissionCharged: 35,
      coups: 1,
      outcomes: { bankerWins: 1, playerWins: 0, ties: 0, naturals: 0 },
    });
  });
});
