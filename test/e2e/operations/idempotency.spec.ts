import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPit } from '../../support/builders';

let ctx: TestContext;
beforeAll(async () => (ctx = await startTestApp()));
afterAll(() => ctx.close());

const body = { cards: { player: ['9S', 'KD'], banker: ['8H', 'KC'] }, wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }] };

describe('Idempotency-Key', () => {
  it('a retried key creation answers as the first, but never shows the key again, and keeps neither it nor its hash', async () => {
    const table = (await ctx.admin.post('/v1/tables', { code: 'IDEM-KEY', variant: 'COMMISSION', currency: 'EUR', minBet: 100, maxBet: 100_000 }).expect(201))
      .body;
    const send = () => ctx.admin.post('/v1/api-keys', { name: 'retried', role: 'TERMINAL', tableId: table.id }).set('Idempotency-Key', 'IDEM-KEY-1');
    const first = (await send().expect(201)).body;
    expect(first.key).toMatch(/^sab_/);
    const replay = await send().expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual({ ...first, key: null });
    const [stored] = await ctx.prisma.$queryRaw<{ body: string }[]>`SELECT response_body::text AS body FROM idempotency_records WHERE key = 'IDEM-KEY-1'`;
    const hashOf = (await ctx.prisma.apiKey.findUniqueOrThrow({ where: { id: first.id } })).keyHash;
    expect(stored.body).not.toContain(first.key);
    expect(stored.body).not.toContain(hashOf);
    // A table's creation replays the answer it gave, not the stored row.
    const tableAgain = () =>
      ctx.admin.post('/v1/tables', { code: 'IDEM-T2', variant: 'COMMISSION', currency: 'EUR', minBet: 100, maxBet: 100_000 }).set('Idempotency-Key', 'IDEM-T2');
    const t1 = (await tableAgain().expect(201)).body;
    expect((await tableAgain().expect(201)).body).toEqual(t1);
  });

  it('a retry with the same key and body returns the first response and records nothing again', async () => {
    const { terminal, shoe } = await givenPit(ctx);
    const first = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, body).set('Idempotency-Key', 'coup-1');
    const retry = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { wagers: body.wagers, cards: body.cards }).set('Idempotency-Key', 'coup-1');
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await ctx.prisma.coup.count({ where: { shoeId: shoe.id } })).toBe(1);
    expect(await ctx.prisma.wager.count({ where: { shoeId: shoe.id } })).toBe(1);
  });

  it('the same key with another body is IDEMPOTENCY_KEY_REUSED', async () => {
    const { terminal, shoe } = await givenPit(ctx);
    await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, body).set('Idempotency-Key', 'k-2');
    const other = await ctx
      .as(terminal)
      .post(`/v1/shoes/${shoe.id}/coups`, { ...body, wagers: [{ seat: 1, betType: 'PLAYER', amount: 2000 }] })
      .set('Idempotency-Key', 'k-2');
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await ctx.prisma.coup.count({ where: { shoeId: shoe.id } })).toBe(1);
  });

  it('keys are per API key: another caller with the same key is a new request', async () => {
    const { table, terminal, shoe } = await givenPit(ctx);
    const second = await givenKey(ctx, 'TERMINAL', table.id);
    await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, body).set('Idempotency-Key', 'shared');
    const res = await ctx
      .as(second)
      .post(`/v1/shoes/${shoe.id}/coups`, { ...body, cards: { player: ['9D', 'KD'], banker: ['8D', 'KC'] } })
      .set('Idempotency-Key', 'shared');
    expect(res.status).toBe(201);
    expect(res.body.number).toBe(2);
  });

  it('a rejected request wrote nothing, so its key may be used again for the corrected request', async () => {
    const { terminal, shoe } = await givenPit(ctx);
    const bad = await ctx
      .as(terminal)
      .post(`/v1/shoes/${shoe.id}/coups`, { ...body, cards: { player: ['2S', '3D'], banker: ['7H', 'KC'] } })
      .set('Idempotency-Key', 'fix-me');
    expect(bad.body.code).toBe('MISDEAL');
    const fixed = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, body).set('Idempotency-Key', 'fix-me');
    expect(fixed.status).toBe(201);
  });

  it('concurrent requests with one key execute once, and every one answers with the first answer', async () => {
    const { terminal, shoe } = await givenPit(ctx);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, body).set('Idempotency-Key', 'burst')),
    );
    // No claim is made ahead of the write: a request that finds no answer runs, and the key's unique
    // index lets one write commit; the others roll back on the key and answer with its stored answer.
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(await ctx.prisma.coup.count({ where: { shoeId: shoe.id } })).toBe(1);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    const record = await ctx.prisma.idempotencyRecord.findFirstOrThrow({ where: { key: 'burst' } });
    expect(JSON.parse(record.responseBody!)).toEqual(results[0].body);
  });

  it('concurrent collections with one key (a write in an interactive transaction) collect once, and all answer alike', async () => {
    const { terminal, supervisor, shoe } = await givenPit(ctx);
    const banker = { cards: { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] }, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] };
    expect((await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, banker)).status).toBe(201);
    // Seat 1 owes 50: a second collection of 10 would be taken.
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        ctx.as(supervisor).post(`/v1/shoes/${shoe.id}/commissions/collections`, { seat: 1, amount: 10 }).set('Idempotency-Key', 'collect-burst'),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    for (const r of results) expect(r.body).toEqual(results[0].body);
    expect(await ctx.prisma.commissionEntry.count({ where: { shoeId: shoe.id, kind: 'COLLECTION' } })).toBe(1);
  });

  it('a stepwise write with the key answered already answers with it, even when the retry would now be refused', async () => {
    const { terminal, shoe } = await givenPit(ctx);
    const opened = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { wagers: body.wagers }).set('Idempotency-Key', 'open-1');
    expect(opened.status).toBe(201);
    const cards = await ctx.as(terminal).post(`/v1/coups/${opened.body.id}/cards`, body.cards).set('Idempotency-Key', 'cards-1');
    expect(cards.status).toBe(200);
    // Sent again, the cards would be COUP_NOT_TAKING_BETS: the stored answer comes back instead.
    const again = await ctx.as(terminal).post(`/v1/coups/${opened.body.id}/cards`, body.cards).set('Idempotency-Key', 'cards-1');
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([200, 'true', cards.body]);
  });

  it('the record and its answer commit with the change; none is written for a request that fails', async () => {
    const { terminal, shoe } = await givenPit(ctx);
    const first = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, body).set('Idempotency-Key', 'atomic');
    const record = await ctx.prisma.idempotencyRecord.findFirstOrThrow({ where: { key: 'atomic' } });
    expect(JSON.parse(record.responseBody!)).toEqual(first.body);
    expect(record.mac).toMatch(/^[0-9a-f]{64}$/);
    expect(record.statusCode).toBe(201);
    expect(record.completedAt).not.toBeNull();
    const refused = await ctx
      .as(terminal)
      .post(`/v1/shoes/${shoe.id}/coups`, { ...body, cards: { player: ['2S', '3D'], banker: ['7H', 'KC'] } })
      .set('Idempotency-Key', 'refused');
    expect(refused.body.code).toBe('MISDEAL');
    expect(await ctx.prisma.idempotencyRecord.count({ where: { key: 'refused' } })).toBe(0);
  });

  it('a record without its MAC (a claim an earlier release left behind, or one written around the service) is neither replayed nor taken over', async () => {
    const { terminal, shoe } = await givenPit(ctx);
    const keyId = (await ctx.prisma.apiKey.findFirstOrThrow({ where: { keyPrefix: terminal.slice(0, 10) } })).id;
    // An earlier release's claims were dropped at the first start after the answers were keyed; one
    // found now was written around the service: the request it names may have been made, so it is
    // not made again, and no answer is replayed.
    await ctx.prisma.idempotencyRecord.create({ data: { scope: keyId, key: 'orphan', requestHash: 'whatever', createdAt: new Date(Date.now() - 60_000) } });
    const retried = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, body).set('Idempotency-Key', 'orphan');
    expect([retried.status, retried.body.code]).toEqual([500, 'IDEMPOTENCY_ANSWER_UNPROVEN']);
    expect(await ctx.prisma.coup.count({ where: { shoeId: shoe.id } })).toBe(0);
  });

  it('rejects a malformed key', async () => {
    const { terminal, shoe } = await givenPit(ctx);
    const res = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, body).set('Idempotency-Key', 'x'.repeat(300));
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });
});
