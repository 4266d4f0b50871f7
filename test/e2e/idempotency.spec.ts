import { startTestApp, TestContext } from '../support/app';
import { givenKey, givenPit } from '../support/builders';

let ctx: TestContext;
beforeAll(async () => (ctx = await startTestApp()));
afterAll(() => ctx.close());

const body = { cards: { player: ['9S', 'KD'], banker: ['8H', 'KC'] }, wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }] };

describe('Idempotency-Key', () => {
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

  it('concurrent requests with one key execute once', async () => {
    const { terminal, shoe } = await givenPit(ctx);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, body).set('Idempotency-Key', 'burst')),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect(await ctx.prisma.coup.count({ where: { shoeId: shoe.id } })).toBe(1);
    const ids = new Set(results.filter((r) => r.status === 201).map((r) => r.body.id));
    expect(ids.size).toBe(1);
  });

  it('the stored answer commits with the change; a claim left by a request that died before committing is taken over', async () => {
    const { terminal, shoe } = await givenPit(ctx);
    const first = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, body).set('Idempotency-Key', 'atomic');
    const record = await ctx.prisma.idempotencyRecord.findFirstOrThrow({ where: { key: 'atomic' } });
    expect(record.responseBody).toEqual(first.body);
    expect(record.statusCode).toBe(201);

    // A process killed mid-request leaves a claim with no answer and (its transaction never having
    // committed) no change. A retry after the claim has gone stale executes the request once.
    const keyId = (await ctx.prisma.apiKey.findFirstOrThrow({ where: { keyPrefix: terminal.slice(0, 10) } })).id;
    await ctx.prisma.idempotencyRecord.create({ data: { scope: keyId, key: 'orphan', requestHash: 'whatever', createdAt: new Date(Date.now() - 60_000) } });
    const retried = await ctx
      .as(terminal)
      .post(`/v1/shoes/${shoe.id}/coups`, { ...body, cards: { player: ['9D', 'KD'], banker: ['8D', 'KC'] } })
      .set('Idempotency-Key', 'orphan');
    expect(retried.status).toBe(201);
    expect(await ctx.prisma.coup.count({ where: { shoeId: shoe.id } })).toBe(2);
    // A fresh claim is still respected.
    await ctx.prisma.idempotencyRecord.create({ data: { scope: keyId, key: 'running', requestHash: 'whatever' } });
    const busy = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, body).set('Idempotency-Key', 'running');
    expect(busy.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('rejects a malformed key', async () => {
    const { terminal, shoe } = await givenPit(ctx);
    const res = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, body).set('Idempotency-Key', 'x'.repeat(300));
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });
});
