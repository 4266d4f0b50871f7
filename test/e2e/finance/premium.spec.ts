import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPatrons, givenPit, givenVoid } from '../../support/builders';
import { gamingDayOf } from '../../../src/domain';

/**
 * Premium and mass (docs/domain.md §14 "Premium and mass"): the dead-chip wagers' part of every
 * figure, kept in the rollups with the coup and taken out by a void, split from the rest in the
 * win/loss reports and the quarterly statement (premium + mass = the totals, exactly), read by the
 * rolling account, and rebuilt by the reconciliation, which finds a tampered column.
 */
let ctx: TestContext;
let finance: string;
let host: string;
let auditor: string;
beforeAll(async () => {
  ctx = await startTestApp();
  finance = await givenKey(ctx, 'FINANCE');
  host = await givenKey(ctx, 'HOST');
  auditor = await givenKey(ctx, 'AUDITOR');
});
afterAll(() => ctx?.close());

const BANKER_WINS = { player: ['KS', 'QH'], banker: ['9S', 'KD'] };
const PLAYER_WINS = { player: ['8S', 'KH'], banker: ['QS', 'JD'] };
const TIE = { player: ['9H', 'KC'], banker: ['9C', 'QD'] };
const today = () => gamingDayOf(new Date(), 'UTC', 6); // the default property: UTC, 06:00

