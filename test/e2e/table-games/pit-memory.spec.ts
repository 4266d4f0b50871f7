import request from 'supertest';
import { anotherInstance, startTestApp, TestContext } from '../../support/app';
import { COUPS_SQL } from '../../../src/table-games/coups/coups-sql';
import { PIT_SQL } from '../../../src/foundation/pit/pit-sql';
import { givenKey, givenPatrons, givenPit } from '../../support/builders';
import { statementsDuring } from '../../support/statements';

/**
 * A whole coup is computed from the shoe as the instance's last coup of it left it, without reading
 * it (PitService.rememberSettled); the settlement statement applies only at that version. Here,
 * between two coups, the shoe changes in every way the memory cannot know of, and each time the next
 * coup must come out exactly as if the shoe had been read.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const TIE = { player: ['KS', '6D'], banker: ['3H', '2C', 'AS'] }; // 6–6
const BANKER_7 = { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] };
const PLAYER_9 = { player: ['9S', 'KD'], banker: ['8H', 'KC'] };

async function shoeOf(id: string, key: string) {
  return (await ctx.as(key).get(`/v1/shoes/${id}`)).body as { coupCount: number; cardsDealt: number; remaining: Record<string, number> };
}

it('cards a void returned to a one-deck shoe are dealt again: the memory that says they are gone is not believed', async () => {
  const { terminal, supervisor, shoe } = await givenPit(ctx, { decks: 1 }, { decks: 1 });
  const second = await givenKey(ctx, 'SUPERVISOR');
  const first = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: PLAYER_9, wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }] });
  expect(first.status).toBe(201);
  // Keyed at the wrong table: the cards never came out of this shoe.
  const asked = await ctx.as(supervisor).post(`/v1/coups/${first.body.id}/void`, { reason: 'Keyed at the wrong table', returnCards: true });
  expect(asked.status).toBe(202);
  expect((await ctx.as(second).post(`/v1/void-requests/${asked.body.voidRequestId}/approve`, {})).status).toBe(200);
  // 9S, KD, 8H and KC exist once in one deck: only the shoe as read has them back.
  const again = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: PLAYER_9, wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }] });
  expect(again.status).toBe(201);
  expect(again.body.number).toBe(2);
  const after = await shoeOf(shoe.id, terminal);
  expect(after.cardsDealt).toBe(4);
  expect([after.remaining['9S'], after.remaining.KD, after.remaining['8H'], after.remaining.KC]).toEqual([0, 0, 0, 0]);
  // And once more, now from memory: the cards are gone.
  const third = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: PLAYER_9 });
  expect(third.status).toBe(422);
});

it('a card put in between two coups: the next wager on that seat is the patron’s', async () => {
  const { terminal, supervisor, shoe, table } = await givenPit(ctx);
  await givenPatrons(ctx, 'MEM-1');
  expect((await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 3, betType: 'BANKER', amount: 1000 }] })).status).toBe(
    201,
  );
  const seated = await ctx.as(supervisor).post(`/v1/tables/${table.id}/seatings`, { patronId: 'MEM-1', seat: 3 });
  expect(seated.status).toBe(201);
  const next = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 3, betType: 'BANKER', amount: 1000 }] });
  expect(next.status).toBe(201);
  expect(next.body.wagers[0].patronId).toBe('MEM-1');
  // …and after the card comes out, nobody's again.
  expect((await ctx.as(supervisor).post(`/v1/seatings/${seated.body.id}/end`, {})).status).toBe(200);
  const later = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 3, betType: 'BANKER', amount: 1000 }] });
  expect(later.body.wagers[0].patronId).toBeNull();
});

it('a carried tie bet withdrawn between two coups is not settled by the next', async () => {
  const { terminal, shoe } = await givenPit(ctx, { tieBetsStay: true });
  const tie = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: TIE, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] });
  expect(tie.body.carriedForward).toHaveLength(1);
  const carried = tie.body.carriedForward[0].id;
  expect((await ctx.as(terminal).post(`/v1/wagers/${carried}/withdraw`, {})).status).toBe(200);
  const next = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 2, betType: 'PLAYER', amount: 500 }] });
  expect(next.status).toBe(201);
  expect(next.body.wagers.map((w: { id: string }) => w.id)).not.toContain(carried);
  expect(next.body.wagers).toHaveLength(1);
});

it('a carried tie bet left in place is settled by the next coup, from memory, exactly as from a read', async () => {
  const { terminal, shoe } = await givenPit(ctx, { tieBetsStay: true });
  const tie = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, {
    cards: TIE,
    wagers: [
      { seat: 1, betType: 'BANKER', amount: 1000 },
      { seat: 2, betType: 'PLAYER', amount: 700 },
    ],
  });
  const carried = tie.body.carriedForward.map((w: { id: string }) => w.id).sort();
  expect(carried).toHaveLength(2);
  let next: request.Response | undefined;
  const sent = await statementsDuring(async () => {
    next = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7 });
  });
  expect(next!.status).toBe(201);
  // Written from memory: the shoe was not read, one statement went.
  expect(sent.map((s) => s.text).filter((t) => t === PIT_SQL.readShoe.text || t === COUPS_SQL.settleCoup.text)).toEqual([COUPS_SQL.settleCoup.text]);
  expect(next!.body.wagers.map((w: { id: string }) => w.id)).toEqual(carried);
  const stored = (await ctx.as(terminal).get(`/v1/coups/${next!.body.id}`)).body;
  expect(stored.wagers.map((w: { id: string; net: number }) => [w.id, w.net]).sort()).toEqual(
    next!.body.wagers.map((w: { id: string; net: number }) => [w.id, w.net]).sort(),
  );
});

it('two instances dealing one shoe in turn: every coup written once, numbered in order, the cards counted once', async () => {
  const { terminal, shoe } = await givenPit(ctx);
  const other = await anotherInstance(ctx);
  try {
    const post = (i: number) =>
      i % 2 === 0
        ? ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] })
        : request(other.url)
            .post(`/v1/shoes/${shoe.id}/coups`)
            .set('Authorization', `Bearer ${terminal}`)
            .send({ cards: BANKER_7, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] });
    const numbers = [];
    for (let i = 0; i < 6; i++) {
      const res = await post(i);
      expect(res.status).toBe(201);
      numbers.push(res.body.number);
    }
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6]);
    const after = await shoeOf(shoe.id, terminal);
    expect(after.coupCount).toBe(6);
    expect(after.cardsDealt).toBe(30);
  } finally {
    await other.close();
  }
});

describe('after the database goes back (a restore, a failover that lost commits)', () => {
  /** The shoe row as a restore writes it back: every column as it was, the version too, no trigger run. */
  async function putBack(shoeId: string, row: Record<string, unknown>) {
    const client = await ctx.prisma.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL session_replication_role = replica');
      await client.query('UPDATE shoes SET remaining = $2, cards_dealt = $3, coup_count = $4, last_coup_number = $5, version = $6 WHERE id = $1::uuid', [
        shoeId,
        row.remaining,
        row.cards_dealt,
        row.coup_count,
        row.last_coup_number,
        row.version,
      ]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  }
  const rowOf = async (shoeId: string) =>
    (
      await ctx.prisma.pool.query('SELECT remaining, cards_dealt, coup_count, last_coup_number, version::text AS version FROM shoes WHERE id = $1::uuid', [
        shoeId,
      ])
    ).rows[0] as Record<string, unknown>;

  it('a shoe put back to an earlier version never comes back to a version it had after it: the next change draws another', async () => {
    const { shoe } = await givenPit(ctx);
    const before = await rowOf(shoe.id);
    await ctx.prisma.pool.query('UPDATE shoes SET status = status WHERE id = $1::uuid', [shoe.id]);
    const after = (await rowOf(shoe.id)).version;
    expect(after).not.toBe(before.version);
    await putBack(shoe.id, before);
    await ctx.prisma.pool.query('UPDATE shoes SET status = status WHERE id = $1::uuid', [shoe.id]);
    expect((await rowOf(shoe.id)).version).not.toBe(after);
  });

  it('the next coup is computed from the shoe as the database has it, not as the instance remembers it', async () => {
    const { terminal, supervisor, shoe, table } = await givenPit(ctx, { decks: 1 }, { decks: 1 });
    await givenPatrons(ctx, 'RESTORE-1');
    const first = { player: ['AS', '7S'], banker: ['AH', '7H'] };
    expect((await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: first })).status).toBe(201);
    const dumped = await rowOf(shoe.id);
    const lost = { player: ['9S', 'KS'], banker: ['8S', 'QS'] };
    expect((await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: lost, wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }] })).status).toBe(
      201,
    );
    // The database goes back to the dump: coup 2 never happened as far as the shoe is concerned.
    await putBack(shoe.id, dumped);
    expect((await ctx.as(supervisor).post(`/v1/tables/${table.id}/seatings`, { patronId: 'RESTORE-1', seat: 1 })).status).toBe(201);
    const next = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, {
      cards: { player: ['9H', 'KH'], banker: ['8H', 'QH'] },
      wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }],
    });
    expect(next.status).toBe(201);
    expect(next.body.number).toBe(2);
    expect(next.body.wagers[0].patronId).toBe('RESTORE-1');
    const now = await shoeOf(shoe.id, terminal);
    expect(now.cardsDealt).toBe(8);
    expect(now.remaining['9S']).toBe(1);
  });
});

