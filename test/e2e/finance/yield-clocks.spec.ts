import { Client } from 'pg';
import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenTable } from '../../support/builders';
import { asOwner } from '../../support/owner';

/**
 * The yield advisor's weeks are the local calendar's (docs/domain.md §15): a week across a change of
 * the clocks is seven local days, and a table session opened days before the range counts from the
 * range's start. Tables stand open with nobody playing: the open time alone is checked.
 */
let ctx: TestContext;
let su: Client;
let finance: string;
let supervisor: string;
beforeAll(async () => {
  ctx = await startTestApp();
  [finance, supervisor] = await Promise.all([givenKey(ctx, 'FINANCE'), givenKey(ctx, 'SUPERVISOR')]);
  su = new Client({ connectionString: ctx.databaseUrl });
  await su.connect();
});
afterAll(async () => {
  await su?.end();
  await ctx?.close();
});

/** A property with one table, whose sessions are moved to the times given (as the superuser: the service has no clock to set). */
async function tableOpen(timeZone: string, spans: { day: string; open: string; close: string }[]): Promise<string> {
  const propertyId = (
    await ctx.admin
      .post('/v1/properties', { name: `Clock ${timeZone} ${process.pid} ${spans[0].day} ${Math.random()}`, timeZone, gamingDayStartHour: 6 })
      .expect(201)
  ).body.id as string;
  const table = await givenTable(ctx, { propertyId, currency: 'USD', minBet: 100 });
  for (const span of spans) {
    const s = (await ctx.as(supervisor).post(`/v1/tables/${table.id}/sessions`, { opener: [] }).expect(201)).body.id as string;
    await ctx.as(supervisor).post(`/v1/table-sessions/${s}/close`, { closer: [], drop: 0 }).expect(200);
    await asOwner(su, async () => {
      await su.query('UPDATE table_sessions SET opened_at = $2, closed_at = $3, gaming_day = $4 WHERE id = $1', [s, span.open, span.close, span.day]);
    });
  }
  return propertyId;
}

const advice = async (propertyId: string, from: string, to: string) =>
  (await ctx.as(finance).get(`/v1/reports/yield-advice?propertyId=${propertyId}&from=${from}&to=${to}`).expect(200)).body;

it('Monday 06:00 before and after the spring change of the clocks are two weeks, one table each', async () => {
  // New York: Monday 2 March 06:00–07:00 EST (11:00 UTC), Monday 9 March 06:00–07:00 EDT (10:00 UTC).
  const property = await tableOpen('America/New_York', [
    { day: '2026-03-02', open: '2026-03-02T11:00:00Z', close: '2026-03-02T12:00:00Z' },
    { day: '2026-03-09', open: '2026-03-09T10:00:00Z', close: '2026-03-09T11:00:00Z' },
  ]);
  const a = await advice(property, '2026-03-02', '2026-03-15');
  expect(a.weeks).toBe(2);
  const monday6 = a.hours.find((h: { hourOfWeek: number }) => h.hourOfWeek === 6);
  expect(monday6).toMatchObject({ weeks: 2, done: [{ minBet: 100, tables: '1.00' }] });
  expect(a.levels[0].tableHours).toBe('2.00');
});

it('the autumn change adds no week at the range end', async () => {
  const property = await tableOpen('America/New_York', [{ day: '2026-10-19', open: '2026-10-19T10:00:00Z', close: '2026-10-19T11:00:00Z' }]);
  const e = (await ctx.as(finance).get(`/v1/reports/yield-evaluation?propertyId=${property}&from=2026-10-19&to=2026-11-08&holdBackWeeks=2`).expect(200)).body;
  expect(e.heldWeeks).toBe(2);
});

it('a table session opened days before the range counts from its start', async () => {
  // Open from Monday 2 November 06:00 UTC to Sunday 15 November 06:00: the range 9–15 November sees 6 days of it.
  const property = await tableOpen('UTC', [{ day: '2026-11-02', open: '2026-11-02T06:00:00Z', close: '2026-11-15T06:00:00Z' }]);
  expect((await advice(property, '2026-11-02', '2026-11-15')).levels[0].tableHours).toBe('312.00');
  expect((await advice(property, '2026-11-09', '2026-11-15')).levels[0].tableHours).toBe('144.00');
});

it('refuses a property whose tables deal in several currencies: minimums of two currencies do not compare', async () => {
  const property = await tableOpen('UTC', [{ day: '2026-11-02', open: '2026-11-02T06:00:00Z', close: '2026-11-02T07:00:00Z' }]);
  await givenTable(ctx, { propertyId: property, currency: 'EUR', minBet: 100 });
  const res = await ctx.as(finance).get(`/v1/reports/yield-advice?propertyId=${property}&from=2026-11-02&to=2026-11-08`);
  expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  expect(res.body.message).toMatch(/EUR and USD|USD and EUR/);
});
