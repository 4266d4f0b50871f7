import fs from 'node:fs';
import path from 'node:path';
import { isLosslessNumber, parse } from 'lossless-json';
import { openApiDocument } from '../../src/server/app';
import { givenPit } from '../support/builders';
import { startTestApp, TestContext } from '../support/app';

/**
 * One wire model for money: every amount is an integer of minor units written as a JSON number with
 * every digit, below 2^53 and past it; nothing converts an amount through a float on the way out.
 */
let ctx: TestContext;
beforeAll(async () => (ctx = await startTestApp()));
afterAll(() => ctx.close());

/** The names the document gives to amounts: every property declared `integer` / `int64`. */
function moneyNames(): Set<string> {
  const names = new Set<string>();
  const schemas = (openApiDocument(ctx.app).components?.schemas ?? {}) as Record<string, { properties?: Record<string, { type?: string; format?: string }> }>;
  for (const s of Object.values(schemas)) {
    for (const [name, p] of Object.entries(s.properties ?? {})) if (p.type === 'integer' && p.format === 'int64') names.add(name);
  }
  return names;
}

/** Every amount under one of `names` that is not an integer JSON number, with where it is. */
function inexact(value: unknown, names: Set<string>, at: string, found: string[], counted: { n: number }): void {
  if (Array.isArray(value)) value.forEach((v, i) => inexact(v, names, `${at}[${i}]`, found, counted));
  else if (value !== null && typeof value === 'object' && !isLosslessNumber(value)) {
    for (const [k, v] of Object.entries(value)) {
      // An audit entry is the record as it was hashed, in RFC 8785 form, where numbers are doubles:
      // amounts there are decimal strings by design (docs/domain.md, "The audit record").
      if (k === 'entry' && /audit/.test(at)) continue;
      const leaf = v === null || typeof v !== 'object' || isLosslessNumber(v);
      if (!names.has(k) || !leaf) inexact(v, names, `${at}.${k}`, found, counted);
      else if (v !== null) {
        counted.n++;
        // A lossless number keeps the token as written: digits only, an optional minus, no fraction or exponent.
        // (A flag of the same name, such as a coup's `voided`, is another field.)
        if (typeof v === 'boolean') continue;
        if (!(isLosslessNumber(v) && /^-?\d+$/.test(v.value))) found.push(`${at}.${k} = ${JSON.stringify(v)}`);
      }
    }
  }
}

describe('money on the wire', () => {
  it('the document declares every amount as an int64 integer, the response fields included', () => {
    const names = moneyNames();
    for (const n of ['amount', 'payout', 'commission', 'net', 'handle', 'win', 'theoreticalWin', 'bank', 'outstanding', 'statisticalWin', 'minBet']) {
      expect(names).toContain(n);
    }
  });

  it('every amount in every recorded answer (every room of the API) is an integer JSON number, exact', () => {
    const names = moneyNames();
    const text = fs.readFileSync(path.join(__dirname, '..', 'golden', 'answers.txt'), 'utf8');
    const answers = text.split(/^### /m).slice(1);
    const found: string[] = [];
    const counted = { n: 0 };
    let bodies = 0;
    for (const answer of answers) {
      const [request, status, ...body] = answer.split('\n');
      if (!status.includes('application/json')) continue;
      bodies++;
      inexact(parse(body.join('\n')), names, request, found, counted);
    }
    expect(bodies).toBeGreaterThan(30);
    expect(found).toEqual([]);
    const checked = counted.n;
    expect(checked).toBeGreaterThan(200);
  });

  it('a bank past 2^53 is answered with every digit, and replayed with every digit', async () => {
    const pit = await givenPit(ctx, { code: 'WIRE-1', variant: 'CHEMIN_DE_FER' });
    const opened = await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/banks`)
      .send({ bankerSeat: 1, amount: 10_000, rotation: [1, 2, 3] });
    expect(opened.status).toBe(201);
    // A bank doubled 17 times from the table maximum is past 2^53: set it so, as the owner.
    const huge = 2n ** 60n + 7n;
    await ctx.prisma.$executeRaw`UPDATE banks SET stake = ${huge} WHERE id = ${opened.body.id}::uuid`;
    const read = await ctx.as(pit.terminal).get(`/v1/banks/${opened.body.id}`);
    expect(read.status).toBe(200);
    expect(read.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(read.text).toContain(`"bank":${huge}`);
    expect(read.text).toContain('"openedWith":10000');

    const retire = () => ctx.as(pit.terminal).post(`/v1/banks/${opened.body.id}/retire`).set('Idempotency-Key', 'wire-retire-1').send({});
    const first = await retire();
    expect(first.status).toBe(200);
    expect(first.text).toContain(`"bank":${huge}`);
    const again = await retire();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toContain(`"bank":${huge}`);
  });
});
