import { dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../../../src/domain';
import { ADMIN_KEY, AUDIT_KEYS, AUDIT_SIGNING_KEY, startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPit, givenShoe } from '../../support/builders';
import { ensureBuilt, exited, Service, startService } from '../../support/process';

/**
 * SURVEILLANCE=only (docs/domain.md §9, docker-compose.yml): surveillance as a process of its own,
 * beside a pit instance that does none (the test app runs with SURVEILLANCE=off): it serves no API,
 * surveys what the pit records, and stops cleanly.
 */
jest.setTimeout(90_000);
let ctx: TestContext;
let surveyor: Service;
beforeAll(async () => {
  ensureBuilt();
  ctx = await startTestApp();
});
afterAll(async () => {
  if (surveyor && surveyor.child.exitCode === null) surveyor.child.kill('SIGKILL');
  await ctx.close();
});

it('surveys what the pit records, serves nothing, and stops on SIGTERM', async () => {
  const pit = await givenPit(ctx, { code: 'SURVEYOR-ONLY' });
  const deal = async (shoeId: string, cards: number[], coups: number) => {
    let pos = 0;
    for (let i = 0; i < coups; i++) {
      const d = dealPuntoBanco(cards, pos)!;
      const res = await ctx
        .as(pit.terminal)
        .post(`/v1/shoes/${shoeId}/coups`, { cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) } });
      expect(res.status).toBe(201);
      pos += d.used;
    }
    return cards.slice(0, pos);
  };
  const first = await deal(pit.shoe.id, shuffledShoe(8, seededRandom(61)), 40);
  expect((await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/close`, {})).status).toBe(200);
  const slug = first.slice(60, 72);
  const rest = shuffledShoe(8, seededRandom(62));
  for (const c of slug) rest.splice(rest.indexOf(c), 1);
  const second = await givenShoe(ctx, pit.terminal, pit.table.id);
  await deal(second.id, [...rest.slice(0, 20), ...slug, ...rest.slice(20)], 12);

  surveyor = startService({
    DATABASE_URL: ctx.databaseUrl,
    ADMIN_API_KEY: ADMIN_KEY,
    AUDIT_KEYS,
    AUDIT_SIGNING_KEY,
    SURVEILLANCE: 'only',
    SURVEILLANCE_POLL_MS: '20',
  });
  const watcher = await givenKey(ctx, 'SURVEILLANCE');
  let alerts: { kind: string; evidence: { length: number } }[] = [];
  for (let i = 0; i < 300 && alerts.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    alerts = (await ctx.as(watcher).get(`/v1/surveillance/alerts?shoeId=${second.id}`)).body;
  }
  expect(alerts.map((a) => [a.kind, a.evidence.length])).toEqual([['REPEATED_RUN', 12]]);
  expect(surveyor.output()).toContain('Surveying only (SURVEILLANCE=only): no API in this process');
  expect(surveyor.output()).not.toContain('Serving on');
  surveyor.child.kill('SIGTERM');
  expect(await exited(surveyor.child)).toBe(0);
});