describe('a table-day of cash and dead chips, with a carried tie bet and a void', () => {
  const card = `PM-${process.pid}`;
  let pit: Awaited<ReturnType<typeof givenPit>>;
  const coup = (cards: object, wagers: object[]) => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards, wagers }).expect(201);
  // Seat 1: the patron's card is in; seat 2: nobody rated.
  const dead = (betType: string, amount: number) => ({ seat: 1, betType, amount, chipKind: 'DEAD' });
  const cash = (seat: number, betType: string, amount: number) => ({ seat, betType, amount });

  beforeAll(async () => {
    await givenPatrons(ctx, card);
    // 8 decks, 5 % commission; a Banker or Player bet on a tie stays on the layout for the next coup.
    pit = await givenPit(ctx, { tieBetsStay: true });
    await ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/seatings`, { patronId: card, seat: 1 }).expect(201);
    // 1. Dead Banker 100.00 wins (+95.00, 5.00 commission), paid in cash chips; cash Player 40.00 loses.
    await coup(BANKER_WINS, [dead('BANKER', 10_000), cash(2, 'PLAYER', 4_000)]);
    // 2. Dead Banker 60.00 loses: rolled. The patron's cash Player 20.00 beside it wins: not premium play.
    await coup(PLAYER_WINS, [dead('BANKER', 6_000), cash(1, 'PLAYER', 2_000)]);
    // 3. A tie: the dead Banker 50.00 pushes and stays, in dead chips; cash Tie 10.00 wins 8 to 1.
    const tied = await coup(TIE, [dead('BANKER', 5_000), cash(2, 'TIE', 1_000)]);
    expect(tied.body.carriedForward[0]).toMatchObject({ chipKind: 'DEAD', amount: 5_000, patronId: card });
    // 4. The carried dead Banker 50.00 loses (rolled: a wager of this coup); cash Player 30.00 wins.
    const carried = await coup(PLAYER_WINS, [cash(2, 'PLAYER', 3_000)]);
    expect(carried.body.wagers.map((w: { chipKind: string; result: string }) => [w.chipKind, w.result]).sort()).toEqual([
      ['CASH', 'WIN'],
      ['DEAD', 'LOSE'],
    ]);
    // 5. Dead Player 70.00 and cash Banker 20.00, then voided: out of every figure.
    const voided = await coup(BANKER_WINS, [dead('PLAYER', 7_000), cash(2, 'BANKER', 2_000)]);
    const second = await givenKey(ctx, 'SUPERVISOR');
    await givenVoid(ctx, 'coups', voided.body.id, 'Keyed on the wrong table', pit.supervisor, second);
  });

  // By hand, the coups that stand:
  // premium: wagers 4 (the carried bet is a wager of its own coup), handle 100 + 60 + 50 + 50 = 260.00,
  //   customer net +95 − 60 + 0 − 50 = −15.00 (win 15.00), commission 5.00, hold 15 ÷ 260 = 5.7692 %,
  //   theo 260.00 × 1.0579057842 % = 2.7506 → 2.75;
  // mass: wagers 4, handle 40 + 20 + 10 + 30 = 100.00, customer net −40 + 20 + 80 + 30 = +90.00 (win −90.00),
  //   commission 0, hold −90.0000 %, theo = total − premium: (275.0555 + 90 × 1.2350813289 + 10 × 14.3596287787
  //   = 529.8091 cents → 5.30) − 2.75 = 2.55;
  // totals: wagers 8, handle 360.00, win −75.00, commission 5.00, theo 5.30.
  const premium = { wagers: 4, handle: 26_000, win: 1_500, holdPercent: '5.7692', commissionCharged: 500, theoreticalWin: 275 };
  const mass = { wagers: 4, handle: 10_000, win: -9_000, holdPercent: '-90.0000', commissionCharged: 0, theoreticalWin: 255 };
  const totals = { wagers: 8, handle: 36_000, win: -7_500, commissionCharged: 500, theoreticalWin: 530 };
  const q = (path: string) => ctx.as(finance).get(path).expect(200);

  it('the win/loss of the table-day: premium and mass, adding up to the totals exactly', async () => {
    const res = await q(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=table,gamingDay`);
    const row = res.body.rows.find((r: { group: { tableId: string } }) => r.group.tableId === pit.table.id);
    expect(row).toMatchObject({ ...totals, premium, mass });
    for (const f of ['wagers', 'handle', 'win', 'commissionCharged', 'theoreticalWin'] as const) expect(premium[f] + mass[f]).toBe(totals[f]);
    expect(res.body.voided).toEqual({ coups: 1, wagers: 2, handle: 9_000 });
    // The totals of the report split alike (this table is the only one of its currency here).
    expect(res.body.totals).toMatchObject({ ...totals, premium, mass });
  });

  it('by bet type (the rollup per bet type) and by month (its own): the same split', async () => {
    const byBet = await q(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=table,betType`);
    const bet = (b: string) =>
      byBet.body.rows.find((r: { group: { tableId: string; betType: string } }) => r.group.tableId === pit.table.id && r.group.betType === b);
    expect(bet('BANKER')).toMatchObject({ premium, mass: { wagers: 0, handle: 0, win: 0, holdPercent: null, commissionCharged: 0, theoreticalWin: 0 } });
    expect(bet('PLAYER')).toMatchObject({ premium: { wagers: 0, handle: 0 }, mass: { wagers: 3, handle: 9_000, win: -1_000, holdPercent: '-11.1111' } });
    expect(bet('TIE')).toMatchObject({ premium: { wagers: 0, handle: 0 }, mass: { wagers: 1, handle: 1_000, win: -8_000, theoreticalWin: 144 } });
    const byMonth = await q(`/v1/reports/win-loss?from=${today().slice(0, 8)}01&to=${today()}&groupBy=table,month`);
    expect(byMonth.body.rows.find((r: { group: { tableId: string } }) => r.group.tableId === pit.table.id)).toMatchObject({ premium, mass });
  });

  it('as CSV: premium and mass as columns of their own, after the existing ones', async () => {
    const res = await ctx.as(finance).get(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=table`).set('Accept', 'text/csv').expect(200);
    const [head, ...lines] = res.text.trim().split(/\r?\n/);
    const cols = head.split(',');
    expect(cols.slice(-12)).toEqual([
      ...['wagers', 'handle', 'win', 'holdPercent', 'commissionCharged', 'theoreticalWin'].map((f) => `premium.${f}`),
      ...['wagers', 'handle', 'win', 'holdPercent', 'commissionCharged', 'theoreticalWin'].map((f) => `mass.${f}`),
    ]);
    const line = lines.map((l) => l.split(',')).find((l) => l[cols.indexOf('tableId')] === pit.table.id)!;
    expect(line.slice(-12)).toEqual(['4', '26000', '1500', '5.7692', '500', '275', '4', '10000', '-9000', '-90.0000', '0', '255']);
  });

  it('the quarterly statement: the table, its variant and the totals split alike', async () => {
    const now = new Date();
    const res = await q(`/v1/reports/quarterly?year=${now.getUTCFullYear()}&quarter=${Math.floor(now.getUTCMonth() / 3) + 1}`);
    const table = res.body.tables.find((t: { group: { tableId: string } }) => t.group.tableId === pit.table.id);
    expect(table).toMatchObject({ ...totals, premium, mass });
    for (const line of [...res.body.totals, ...res.body.months, ...res.body.variants, ...res.body.tables]) {
      for (const f of ['wagers', 'handle', 'win', 'commissionCharged', 'theoreticalWin']) expect(line.premium[f] + line.mass[f]).toBe(line[f]);
    }
  });

  it('the rolling account, from the patron rollups: the dead-chip wagers that stand', async () => {
    const res = await ctx.as(host).get(`/v1/patrons/${card}/rolling?from=${today()}&to=${today()}`).expect(200);
    expect(res.body.accounts).toEqual([
      expect.objectContaining({ currency: 'EUR', wagers: 4, handle: 26_000, win: 1_500, rolled: 11_000, rollingWinPercent: '13.6364', theoreticalWin: 275 }),
    ]);
  });

  it('the reconciliation rebuilds the new columns, and finds each one tampered with', async () => {
    const reconcile = async () => (await ctx.as(auditor).get(`/v1/reports/reconciliation?from=${today()}&to=${today()}`).expect(200)).body;
    expect(await reconcile()).toMatchObject({ ok: true, differences: [] });
    const attacks: [string, string, string, object][] = [
      [
        'table_day_rollups',
        'premium_handle',
        `table_id = '${pit.table.id}'`,
        { tableId: pit.table.id, field: 'byDay.p_handle', rollup: '26001', raw: '26000' },
      ],
      [
        'wager_rollups',
        'premium_customer_net',
        `table_id = '${pit.table.id}' AND bet_type = 'BANKER'`,
        { betType: 'BANKER', field: 'byDayAndBet.p_net', rollup: '-1499', raw: '-1500' },
      ],
      [
        'patron_rollups',
        'dead_rolled',
        `patron_id = '${card}' AND bet_type = 'BANKER'`,
        { patronId: card, field: 'byPatronVisitAndBet.d_rolled', rollup: '11001', raw: '11000' },
      ],
      [
        'patron_coup_rollups',
        'dead_var_e12',
        `patron_id = '${card}' AND seating_key = 'ffffffff-ffff-ffff-ffff-ffffffffffff'`,
        { patronId: card, field: 'byPatronVisit.d_var' },
      ],
    ];
    for (const [table, column, where, finding] of attacks) {
      // As the database's owner, behind the service: one more minor unit in one column.
      await ctx.prisma.$executeRawUnsafe(`UPDATE ${table} SET ${column} = ${column} + 1 WHERE ${where}`);
      try {
        const found = await reconcile();
        expect([found.ok, found.differences]).toEqual([false, [expect.objectContaining(finding)]]);
      } finally {
        await ctx.prisma.$executeRawUnsafe(`UPDATE ${table} SET ${column} = ${column} - 1 WHERE ${where}`);
      }
    }
    expect(await reconcile()).toMatchObject({ ok: true });
  });
});

