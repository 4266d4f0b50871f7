import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPit } from '../../support/builders';

/**
 * A coup sent with its number and the time a terminal recorded it (a pit terminal that recorded it
 * while the service could not be reached, issue 50): it is that coup or none. Two terminals that
 * recorded the same coup offline end with one coup and one clear refusal; a time it cannot have
 * been recorded at is refused; each such coup is in the exception report with its delay.
 */
let ctx: TestContext;
beforeAll(async () => (ctx = await startTestApp()));
afterAll(() => ctx.close());

const natural = { player: ['4H', '4C'], banker: ['KD', '7S'] };
const bankerNine = { player: ['KH', 'QC'], banker: ['KS', '9D'] };

describe('coups recorded offline', () => {
  it('two terminals that recorded the same coup offline: one coup, and COUP_NUMBER_TAKEN for the other, whatever the order they arrive in', async () => {
    const pit = await givenPit(ctx, { code: `OFF-A-${process.pid}` });
    const other = await givenKey(ctx, 'TERMINAL', pit.table.id);
    const [a, b] = await Promise.all([
      ctx
        .as(pit.terminal)
        .post(`/v1/shoes/${pit.shoe.id}/coups`, { number: 1, cards: natural, wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }] })
        .set('Idempotency-Key', `off-a-${process.pid}`),
      ctx
        .as(other)
        .post(`/v1/shoes/${pit.shoe.id}/coups`, { number: 1, cards: bankerNine, wagers: [{ seat: 2, betType: 'BANKER', amount: 2000 }] })
        .set('Idempotency-Key', `off-b-${process.pid}`),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const refused = a.status === 409 ? a : b;
    expect(refused.body.code).toBe('COUP_NUMBER_TAKEN');
    expect(refused.body.message).toMatch(/Coup 1 of this shoe is already recorded/);
    const coups = (await ctx.as(pit.supervisor).get(`/v1/shoes/${pit.shoe.id}/coups`).expect(200)).body as { number: number }[];
    expect(coups.map((c) => c.number)).toEqual([1]);

    // The winner's retry (its answer lost) is answered as recorded, not refused as taken.
    const won = a.status === 201 ? a : b;
    const key = a.status === 201 ? pit.terminal : other;
    const retry = await ctx
      .as(key)
      .post(
        `/v1/shoes/${pit.shoe.id}/coups`,
        a.status === 201
          ? { number: 1, cards: natural, wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }] }
          : { number: 1, cards: bankerNine, wagers: [{ seat: 2, betType: 'BANKER', amount: 2000 }] },
      )
      .set('Idempotency-Key', a.status === 201 ? `off-a-${process.pid}` : `off-b-${process.pid}`);
    expect([retry.status, retry.body.id]).toEqual([201, won.body.id]);

    // A number past the next (a coup before it was never sent) is refused too, and writes nothing.
    const ahead = await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { number: 3, cards: natural });
    expect([ahead.status, ahead.body.code]).toEqual([409, 'COUP_NUMBER_TAKEN']);
    expect(ahead.body.message).toMatch(/next coup of this shoe is coup 2, not 3/);
    // Opening a coup for betting checks the number as well.
    const open = await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { number: 1 });
    expect([open.status, open.body.code]).toEqual([409, 'COUP_NUMBER_TAKEN']);
    expect((await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { number: 2, cards: natural })).status).toBe(201);
  });

  it('keeps the time the terminal recorded the coup, refuses an impossible one, and lists each such coup in the exception report with its delay', async () => {
    const pit = await givenPit(ctx, { code: `OFF-B-${process.pid}` });
    const t = ctx.as(pit.terminal);
    // The shoe was opened ten minutes ago (set by the database's owner, before any coup): the terminal went offline meanwhile.
    await ctx.prisma.$executeRaw`UPDATE shoes SET opened_at = opened_at - interval '10 minutes' WHERE id = ${pit.shoe.id}::uuid`;
    const shoe = (await t.get(`/v1/shoes/${pit.shoe.id}`).expect(200)).body;
    const late = await t.post(`/v1/shoes/${pit.shoe.id}/coups`, { number: 1, cards: natural, recordedAt: new Date(Date.now() + 10 * 60_000).toISOString() });
    expect([late.status, late.body.code]).toEqual([422, 'COUP_TIME_IMPOSSIBLE']);
    const early = await t.post(`/v1/shoes/${pit.shoe.id}/coups`, {
      number: 1,
      cards: natural,
      recordedAt: new Date(Date.parse(shoe.openedAt) - 60_000).toISOString(),
    });
    expect([early.status, early.body.code]).toEqual([422, 'COUP_TIME_IMPOSSIBLE']);
    expect((await t.post(`/v1/shoes/${pit.shoe.id}/coups`, { recordedAt: new Date().toISOString() })).status).toBe(400);

    // Recorded offline a second after the shoe opened, sent (about) ten minutes later.
    const recordedAt = new Date(Date.parse(shoe.openedAt) + 1000).toISOString();
    const sent = await t
      .post(`/v1/shoes/${pit.shoe.id}/coups`, { number: 1, cards: natural, recordedAt, wagers: [{ seat: 1, betType: 'PLAYER', amount: 500 }] })
      .expect(201);
    // One sent as it was recorded, and one sent a few seconds later (a slow network), are not listed.
    await t.post(`/v1/shoes/${pit.shoe.id}/coups`, { number: 2, cards: bankerNine, recordedAt: new Date().toISOString() }).expect(201);
    await t.post(`/v1/shoes/${pit.shoe.id}/coups`, { number: 3, cards: natural, recordedAt: new Date(Date.now() - 20_000).toISOString() }).expect(201);

    const day = sent.body.gamingDay as string;
    const [year, month] = day.split('-').map(Number);
    const q = (
      await ctx
        .as(pit.supervisor)
        .get(`/v1/reports/quarterly?year=${year}&quarter=${Math.ceil(month / 3)}&propertyId=${pit.table.propertyId}`)
        .expect(200)
    ).body;
    const listed = (q.exceptions.coupsRecordedOffline as { coupId: string }[]).filter((c) => c.coupId === sent.body.id);
    expect(listed).toHaveLength(1);
    const row = listed[0] as Record<string, unknown>;
    expect(row).toMatchObject({ tableCode: pit.table.code, shoeNumber: 1, coupNumber: 1, gamingDay: day, recordedAt, voided: false });
    const delay = Math.floor((Date.parse(row.arrivedAt as string) - Date.parse(recordedAt)) / 1000);
    expect(row.delaySeconds).toBe(delay);
    expect(delay).toBeGreaterThanOrEqual(590);
    expect(
      q.exceptions.coupsRecordedOffline.filter((c: { tableCode: string }) => c.tableCode === pit.table.code).map((c: { coupNumber: number }) => c.coupNumber),
    ).toEqual([1]);

    // The audit entry says it too.
    const entry = await ctx.prisma.auditEntry.findMany({ where: { entityId: sent.body.id, action: 'coup.settle' }, select: { payload: true } });
    expect(entry.map((e) => (JSON.parse(e.payload) as { data: { recordedOfflineAt?: string } }).data.recordedOfflineAt)).toEqual([recordedAt]);
  });
});
