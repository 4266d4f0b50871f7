import { BetType, coupVarianceE12, quantisedCovariances, ruleSet, theoreticalStdDev } from '../../../src/domain';
import { startTestApp, TestContext } from '../../support/app';
import { dealtHands, givenKey, givenPit, givenVoid } from '../../support/builders';

/**
 * The statistical band of theoretical win, through the API: each coup's variance is its stakes per
 * bet through the bets' exact covariances (the engine's, docs/domain.md §6); the rollups keep it with
 * the coup, a void takes it out, and the reconciliation recomputes it from the raw wagers in SQL.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const SIDE = ['PLAYER_PAIR', 'BANKER_PAIR'] as const;

it("a day's band is √ of its coups' variances, hedged bets counted as hedged; a void takes its coup out", async () => {
  const pit = await givenPit(ctx, { code: 'BAND-1', sideBets: SIDE });
  const finance = await givenKey(ctx, 'FINANCE');
  const rules = ruleSet({ variant: 'COMMISSION', sideBets: [...SIDE] });
  const cov = quantisedCovariances(rules);
  const coups: [BetType, bigint][][] = [
    [
      ['BANKER', 10_000n],
      ['PLAYER', 10_000n],
    ], // hedged: little variance left
    [
      ['BANKER', 5_000n],
      ['BANKER', 2_500n],
      ['TIE', 1_000n],
      ['PLAYER_PAIR', 500n],
    ],
    [['PLAYER', 20_000n]],
  ];
  const hands = dealtHands(8, 61, coups.length);
  const ids: string[] = [];
  for (const [i, wagers] of coups.entries()) {
    const res = await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`)
      .send({ cards: hands[i], wagers: wagers.map(([betType, amount], seat) => ({ seat: seat + 1, betType, amount: Number(amount) })) });
    expect(res.status).toBe(201);
    ids.push(res.body.id as string);
  }
  const day = (await ctx.as(finance).get(`/v1/coups/${ids[0]}`)).body.gamingDay as string;
  const stakesOf = (wagers: [BetType, bigint][]) => {
    const m = new Map<BetType, bigint>();
    for (const [b, s] of wagers) m.set(b, (m.get(b) ?? 0n) + s);
    return m;
  };
  const varOf = (list: [BetType, bigint][][]) => list.reduce((v, w) => v + coupVarianceE12(stakesOf(w), cov), 0n);
  const report = async (groupBy: string) =>
    (await ctx.as(finance).get(`/v1/reports/win-loss?from=${day}&to=${day}&groupBy=${groupBy}&propertyId=${pit.table.propertyId}`)).body as {
      rows: { group: Record<string, string>; theoreticalWinStdDev: number }[];
    };

  const byTable = (await report('table')).rows.find((r) => r.group.tableCode === 'BAND-1')!;
  expect(byTable.theoreticalWinStdDev).toBe(Number(theoreticalStdDev(varOf(coups))));
  // Hedged, the first coup adds far less than its two stakes would apart.
  const apart = coupVarianceE12(new Map([['BANKER', 10_000n]]), cov) + coupVarianceE12(new Map([['PLAYER', 10_000n]]), cov);
  expect(coupVarianceE12(stakesOf(coups[0]), cov) * 20n).toBeLessThan(apart);

  // By bet type: each bet's own part, its stakes on each coup squared.
  const byBet = new Map(
    (await report('table,betType')).rows.filter((r) => r.group.tableCode === 'BAND-1').map((r) => [r.group.betType, r.theoreticalWinStdDev]),
  );
  const own = (b: BetType) =>
    coups.reduce((v, w) => {
      const s = stakesOf(w).get(b);
      return s === undefined ? v : v + coupVarianceE12(new Map([[b, s]]), cov);
    }, 0n);
  for (const b of ['BANKER', 'PLAYER', 'TIE', 'PLAYER_PAIR'] as const) expect([b, byBet.get(b)]).toEqual([b, Number(theoreticalStdDev(own(b)))]);
  // Its total is still the band of the coups as played, hedges included, not the bets' parts added.
  const totals = (await ctx.as(finance).get(`/v1/reports/win-loss?from=${day}&to=${day}&groupBy=betType&propertyId=${pit.table.propertyId}`)).body.totals as {
    theoreticalWinStdDev: number;
  };
  expect(totals.theoreticalWinStdDev).toBe(Number(theoreticalStdDev(varOf(coups))));

  // A void takes the coup's variance out again; the reconciliation agrees with the rollups.
  const s2 = await givenKey(ctx, 'SUPERVISOR');
  await givenVoid(ctx, 'coups', ids[1], 'Dealt from the wrong shoe', pit.supervisor, s2);
  const after = (await report('table')).rows.find((r) => r.group.tableCode === 'BAND-1')!;
  expect(after.theoreticalWinStdDev).toBe(Number(theoreticalStdDev(varOf([coups[0], coups[2]]))));
  const rec = await ctx.as(finance).get(`/v1/reports/reconciliation?from=${day}&to=${day}`);
  expect(rec.body).toMatchObject({ ok: true, differences: [] });
});
