import { ADMIN_KEY, listening, startTestApp, TestContext } from '../../support/app';
import { givenKey } from '../../support/builders';
import { simulate } from '../../../bench/table-sim';

/**
 * The table simulator (npm run sim:table, issue 51) against the service: tables whose devices report
 * seeded shoes over real WebSockets with a fault put into about half their coups. Every fault is held
 * with the reason it must give, the chip reader restarting (no fault) holds nothing, no clean coup is
 * held, and the service settles exactly the clean coups. Its pace is the test's own (no waiting).
 */
jest.setTimeout(180_000);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

it('catches every fault put in, holds nothing clean, and settles every clean coup', async () => {
  const url = await listening(ctx.app);
  const result = await simulate(url, ADMIN_KEY, await givenKey(ctx, 'SUPERVISOR'), {
    tables: 3,
    coups: 24,
    coupsPerHour: 60,
    speed: 1e9,
    faultRate: 0.5,
    seed: 51,
  });
  expect({ missed: result.faults.missedWhere, heldWrongly: result.heldWrongly }).toEqual({ missed: [], heldWrongly: [] });
  expect(result.faults.caught).toBeGreaterThan(10);
  // Every kind of fault was put in at least once across the tables.
  expect(Object.keys(result.faults.byKind).length).toBeGreaterThanOrEqual(6);
  expect(result.settled).toBe(result.cleanCoups);
  expect(result.cleanCoups).toBeGreaterThan(20);
});
