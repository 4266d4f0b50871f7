import fs from 'node:fs';
import os from 'node:os';
import { Card, dealPuntoBanco, formatCard, pointOf, seededRandom, shuffledShoe } from '../../../src/domain';
import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPatrons, givenPit, givenShoe } from '../../support/builders';

/**
 * Integrity surveillance end to end (docs/domain.md §9): coups recorded through the API, the worker
 * following the audit log, alerts read and handled through the API, every step audited.
 */
let ctx: TestContext;
let watcher: string;
beforeAll(async () => {
  ctx = await startTestApp({ SURVEILLANCE: 'on', SURVEILLANCE_POLL_MS: '20' });
  watcher = await givenKey(ctx, 'SURVEILLANCE');
  await givenPatrons(ctx, 'P-SEES', 'P-HONEST');
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
  seat: number | null;
  shoeId: string;
  gamingDay: string;
  createdAt: string;
  evidence: Record<string, unknown>;
  steps: { step: string; note: string | null }[];
  updates: { at: string; eValue: number; pValue: number; evidence: Record<string, unknown> }[];
}

/** The alerts matching a query once the worker has surveyed everything recorded so far (it follows the log in order). */
async function alertsAfterSurvey(query: string, until: (a: Alert[]) => boolean): Promise<Alert[]> {
  let last: Alert[] = [];
  for (let i = 0; i < 400; i++) {
    const res = await ctx.as(watcher).get(`/v1/surveillance/alerts?${query}`);
    expect(res.status).toBe(200);
    last = res.body as Alert[];
    if (until(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no alerts matching ${query} after 20 s; there were: ${JSON.stringify(last.map((a) => [a.kind, a.dealerId, a.pValue, a.updates.length]))}`);
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
    // Raised once the run had ended, at its full length (the 16 cards of the slug), not at the 8 that first matched.
    expect(alert.evidence).toMatchObject({ earlierShoeId: pit.shoe.id, at: 30, earlierAt: 100, length: 16 });
    expect(alert.evidence.cards).toEqual(slug.map(formatCard));
    expect(alert.evidence.reason).toMatch(/^16 cards came out in the same order as in an earlier shoe, one of the table’s last shoes/);
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

/** The surveillance thread's connections: the one surveyor holds the advisory lock. */
async function surveyorBackends(): Promise<{ pid: number; locked: boolean }[]> {
  return ctx.prisma.$queryRawUnsafe(
    `SELECT a.pid, EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory' AND l.granted) AS locked
     FROM pg_stat_activity a WHERE a.datname = current_database() AND a.application_name = 'sabot surveillance'`,
  );
}

describe('the surveillance thread', () => {
  // Linux only, and only where the process does not run at the lowest priority already.
  (fs.existsSync('/proc/self/task') && os.getPriority() < 19 ? it : it.skip)('runs at the lowest priority (nice 19), and only itself', () => {
    const nice = fs.readdirSync('/proc/self/task').map((t) => {
      const stat = fs.readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    });
    expect(nice.filter((n) => n === 19)).toHaveLength(1);
    expect(new Set(nice.filter((n) => n !== 19)).size).toBe(1); // the rest as the process was started
  });

  it('surveys on a connection of its own that holds the one surveyor’s lock, and takes over again when the superuser cuts it', async () => {
    let before: { pid: number; locked: boolean }[] = [];
    for (let i = 0; i < 600 && before.length === 0; i++) {
      before = await surveyorBackends();
      if (before.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(before).toEqual([{ pid: expect.any(Number), locked: true }]);
    await ctx.prisma.$queryRawUnsafe('SELECT pg_terminate_backend($1::int)', before[0].pid);
    let after: { pid: number; locked: boolean }[] = [];
    for (let i = 0; i < 600 && !(after.length === 1 && after[0].pid !== before[0].pid && after[0].locked); i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = await surveyorBackends();
    }
    expect(after).toEqual([{ pid: expect.any(Number), locked: true }]);
    expect(after[0].pid).not.toBe(before[0].pid);
  });
});

describe('a record the shoe cannot hold', () => {
  it('is said and passed over: the coups after it, at other tables, are surveyed all the same', async () => {
    const bad = await givenPit(ctx, { code: 'SURV-BAD' });
    const cards = shuffledShoe(8, seededRandom(77));
    // The superuser writes a burn of eight copies of the card the next coup opens with: no 8-deck shoe holds a ninth.
    const burn = new Array<string>(8).fill(formatCard(cards[0]));
    await ctx.prisma.$executeRawUnsafe('UPDATE shoes SET burn_cards = $1::text[] WHERE id = $2::uuid', burn, bad.shoe.id);
    await deal(bad.terminal, bad.shoe.id, cards, 2);

    const good = await givenPit(ctx, { code: 'SURV-GOOD' });
    await deal(good.terminal, good.shoe.id, shuffledShoe(8, seededRandom(78)), 3);
    const surveyed = (shoeId: string) =>
      ctx.prisma.$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM coup_surveillance WHERE shoe_id = $1::uuid', shoeId).then((r) => r[0].n);
    for (let i = 0; i < 600 && (await surveyed(good.shoe.id)) < 3; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await surveyed(good.shoe.id)).toBe(3);
    // The first coup's odds are those of the shoe before it (the burn taken out: possible); the second's
    // would take a ninth copy out: it is passed over.
    expect(await surveyed(bad.shoe.id)).toBe(1);
  });
});

describe('a patron who sees the first card', () => {
  it('is one alert that grows shoe by shoe (the first card’s worth), the dealer who showed it is named against the other, an honest neighbour is not', async () => {
    const pit = await givenPit(ctx, { code: 'SURV-SEE', variant: 'EZ' });
    let on = '';
    const dealer = async (dealerId: string) => {
      if (dealerId !== on) expect((await ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/dealers`, { dealerId })).status).toBe(201);
      on = dealerId;
    };
    // D-31 shows P-SEES the first card, who then backs the side it favours (Player on 6 to 9); with
    // D-32 dealing, P-SEES backs either side as anyone might. P-HONEST bets Banker throughout.
    const random = seededRandom(99);
    const wagers = (sees: boolean) => (first: Card) => [
      { seat: 1, betType: (sees ? pointOf(first) >= 6 : random() < 0.5) ? 'PLAYER' : 'BANKER', amount: 10_000, patronId: 'P-SEES' },
      { seat: 2, betType: 'BANKER', amount: 2_000, patronId: 'P-HONEST' },
    ];
    const shoes = [pit.shoe.id];
    // The first shoe mostly with D-31; then the two take turns every 10 coups (the dealer detector
    // compares dealers within each quarter of a shoe).
    const turns: [string, number][] = Array.from({ length: 7 }, (_, i) => [i % 2 === 0 ? 'D-32' : 'D-31', i === 6 ? 15 : 10]);
    const plan: [string, number][][] = [
      [
        ['D-31', 60],
        ['D-32', 15],
      ],
      turns,
      turns,
      turns,
    ];
    for (let s = 0; s < plan.length; s++) {
      if (s > 0) shoes.push((await givenShoe(ctx, pit.terminal, pit.table.id)).id);
      const cards = shuffledShoe(8, seededRandom(7 + s));
      let dealt = 0;
      for (const [who, coups] of plan[s]) {
        await dealer(who);
        dealt += (await deal(pit.terminal, shoes[s], cards.slice(dealt), coups, wagers(who === 'D-31'))).length;
      }
      expect((await ctx.as(pit.terminal).post(`/v1/shoes/${shoes[s]}/close`, {})).status).toBe(200);
      if (s === 0) {
        const [seen] = await alertsAfterSurvey(`shoeId=${shoes[0]}&kind=FIRST_CARD_KNOWLEDGE`, (a) => a.length > 0);
        expect(seen).toMatchObject({ patronId: 'P-SEES', status: 'OPEN', updates: [] });
      }
    }
    const all = await alertsAfterSurvey(`patronId=P-SEES`, (a) => a.some((x) => x.kind === 'DEALER_PAIRING') && a.some((x) => x.updates.length >= 2));
    // One alert for the first card, raised at the first shoe's close, its evidence grown at the next ones'.
    const seen = all.filter((a) => a.kind === 'FIRST_CARD_KNOWLEDGE');
    expect(seen).toHaveLength(1);
    expect(seen[0].shoeId).toBe(shoes[0]);
    expect(seen[0].updates.length).toBeGreaterThanOrEqual(1);
    // Shoes where the dealer who shows the card deals only part of the time can take some back; by the last, more.
    expect(seen[0].updates.at(-1)!.eValue).toBeGreaterThan(seen[0].evidence.eValue as number);
    expect(seen[0].pValue).toBeLessThan(seen[0].threshold);
    expect(seen[0].evidence).toMatchObject({ decisions: 75, alarmAt: 2.5e4 });
    expect(seen[0].threshold).toBe(1 / 2.5e4);
    expect(seen[0].evidence.reason).toMatch(/^Chose the side the first card favoured: knowing it was worth [\d,.]+ EUR over 75 decisions/);
    const telling = (
      seen[0].evidence.coups as { table: string; shoe: number; coup: number; cards: string; dealerId: string; stake: { currency: string } }[]
    )[0];
    expect(telling).toMatchObject({ table: 'SURV-SEE', shoe: 1, dealerId: 'D-31', stake: { currency: 'EUR' } });
    expect(telling.cards).toMatch(/^P [2-9TJQKA][SHDC] [2-9TJQKA][SHDC]/);
    // The dealer who showed the card is named, compared with the other on the same shoes; the other is not.
    expect(all.filter((a) => a.kind === 'DEALER_PAIRING').map((a) => a.dealerId)).toEqual(['D-31']);
    const alerts = await alertsAfterSurvey(`tableId=${pit.table.id}`, () => true);
    expect(alerts.filter((a) => a.patronId === 'P-HONEST')).toEqual([]);
    expect((await ctx.as(watcher).get('/v1/surveillance/alerts?patronId=P-SEES')).body.length).toBe(all.length);
    const mine = all;

    // The surveillance room's views: the patron, the dealer, the table and the shoe, each with its alerts not yet closed.
    type View = {
      subject: string;
      tableCode: string | null;
      shoeNumber: number | null;
      open: number;
      acknowledged: number;
      high: number;
      smallestPValue: number;
      kinds: string[];
    };
    const view = async (by: string) => (await ctx.as(watcher).get(`/v1/surveillance/open-alerts?by=${by}`)).body as View[];
    const patron = (await view('PATRON')).find((v) => v.subject === 'P-SEES')!;
    expect(patron).toMatchObject({ open: mine.length, acknowledged: 0, tableCode: null, shoeNumber: null });
    expect(patron.kinds).toEqual([...new Set(mine.map((a) => a.kind))].sort());
    expect(patron.smallestPValue).toBe(Math.min(...mine.map((a) => a.pValue)));
    expect(patron.high).toBe(mine.filter((a) => a.severity === 'HIGH').length);
    expect((await view('PATRON')).find((v) => v.subject === 'P-HONEST')).toBeUndefined();
    expect((await view('DEALER')).find((v) => v.subject === 'D-31')).toMatchObject({ open: 1, kinds: ['DEALER_PAIRING'] });
    expect((await view('TABLE')).find((v) => v.subject === pit.table.id)).toMatchObject({ tableCode: 'SURV-SEE', open: alerts.length });
    expect((await view('SHOE')).find((v) => v.subject === shoes[0])).toMatchObject({
      tableCode: 'SURV-SEE',
      shoeNumber: 1,
      open: alerts.filter((a) => a.shoeId === shoes[0]).length,
    });

    // Acknowledged, an alert stays in the views; closed, it leaves them.
    const pairing = mine.find((a) => a.kind === 'DEALER_PAIRING')!;
    expect((await ctx.as(watcher).post(`/v1/surveillance/alerts/${pairing.id}/acknowledge`, {})).status).toBe(200);
    expect((await view('DEALER')).find((v) => v.subject === 'D-31')).toMatchObject({ open: 0, acknowledged: 1 });
    expect((await view('PATRON')).find((v) => v.subject === 'P-SEES')).toMatchObject({ open: mine.length - 1, acknowledged: 1 });
    expect(
      (await ctx.as(pit.supervisor).post(`/v1/surveillance/alerts/${pairing.id}/close`, { note: 'dealer D-31 rotated off; tapes to security' })).status,
    ).toBe(200);
    expect((await view('DEALER')).find((v) => v.subject === 'D-31')).toBeUndefined();

    // The exception report of the quarter lists them, open or closed, without their evidence.
    const pairingShoe = shoes.indexOf(pairing.shoeId) + 1;
    const day = pairing.gamingDay;
    const quarter = `year=${day.slice(0, 4)}&quarter=${Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1}`;
    const finance = await givenKey(ctx, 'FINANCE');
    const statement = await ctx.as(finance).get(`/v1/reports/quarterly?${quarter}`);
    expect(statement.status).toBe(200);
    const lines = (statement.body.exceptions.integrityAlerts as { alertId: string; status: string }[]).filter((l) => mine.some((a) => a.id === l.alertId));
    expect(lines).toHaveLength(mine.length);
    expect(lines.find((l) => l.alertId === pairing.id)).toEqual({
      alertId: pairing.id,
      kind: 'DEALER_PAIRING',
      severity: pairing.severity,
      pValue: pairing.pValue,
      tableCode: 'SURV-SEE',
      shoeNumber: pairingShoe,
      gamingDay: day,
      patronId: 'P-SEES',
      dealerId: 'D-31',
      status: 'CLOSED',
      raisedAt: pairing.createdAt,
      closingNote: 'dealer D-31 rotated off; tapes to security',
    });
    expect(lines.filter((l) => l.status === 'OPEN')).toHaveLength(mine.length - 1);
    const csv = await ctx.as(finance).get(`/v1/reports/quarterly?${quarter}`).set('Accept', 'text/csv');
    expect(csv.text.split('\n').filter((l) => l.startsWith('integrity-alert,') && mine.some((a) => l.includes(a.id)))).toHaveLength(mine.length);
  });

  it('without a player card, by seat: the seat’s record raises the alert, which names the table and seat, and the room’s view gathers it by seat', async () => {
    const pit = await givenPit(ctx, { code: 'SURV-SEAT', variant: 'EZ' });
    const random = seededRandom(5);
    await deal(pit.terminal, pit.shoe.id, shuffledShoe(8, seededRandom(77)), 75, (first) => [
      { seat: 4, betType: pointOf(first) >= 6 ? 'PLAYER' : 'BANKER', amount: 5_000 },
      { seat: 5, betType: random() < 0.5 ? 'PLAYER' : 'BANKER', amount: 5_000 },
    ]);
    expect((await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/close`, {})).status).toBe(200);
    const alerts = await alertsAfterSurvey(`tableId=${pit.table.id}&kind=FIRST_CARD_KNOWLEDGE`, (a) => a.length > 0);
    expect(alerts.map((a) => [a.patronId, a.seat])).toEqual([[null, 4]]);
    const bySeat = (await ctx.as(watcher).get('/v1/surveillance/open-alerts?by=SEAT')).body as { subject: string; tableCode: string; open: number }[];
    expect(bySeat.find((v) => v.subject === `${pit.table.id}:4`)).toMatchObject({ tableCode: 'SURV-SEAT', open: 1 });
    expect(bySeat.find((v) => v.subject === `${pit.table.id}:5`)).toBeUndefined();
  });

  it('refuses a view of nothing, and the views to those who may not read alerts', async () => {
    for (const q of ['', '?by=EVERYONE', '?by=patron%27--']) {
      const res = await ctx.as(watcher).get(`/v1/surveillance/open-alerts${q}`);
      expect([q, res.status, res.body.code]).toEqual([q, 400, 'VALIDATION_FAILED']);
    }
    const pit = await givenPit(ctx, { code: 'SURV-VIEW' });
    expect((await ctx.as(pit.terminal).get('/v1/surveillance/open-alerts?by=PATRON')).status).toBe(403);
    expect((await ctx.as(await givenKey(ctx, 'FINANCE')).get('/v1/surveillance/open-alerts?by=TABLE')).status).toBe(403);
    expect((await ctx.as(await givenKey(ctx, 'AUDITOR')).get('/v1/surveillance/open-alerts?by=SHOE')).status).toBe(200);
  });
});
