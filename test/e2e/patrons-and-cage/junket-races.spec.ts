import { Client } from 'pg';
import { gamingDayOf } from '../../../src/domain';
import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPatrons, givenShoe, givenTable } from '../../support/builders';
import { approvedStatementRequest, givenProgramme } from '../../support/credit-acts';
import { asOwner } from '../../support/owner';

/**
 * A junket's period agreed while a void of one of its coups is approved (docs/domain.md §16): the
 * two never both pass. Whichever order the database takes them in, either the void is refused by the
 * agreement, or the agreement sees the void and refuses figures the junket did not see. Asserted on
 * every try, whatever the timing.
 */
let ctx: TestContext;
let su: Client;
const P = process.pid;
const M = `JKR-${P}`;
const days: string[] = [];
const coups: string[] = [];
let junketId: string;
let finance: string;
let s1: string;
let s2: string;

beforeAll(async () => {
  ctx = await startTestApp();
  [finance, s1, s2] = await Promise.all(['FINANCE', 'SUPERVISOR', 'SUPERVISOR'].map((r) => givenKey(ctx, r)));
  const host = await givenKey(ctx, 'HOST');
  const propertyId = (await ctx.admin.post('/v1/properties', { name: `Race house ${P}`, timeZone: 'UTC', gamingDayStartHour: 6 }).expect(201)).body.id;
  const today = gamingDayOf(new Date(), 'UTC', 6);
  const table = await givenTable(ctx, { propertyId, currency: 'HKD', minBet: 100, maxBet: 10_000_000 });
  const terminal = await givenKey(ctx, 'TERMINAL', table.id);
  const shoe = await givenShoe(ctx, terminal, table.id);
  await givenPatrons(ctx, M);
  await givenProgramme(ctx, finance, propertyId, { code: 'R', name: 'R', basis: 'ROLLING', commissionBps: 125, effectiveFrom: today });
  junketId = (await ctx.as(finance).post(`/v1/properties/${propertyId}/junkets`, { code: 'RACE', name: 'Race', currency: 'HKD', creditLimit: 0 }).expect(201))
    .body.id;
  await ctx.as(host).post(`/v1/junkets/${junketId}/members`, { patronId: M, programme: 'R' }).expect(201);
  // The dead chips M plays, bought at the cage (converted from cash chips): moved back to the first day below.
  const cashier = await givenKey(ctx, 'CASHIER');
  await ctx
    .as(cashier)
    .post(`/v1/patrons/${M}/chip-exchanges`, { kind: 'PURCHASE', amount: 800_000, settledIn: 'CASH_CHIPS', propertyId, currency: 'HKD' })
    .expect(201);
  // Two coups of M's dead chips on each of four days gone by (moved back as the superuser: the service has no clock to set).
  for (let i = 0; i < 8; i++) {
    const res = await ctx
      .as(terminal)
      .post(`/v1/shoes/${shoe.id}/coups`, {
        cards: { player: ['8S', 'KH'], banker: ['QS', 'JD'] },
        wagers: [{ seat: 1, betType: 'BANKER', amount: 100_000, patronId: M, chipKind: 'DEAD' }],
      })
      .expect(201);
    coups.push(res.body.id);
  }
  su = new Client({ connectionString: ctx.databaseUrl });
  await su.connect();
  await asOwner(su, async () => {
    for (let d = 0; d < 4; d++) {
      const day = new Date(Date.parse(`${today}T00:00:00Z`) - (20 - d) * 86_400_000).toISOString().slice(0, 10);
      days.push(day);
      const ids = coups.slice(2 * d, 2 * d + 2);
      await su.query('UPDATE coups SET gaming_day = $2 WHERE id = ANY ($1::uuid[])', [ids, day]);
      await su.query('UPDATE wagers SET gaming_day = $2 WHERE coup_id = ANY ($1::uuid[])', [ids, day]);
    }
    // M's patron rollup of today, the eight identical coups' sums, split as they now fall: two coups a day.
    const quarter = [
      'wagers',
      'handle',
      'customer_net',
      'theo_e12',
      'dead_wagers',
      'dead_handle',
      'dead_customer_net',
      'dead_rolled',
      'dead_theo_e12',
      'dead_expected_rolled_e12',
    ]
      .map((c) => `${c} = ${c} / 4`)
      .join(', ');
    await su.query(`UPDATE patron_rollups SET gaming_day = $2, ${quarter} WHERE patron_id = $1`, [M, days[0]]);
    await su.query('UPDATE chip_exchanges SET gaming_day = $2 WHERE patron_id = $1', [M, days[0]]);
    for (const day of days.slice(1))
      await su.query(
        `INSERT INTO patron_rollups SELECT (jsonb_populate_record(NULL::patron_rollups, to_jsonb(r) || jsonb_build_object('gaming_day', $2::text))).* FROM patron_rollups r WHERE r.patron_id = $1 AND r.gaming_day = $3`,
        [M, day, days[0]],
      );
    await su.query('UPDATE rolling_programmes SET effective_from = effective_from - 30 WHERE property_id = $1', [propertyId]);
    await su.query('UPDATE junket_memberships SET effective_from = effective_from - 30 WHERE property_id = $1', [propertyId]);
  });
}, 120_000);
afterAll(async () => {
  await su?.end();
  await ctx?.close();
});

it('an agreement and a void approval of a coup in its period: never both', async () => {
  const outcomes: string[] = [];
  for (let d = 0; d < days.length; d++) {
    const day = days[d];
    const asked = await ctx
      .as(s1)
      .post(`/v1/coups/${coups[2 * d]}/void`, { reason: 'keyed twice' })
      .expect(202);
    const { digest, figures } = (await ctx.as(finance).get(`/v1/junkets/${junketId}/statement?from=${day}&to=${day}`).expect(200)).body;
    expect(figures.totals.rolled).toBe(200_000); // the day's two coups, each a Banker 1,000.00 of M's lost
    // Asked and approved for the casino before the race: the agreement's recording races the void's approval.
    const terms = { from: day, to: day, junketSignatory: 'S', digest };
    const requestId = await approvedStatementRequest(ctx, junketId, terms);
    const [agreed, approved] = await Promise.all([
      ctx.as(finance).post(`/v1/junkets/${junketId}/statements`, { ...terms, requestId }),
      ctx.as(s2).post(`/v1/void-requests/${asked.body.voidRequestId}/approve`, {}),
    ]);
    const outcome = `${agreed.status} ${agreed.body.code ?? ''} / ${approved.status} ${approved.body.code ?? ''}`;
    outcomes.push(outcome);
    // Agreed first: the void is refused. Voided first: the agreement refuses figures the junket did not see.
    expect([`201  / 409 JUNKET_PERIOD_LOCKED`, `409 CONFLICT / 200 `]).toContain(outcome);
    if (agreed.status !== 201) {
      const again = (await ctx.as(finance).get(`/v1/junkets/${junketId}/statement?from=${day}&to=${day}`).expect(200)).body.digest;
      const retry = { from: day, to: day, junketSignatory: 'S', digest: again };
      await ctx
        .as(finance)
        .post(`/v1/junkets/${junketId}/statements`, { ...retry, requestId: await approvedStatementRequest(ctx, junketId, retry) })
        .expect(201);
    }
    expect((await ctx.as(finance).get(`/v1/junkets/${junketId}/statement?from=${day}&to=${day}`).expect(200)).body).toMatchObject({
      status: 'AGREED',
      reproduced: true,
    });
  }
  console.log(`junket races: ${outcomes.join('; ')}`);
}, 60_000);
