import { anotherInstance, listening, startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPit } from '../../support/builders';
import { DeviceClient } from '../../../bench/device-client';
import { onTheWire, playShoe } from '../../support/device-shoe';
import { formatCard, ruleSet, SIDE_BETS } from '../../../src/domain';

/**
 * The device gateway (issue 51) over a real WebSocket: a table's card-reading shoe and chip reader
 * report a seeded shoe; every coup settles exactly as the same cards and bets keyed at a terminal
 * settle; a report sent again is kept once, one out of sequence or not the protocol's is refused and
 * kept for the supervisor, a forged key gets no connection; a coup whose button disagrees with its
 * cards is held for the supervisor and settles nothing until cleared; a gateway stopped mid-coup and
 * started again loses nothing.
 */
jest.setTimeout(120_000);

let ctx: TestContext;
let url: string;
beforeAll(async () => {
  ctx = await startTestApp();
  url = await listening(ctx.app);
});
afterAll(() => ctx?.close());

const TABLE = { variant: 'COMMISSION', currency: 'HKD', minBet: 100, maxBet: 100_000_000, sideBets: [...SIDE_BETS] };
const rules = ruleSet({ variant: 'COMMISSION', sideBets: [...SIDE_BETS] });

async function deviceAt(tableId: string, name = 'Shoe'): Promise<string> {
  return (await ctx.admin.post('/v1/api-keys', { name, role: 'DEVICE', tableId }).expect(201)).body.key as string;
}

const coupsOf = async (key: string, shoeId: string) => (await ctx.as(key).get(`/v1/shoes/${shoeId}/coups`).expect(200)).body as any[];
const settlementOf = (coup: any) => ({
  player: coup.playerCards ?? coup.cards?.player,
  banker: coup.bankerCards ?? coup.cards?.banker,
  wagers: (coup.wagers as any[])
    .map((w) => ({
      seat: w.seat,
      betType: w.betType,
      amount: Number(w.amount),
      result: w.result,
      payout: Number(w.payout),
      commission: Number(w.commission),
      net: Number(w.net),
    }))
    .sort((a, b) => a.seat - b.seat || a.betType.localeCompare(b.betType)),
});