describe('a player-banked table-day', () => {
  it('has no chips of either kind on its coups: premium and mass are both nothing, the house commission its own line', async () => {
    const pit = await givenPit(ctx, { variant: 'CHEMIN_DE_FER' });
    const t = ctx.as(pit.terminal);
    const bank = await t.post(`/v1/shoes/${pit.shoe.id}/banks`, { bankerSeat: 1, amount: 10_000, rotation: [1, 2, 3] }).expect(201);
    // Seats 2 and 3 cover 50.00 of the bank; the banker's 7 beats the punter's 5: the house takes 5 % of the 50.00 won.
    await t
      .post(`/v1/banks/${bank.body.id}/coups`, {
        cards: { player: ['KS', '5D'], banker: ['7H', 'KC'] },
        stakes: [
          { seat: 2, amount: 3_000 },
          { seat: 3, amount: 2_000 },
        ],
      })
      .expect(201);
    const res = await ctx.as(finance).get(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=table,gamingDay`).expect(200);
    const nothing = { wagers: 0, handle: 0, win: 0, holdPercent: null, commissionCharged: 0, theoreticalWin: 0 };
    expect(res.body.rows.find((r: { group: { tableId: string } }) => r.group.tableId === pit.table.id)).toMatchObject({
      wagers: 0,
      handle: 0,
      bankedCoups: 1,
      houseCommission: 250,
      premium: nothing,
      mass: nothing,
    });
  });
});
