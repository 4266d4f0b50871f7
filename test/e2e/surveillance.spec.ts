import { Card, dealPuntoBanco, formatCard, pointOf, seededRandom, shuffledShoe } from '../../src/domain';
import { startTestApp, TestContext } from '../support/app';
import { givenKey, givenPit, givenShoe } from '../support/builders';

/**
 * Integrity surveillance end to end (docs/domain.md §9): coups recorded through the API, the worker
 * following the audit log, alerts read and handled through the API, every step audited.
 */
let ctx: TestContext;
let watcher: string;
beforeAll(async () => {
  ctx = await startTestApp({ SURVEILLANCE: 'on', SURVEILLANCE_POLL_MS: '20' });
  watcher = await givenKey(ctx, 'SURVEILLANCE');
});
afterAll(() => ctx.close());

interface Alert {
  id: string;
  kind: string;
  severity: string;
  status: string;
  pValue: number;
  threshold: number;
  patronId: string | null;
  dealerId: string | null;
  shoeId: string;
  evidence: Record<string, unknown>;
  steps: { step: string; note: string | null }[];
}

/** The alerts matching a query once the worker has surveyed everything recorded so far (it follows the log in order). */
async function alertsAfterSurvey(query: string, until: (a: Alert[]) => boolean): Promise<Alert[]> {
  for (let i = 0; i < 600; i++) {
    const res = await ctx.as(watcher).get(`/v1/surveillance/alerts?${query}`);
    expect(res.status).toBe(200);
    if (until(res.body as Alert[])) return res.body as Alert[];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no alerts matching ${query} after 30 s`);
}

/** Records coups dealt from `cards` until `count` coups or the cards run low; returns the cards used. */
async function deal(terminal: string, shoeId: string, cards: Card[], count: number, wagersFor: (first: Card) => unknown[] = () => []) {
  let pos = 0;
  for (let i = 0; i < count && pos + 6 <= cards.length - 20; i++) {
    const d = dealPuntoBanco(cards, pos)!;
    const res = await ctx
      .as(terminal)
      .post(`/v1/shoes/${shoeId}/coups`, { cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) }, wagers: wagersFor(cards[pos]) });
    if (res.status !== 201) throw new Error(`coup: ${res.status} ${JSON.stringify(res.body)}`);
    pos += d.used;
  }
  return cards.slice(0, pos);
}

describe('a shoe seen before', () => {
  it('a slug of the last shoe put back is an alert in the shoe it appears, with the run; people acknowledge and close it, audited', async () => {
    const pit = await givenPit(ctx, { code: 'SURV-RUN' });
    const first = await deal(pit.terminal, pit.shoe.id, shuffledShoe(8, seededRandom(41)), 40);
    expect((await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/close`, {})).status).toBe(200);

    // The next shoe: 16 cards of the last one's, in their order, put back 30 cards in.
    const slug = first.slice(100, 116);
    const rest = shuffledShoe(8, seededRandom(42));
    for (const c of slug) rest.splice(rest.indexOf(c), 1);
    const second = await givenShoe(ctx, pit.terminal, pit.table.id);
    await deal(pit.terminal, second.id, [...rest.slice(0, 30), ...slug, ...rest.slice(30)], 12);

    const [alert] = await alertsAfterSurvey(`kind=REPEATED_RUN&shoeId=${second.id}`, (a) => a.length > 0);
    expect(alert).toMatchObject({ kind: 'REPEATED_RUN', severity: 'HIGH', status: 'OPEN', shoeId: second.id, patronId: null, steps: [] });
    expect(alert.evidence).toMatchObject({ earlierShoeId: pit.shoe.id, at: 30, earlierAt: 100 });
    const run = alert.evidence.cards as string[];
    expect(run.length).toBeGreaterThanOrEqual(8);
    expect(run).toEqual(slug.slice(0, run.length).map(formatCard));
    expect(alert.pValue).toBeLessThan(alert.threshold);

    // Who may read and handle it.
    expect((await ctx.as(pit.terminal).get('/v1/surveillance/alerts')).status).toBe(403);
    expect((await ctx.as(await givenKey(ctx, 'FINANCE')).get(`/v1/surveillance/alerts/${alert.id}`)).status).toBe(403);
    const ack = await ctx.as(watcher).post(`/v1/surveillance/alerts/${alert.id}/acknowledge`, { note: 'pulling the shuffle footage' });
    expect([ack.status, ack.body.status, ack.body.steps]).toMatchObject([200, 'ACKNOWLEDGED', [{ step: 'ACKNOWLEDGE', note: 'pulling the shuffle footage' }]]);
    const again = await ctx.as(pit.supervisor).post(`/v1/surveillance/alerts/${alert.id}/acknowledge`, {});
    expect([again.status, again.body.code]).toEqual([409, 'ALERT_ALREADY_ACKNOWLEDGED']);
    expect((await ctx.as(watcher).post(`/v1/surveillance/alerts/${alert.id}/close`, { note: 'x' })).status).toBe(403);
    const noNote = await ctx.as(pit.supervisor).post(`/v1/surveillance/alerts/${alert.id}/close`, {});
    expect([noNote.status, noNote.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const closed = await ctx.as(pit.supervisor).post(`/v1/surveillance/alerts/${alert.id}/close`, { note: 'false shuffle confirmed; dealer suspended' });
    expect([closed.status, closed.body.status]).toEqual([200, 'CLOSED']);
    const late = await ctx.as(watcher).post(`/v1/surveillance/alerts/${alert.id}/acknowledge`, {});
    expect([late.status, late.body.code]).toEqual([409, 'ALERT_CLOSED']);
    expect((await ctx.as(watcher).get(`/v1/surveillance/alerts?status=CLOSED&shoeId=${second.id}`)).body).toHaveLength(1);
    expect((await ctx.as(watcher).get(`/v1/surveillance/alerts?status=OPEN&shoeId=${second.id}`)).body).toHaveLength(0);

    // Every step is in the audit chain, in the surveillance stream: never in the table's, which pit screens follow.
    const auditor = await givenKey(ctx, 'AUDITOR');
    const entries = (await ctx.as(auditor).get(`/v1/audit?stream=surveillance&entityId=${alert.id}`)).body as { action: string }[];
    expect(entries.map((e) => e.action)).toEqual(['alert.raise', 'alert.acknowledge', 'alert.close']);
    expect((await ctx.as(auditor).get(`/v1/audit?stream=${pit.table.id}&entityType=alert`)).body).toEqual([]);
    expect((await ctx.as(auditor).get('/v1/audit/verify')).body).toMatchObject({ ok: true });
  });

  it('refuses what a hostile client sends: unknown alerts, bad ids, bad filters', async () => {
    const missing = await ctx.as(watcher).get('/v1/surveillance/alerts/00000000-0000-4000-8000-000000000000');
    expect([missing.status, missing.body.code]).toEqual([404, 'NOT_FOUND']);
    for (const q of ['status=MAYBE', 'kind=EVERYTHING', 'tableId=1', 'patronId=%20drop', 'dealerId=' + 'x'.repeat(65)]) {
      const res = await ctx.as(watcher).get(`/v1/surveillance/alerts?${q}`);
      expect([q, res.status, res.body.code]).toEqual([q, 400, 'VALIDATION_FAILED']);
    }
    const bad = await ctx.as(await givenKey(ctx, 'SUPERVISOR')).post('/v1/surveillance/alerts/not-a-uuid/close', { note: 'x' });
    expect(bad.status).toBe(400);
  });
});