describe('a table whose devices report its coups', () => {
  it('settles every coup exactly as the same cards and bets keyed at a terminal', async () => {
    const byDevices = await givenPit(ctx, TABLE);
    const keyed = await givenPit(ctx, TABLE);
    const device = await deviceAt(byDevices.table.id);
    const { client, welcome } = await DeviceClient.open(url, device);
    expect(welcome).toMatchObject({ lastSeq: 0, tableId: byDevices.table.id });
    const { events, coups } = playShoe(rules, 2026, 8, 25);
    let seq = 0;
    for (const e of events) expect(await client.send(onTheWire(e, ++seq))).toEqual({ type: 'ACK', seq });
    client.close();
    for (const c of coups)
      await ctx
        .as(keyed.terminal)
        .post(`/v1/shoes/${keyed.shoe.id}/coups`, {
          cards: { player: c.player.map(formatCard), banker: c.banker.map(formatCard) },
          wagers: c.bets.map((b) => ({ seat: b.seat, betType: b.betType, amount: Number(b.amount) })),
        })
        .expect(201);
    const fromDevices = await coupsOf(byDevices.supervisor, byDevices.shoe.id);
    const fromTerminal = await coupsOf(keyed.supervisor, keyed.shoe.id);
    expect(fromDevices).toHaveLength(coups.length);
    expect(fromDevices.map(settlementOf)).toEqual(fromTerminal.map(settlementOf));
    expect((await ctx.as(byDevices.supervisor).get(`/v1/tables/${byDevices.table.id}/device-holds`).expect(200)).body).toEqual([]);
  });

  it('keeps a report sent again once, refuses one out of sequence or not the protocol and keeps it for the supervisor, and opens to no other key', async () => {
    const pit = await givenPit(ctx, TABLE);
    const device = await deviceAt(pit.table.id);
    const { events } = playShoe(rules, 7, 8, 2);
    const { client } = await DeviceClient.open(url, device);
    expect(await client.send(onTheWire(events[0], 1))).toEqual({ type: 'ACK', seq: 1 });
    expect(await client.send(onTheWire(events[0], 1))).toEqual({ type: 'ACK', seq: 1, again: true });
    expect(await client.send(onTheWire(events[1], 3))).toMatchObject({ type: 'REFUSED', seq: 3, code: 'DEVICE_SEQUENCE_GAP' });
    expect(await client.send({ seq: 2, type: 'CARD_DEALT', slot: 'P4', card: 'ZZ', drawn: 1 })).toMatchObject({
      type: 'REFUSED',
      seq: 2,
      code: 'DEVICE_REPORT_INVALID',
    });
    expect(await client.send('not json at all')).toMatchObject({ type: 'REFUSED', seq: null, code: 'DEVICE_REPORT_INVALID' });
    expect(await client.send(onTheWire(events[1], 2))).toEqual({ type: 'ACK', seq: 2 });
    client.close();
    const refused = (await ctx.as(pit.supervisor).get(`/v1/tables/${pit.table.id}/device-reports/refused`).expect(200)).body as any[];
    expect(refused.map((r) => r.refused.split(':')[0]).sort()).toEqual(['DEVICE_REPORT_INVALID', 'DEVICE_REPORT_INVALID', 'DEVICE_SEQUENCE_GAP']);
    expect(await coupsOf(pit.supervisor, pit.shoe.id)).toEqual([]);
    // No connection for a forged key, none, or a key that is not a device's.
    expect(await DeviceClient.statusFor(url, 'sab_forged')).toBe(401);
    expect(await DeviceClient.statusFor(url, null)).toBe(401);
    expect(await DeviceClient.statusFor(url, pit.terminal)).toBe(403);
    expect(await DeviceClient.statusFor(url, await givenKey(ctx, 'SUPERVISOR'))).toBe(403);
  });

  it('holds a coup whose button disagrees with its cards, settles none of it, and reads the next once a supervisor clears it', async () => {
    const pit = await givenPit(ctx, TABLE);
    const device = await deviceAt(pit.table.id);
    const { events, coups } = playShoe(rules, 11, 8, 3);
    const first = events.indexOf(coups[1].events[0]);
    const wrongAt = events.indexOf(coups[1].events[coups[1].events.length - 1]);
    const { client } = await DeviceClient.open(url, device);
    let seq = 0;
    for (const [i, e] of events.entries()) {
      if (i === events.indexOf(coups[2].events[0])) break;
      const report = i === wrongAt && e.type === 'RESULT_CONFIRMED' ? { ...e, winner: e.winner === 'PLAYER' ? 'BANKER' : 'PLAYER' } : e;
      expect(await client.send(onTheWire(report as typeof e, ++seq))).toEqual({ type: 'ACK', seq });
    }
    expect(first).toBeGreaterThan(0);
    expect(await coupsOf(pit.supervisor, pit.shoe.id)).toHaveLength(1);
    const [hold] = (await ctx.as(pit.supervisor).get(`/v1/tables/${pit.table.id}/device-holds`).expect(200)).body as any[];
    expect(hold).toMatchObject({ reason: 'RESULT_DISAGREES', clearedAt: null, seq: String(seq) });
    // Held: the next coup's button settles nothing until the supervisor clears the hold.
    await ctx.as(pit.supervisor).post(`/v1/device-holds/${hold.id}/clear`, { note: 'Dealer pressed the wrong button' }).expect(200);
    const again = await ctx.as(pit.supervisor).post(`/v1/device-holds/${hold.id}/clear`, { note: 'twice' });
    expect([again.status, again.body.code]).toEqual([409, 'CONFLICT']);
    for (const e of coups[2].events) expect(await client.send(onTheWire(e, ++seq))).toEqual({ type: 'ACK', seq });
    client.close();
    const settled = await coupsOf(pit.supervisor, pit.shoe.id);
    expect(settled.map((c) => settlementOf(c).player)).toEqual([coups[0].player, coups[2].player].map((p) => p.map(formatCard)));
    // The coups the devices settled and the hold cleared verify as every record does.
    expect(
      (
        await ctx
          .as(await givenKey(ctx, 'AUDITOR'))
          .get('/v1/audit/verify')
          .expect(200)
      ).body.ok,
    ).toBe(true);
  });

  it('loses nothing when the gateway stops mid-coup and another starts: the device goes on from the last report kept', async () => {
    const pit = await givenPit(ctx, TABLE);
    const device = await deviceAt(pit.table.id);
    const { events, coups } = playShoe(rules, 23, 8, 4);
    const mid = events.indexOf(coups[1].events[coups[1].events.length - 3]);
    const one = await anotherInstance(ctx);
    const a = await DeviceClient.open(one.url, device);
    let seq = 0;
    for (const e of events.slice(0, mid)) expect(await a.client.send(onTheWire(e, ++seq))).toEqual({ type: 'ACK', seq });
    // One more sent and the gateway stopped before its answer could be relied on.
    a.client.fire(onTheWire(events[mid], seq + 1));
    await one.close();
    const two = await anotherInstance(ctx);
    const b = await DeviceClient.open(two.url, device);
    // The gateway says what it kept; the device goes on from the next (sending again what was not kept).
    expect([seq, seq + 1]).toContain(b.welcome.lastSeq);
    seq = b.welcome.lastSeq;
    for (const e of events.slice(seq)) expect(await b.client.send(onTheWire(e, ++seq))).toEqual({ type: 'ACK', seq });
    b.client.close();
    await two.close();
    const settled = await coupsOf(pit.supervisor, pit.shoe.id);
    expect(settled.map((c) => settlementOf(c).player)).toEqual(coups.map((c) => c.player.map(formatCard)));
  });
});
