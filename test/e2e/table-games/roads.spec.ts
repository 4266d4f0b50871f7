import { randomUUID } from 'node:crypto';
import { RoadCoup, roadsOf } from '../../../src/domain';
import { startTestApp, TestContext } from '../../support/app';
import { dealtHands, givenKey, givenPit, givenVoid } from '../../support/builders';

/** GET /v1/shoes/{id}/roads: the engine's roads over the shoe's settled coups; a void takes its coup off. */
let ctx: TestContext;
beforeAll(async () => (ctx = await startTestApp()));
afterAll(() => ctx.close());

interface CoupAnswer {
  number: number;
  status: string;
  void: unknown;
  outcome: { winner: RoadCoup['winner']; natural: boolean; playerPair: boolean; bankerPair: boolean } | null;
}

const asRoadCoups = (coups: CoupAnswer[]): RoadCoup[] =>
  coups
    .filter((c) => c.status === 'SETTLED' && c.void === null)
    .map((c) => ({
      number: c.number,
      winner: c.outcome!.winner,
      natural: c.outcome!.natural,
      playerPair: c.outcome!.playerPair,
      bankerPair: c.outcome!.bankerPair,
    }));

describe('the roads of a shoe', () => {
  it('are the engine’s roads of its coups; a voided coup leaves no mark; a coup taking bets none yet', async () => {
    const pit = await givenPit(ctx, { code: 'ROADS-1' });
    const t = ctx.as(pit.terminal);
    const empty = await t.get(`/v1/shoes/${pit.shoe.id}/roads`);
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ shoeId: pit.shoe.id, coups: 0, beadPlate: { rows: 6, columns: 0, cells: [] }, bigRoad: { cells: [] } });

    for (const cards of dealtHands(8, 1717, 45)) expect((await t.post(`/v1/shoes/${pit.shoe.id}/coups`).send({ cards })).status).toBe(201);
    const all = (await t.get(`/v1/shoes/${pit.shoe.id}/coups`)).body as CoupAnswer[];
    const roads = await t.get(`/v1/shoes/${pit.shoe.id}/roads`);
    expect(roads.status).toBe(200);
    expect(roads.body).toEqual({ shoeId: pit.shoe.id, coups: 45, ...JSON.parse(JSON.stringify(roadsOf(asRoadCoups(all)))) });
    expect(roads.body.beadPlate.cells).toHaveLength(45);
    expect(roads.body.bigRoad.cells.length).toBe(roads.body.counts.banker + roads.body.counts.player);

    // Void coup 12: it leaves the bead plate, and the roads are those of the other 44.
    const twelfth = all.find((c) => c.number === 12) as CoupAnswer & { id: string };
    await givenVoid(ctx, 'coups', twelfth.id, 'dealt from the wrong shoe', await givenKey(ctx, 'SUPERVISOR'), await givenKey(ctx, 'SUPERVISOR'));
    const after = (await t.get(`/v1/shoes/${pit.shoe.id}/roads`)).body;
    expect(after.coups).toBe(44);
    expect(after.beadPlate.cells.map((c: { coup: number }) => c.coup)).not.toContain(12);
    expect(after).toEqual({ shoeId: pit.shoe.id, coups: 44, ...JSON.parse(JSON.stringify(roadsOf(asRoadCoups(all).filter((c) => c.number !== 12)))) });

    // A coup taking bets has no cards yet: no mark until it is dealt.
    expect((await t.post(`/v1/shoes/${pit.shoe.id}/coups`).send({ wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] })).status).toBe(201);
    expect((await t.get(`/v1/shoes/${pit.shoe.id}/roads`)).body).toEqual(after);
  });

  it('a terminal reads only its own table’s roads; an unknown shoe is 404', async () => {
    const mine = await givenPit(ctx, { code: 'ROADS-2' });
    const theirs = await givenPit(ctx, { code: 'ROADS-3' });
    const refused = await ctx.as(mine.terminal).get(`/v1/shoes/${theirs.shoe.id}/roads`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    const missing = await ctx.as(mine.supervisor).get(`/v1/shoes/${randomUUID()}/roads`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
  });
});