it('a waiting bet changed behind the service’s back, the shoe untouched: the coup from memory undoes itself and is written from a read', async () => {
  const { terminal, shoe } = await givenPit(ctx, { tieBetsStay: true });
  const tie = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: TIE, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] });
  const carried = tie.body.carriedForward[0].id;
  await ctx.prisma.pool.query(`UPDATE wagers SET status = 'WITHDRAWN' WHERE id = $1::uuid AND gaming_day IS NULL`, [carried]);
  const next = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 2, betType: 'PLAYER', amount: 500 }] });
  expect(next.status).toBe(201);
  expect(next.body.number).toBe(2);
  expect(next.body.wagers.map((w: { id: string }) => w.id)).not.toContain(carried);
  const { rows } = await ctx.prisma.pool.query<{ n: string }>('SELECT count(*) AS n FROM coups WHERE shoe_id = $1::uuid', [shoe.id]);
  expect(Number(rows[0].n)).toBe(2);
});

it('a key revoked behind the service’s back, still remembered, learns nothing: not even whether a shoe exists', async () => {
  const { terminal, shoe } = await givenPit(ctx);
  expect((await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7 })).status).toBe(201);
  await ctx.prisma.pool.query(`UPDATE api_keys SET revoked_at = now() WHERE key_prefix = $1`, [terminal.slice(0, 10)]);
  for (const target of ['00000000-0000-4000-8000-000000000000', shoe.id]) {
    const res = await ctx.as(terminal).post(`/v1/shoes/${target}/coups`, { cards: BANKER_7 });
    expect([res.status, res.body.code]).toEqual([401, 'UNAUTHENTICATED']);
  }
});
