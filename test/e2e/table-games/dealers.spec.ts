import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPit } from '../../support/builders';

/** POST/GET /v1/tables/{id}/dealers: who dealt each table when; a dealer is in one place at a time. */
let ctx: TestContext;
beforeAll(async () => (ctx = await startTestApp()));
afterAll(() => ctx.close());

describe('dealer rotations', () => {
  it('a shift ends when the next dealer takes the table, or when the dealer takes another table', async () => {
    const a = await givenPit(ctx, { code: 'DEAL-A' });
    const b = await givenPit(ctx, { code: 'DEAL-B' });
    const ta = ctx.as(a.terminal);
    const first = await ta.post(`/v1/tables/${a.table.id}/dealers`, { dealerId: 'D-1' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ tableId: a.table.id, dealerId: 'D-1', endedAt: null });
    const second = await ta.post(`/v1/tables/${a.table.id}/dealers`, { dealerId: 'D-2' });
    expect(second.status).toBe(201);
    // D-2 moves to table B: their shift at A ends there, and A has no dealer until the next.
    const moved = await ctx.as(b.terminal).post(`/v1/tables/${b.table.id}/dealers`, { dealerId: 'D-2' });
    expect(moved.status).toBe(201);

    const shifts = (await ta.get(`/v1/tables/${a.table.id}/dealers`)).body as { dealerId: string; startedAt: string; endedAt: string | null }[];
    expect(shifts.map((s) => s.dealerId)).toEqual(['D-1', 'D-2']);
    expect(shifts[0].endedAt).toBe(second.body.startedAt);
    expect(shifts[1].endedAt).toBe(moved.body.startedAt);
    expect((await ctx.as(b.terminal).get(`/v1/tables/${b.table.id}/dealers`)).body).toMatchObject([{ dealerId: 'D-2', endedAt: null }]);

    // D-2 came back to A: dealing A again is a new shift, not a refusal.
    expect((await ta.post(`/v1/tables/${a.table.id}/dealers`, { dealerId: 'D-2' })).status).toBe(201);
  });

  it('each change is in the table’s audit stream (and so on its event stream)', async () => {
    const pit = await givenPit(ctx, { code: 'DEAL-C' });
    await ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/dealers`, { dealerId: 'D-7' });
    await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/dealers`, { dealerId: 'D-8' });
    const auditor = await givenKey(ctx, 'AUDITOR');
    const entries = (await ctx.as(auditor).get(`/v1/audit?stream=${pit.table.id}&action=dealer.change`)).body as { entry: Record<string, unknown> }[];
    expect(entries.map((e) => e.entry.data)).toMatchObject([
      { dealerId: 'D-7', previousDealerId: null },
      { dealerId: 'D-8', previousDealerId: 'D-7' },
    ]);
  });

  it('refusals: the same dealer again, a closed table, another table’s terminal, bad ids; nothing written', async () => {
    const pit = await givenPit(ctx, { code: 'DEAL-D' });
    const other = await givenPit(ctx, { code: 'DEAL-E' });
    const t = ctx.as(pit.terminal);
    const path = `/v1/tables/${pit.table.id}/dealers`;
    expect((await t.post(path, { dealerId: 'D-9' })).status).toBe(201);
    const refusals: [unknown, number, string][] = [
      [{ dealerId: 'D-9' }, 409, 'DEALER_ALREADY_DEALING'],
      [{}, 400, 'VALIDATION_FAILED'],
      [{ dealerId: '' }, 400, 'VALIDATION_FAILED'],
      [{ dealerId: 'D 9; DROP TABLE' }, 400, 'VALIDATION_FAILED'],
      [{ dealerId: 'x'.repeat(65) }, 400, 'VALIDATION_FAILED'],
      [{ dealerId: 42 }, 400, 'VALIDATION_FAILED'],
      [{ dealerId: 'D-10', extra: true }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [body, status, code] of refusals) {
      const res = await t.post(path, body);
      expect([res.status, res.body.code]).toEqual([status, code]);
    }
    const theirs = await ctx.as(other.terminal).post(path, { dealerId: 'D-10' });
    expect([theirs.status, theirs.body.code]).toEqual([403, 'FORBIDDEN']);
    const unknown = await ctx.as(pit.supervisor).post('/v1/tables/00000000-0000-4000-8000-000000000000/dealers', { dealerId: 'D-10' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);

    await t.post(`/v1/shoes/${pit.shoe.id}/close`, {});
    expect((await ctx.as(pit.supervisor).post(`/v1/tables/${pit.table.id}/close`, {})).status).toBe(200);
    const closed = await ctx.as(pit.supervisor).post(path, { dealerId: 'D-11' });
    expect([closed.status, closed.body.code]).toEqual([409, 'TABLE_CLOSED']);

    expect(((await t.get(path)).body as { dealerId: string }[]).map((s) => s.dealerId)).toEqual(['D-9']);
  });
});