describe('a patron who sees the first card', () => {
  it('is an alert when the shoe closes (the first card’s worth, and the pairing with the dealer who dealt); an honest neighbour is not', async () => {
    const pit = await givenPit(ctx, { code: 'SURV-SEE', variant: 'EZ' });
    expect((await ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/dealers`, { dealerId: 'D-31' })).status).toBe(201);
    await deal(pit.terminal, pit.shoe.id, shuffledShoe(8, seededRandom(7)), 75, (first) => [
      pointOf(first) >= 7
        ? { seat: 1, betType: 'PLAYER', amount: 10_000, patronId: 'P-SEES' }
        : { seat: 1, betType: 'BANKER', amount: 1_000, patronId: 'P-SEES' },
      { seat: 2, betType: 'BANKER', amount: 2_000, patronId: 'P-HONEST' },
    ]);
    expect((await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/close`, {})).status).toBe(200);

    const alerts = await alertsAfterSurvey(`shoeId=${pit.shoe.id}`, (a) => a.some((x) => x.kind === 'FIRST_CARD_KNOWLEDGE'));
    const seen = alerts.find((a) => a.kind === 'FIRST_CARD_KNOWLEDGE')!;
    expect(seen).toMatchObject({ patronId: 'P-SEES', status: 'OPEN' });
    expect(seen.pValue).toBeLessThan(seen.threshold);
    expect(seen.evidence).toMatchObject({ decisions: 75 });
    expect(alerts.find((a) => a.kind === 'DEALER_PAIRING')).toMatchObject({ patronId: 'P-SEES', dealerId: 'D-31' });
    expect(alerts.filter((a) => a.patronId === 'P-HONEST')).toEqual([]);
    expect((await ctx.as(watcher).get('/v1/surveillance/alerts?patronId=P-SEES')).body.length).toBe(alerts.filter((a) => a.patronId === 'P-SEES').length);
  });
});
