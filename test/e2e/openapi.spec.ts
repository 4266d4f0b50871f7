import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types';
import { openApiJson } from '../../src/server/app';
import { ERROR_CODES } from '../../src/platform/common/errors';
import { startTestApp, TestContext } from '../support/app';
import { givenKey } from '../support/builders';
import { ROOT } from '../support/process';

/**
 * The OpenAPI document is the auditors' contract: it must validate, lint clean, describe every
 * operation and match the copy kept in the repository (openapi.json, written by `npm run openapi`).
 */
let ctx: TestContext;
let doc: Record<string, any>;
beforeAll(async () => {
  ctx = await startTestApp();
  doc = (
    await request(ctx.app.getHttpServer() as App)
      .get('/docs-json')
      .expect(200)
  ).body;
});
afterAll(() => ctx.close());

type Op = {
  operationId: string;
  description: string;
  parameters?: { name: string; in: string; schema: { format?: string } }[];
  security?: unknown[];
  responses: Record<string, unknown>;
  requestBody?: { content: Record<string, { examples?: unknown }> };
};
const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, Op>>).flatMap(([p, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path: p, method, op })),
  );

describe('the OpenAPI document', () => {
  it('is the file kept in the repository, byte for byte (run `npm run openapi` after an API change)', () => {
    const kept = fs.readFileSync(path.join(ROOT, 'openapi.json'), 'utf8');
    expect(openApiJson(ctx.app)).toBe(kept);
    expect(doc).toEqual(JSON.parse(kept));
  });

  it("validates as OpenAPI 3 (swagger-parser) with no error under Redocly's recommended rules; the one warning left is explained", () => {
    const file = path.join(ROOT, 'openapi.json');
    const out = execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'lint-openapi.mjs'), file, '--json'], { cwd: ROOT, encoding: 'utf8' });
    const { invalid, problems } = JSON.parse(out) as { invalid: string | null; problems: { severity: string; rule: string; at: string }[] };
    expect(invalid).toBeNull();
    expect(JSON.stringify(doc)).not.toContain('"#/components/schemas/"');
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    // The licence is proprietary: there is no public URL to give it.
    expect(problems.map((p) => `${p.rule} ${p.at}`)).toEqual(['info-license-strict #/info/license/url']);
  });

  it('gives every operation a description with who may call it, what it writes and each error code with its meaning', () => {
    for (const { path: p, op } of operations()) {
      expect({ p, who: /\*\*Who may call:\*\* /.test(op.description), writes: /\*\*Writes:\*\* /.test(op.description) }).toEqual({
        p,
        who: true,
        writes: true,
      });
      const listed = [...op.description.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => m[1]);
      expect(listed.length).toBeGreaterThanOrEqual(4);
      for (const code of listed) {
        expect(ERROR_CODES).toContain(code);
        expect(Object.keys(op.responses)).toContain(
          String((/\| `[A-Z_]+` \| (\d{3})/.exec(op.description.slice(op.description.indexOf(`\`${code}\``) - 2)) ?? [])[1]),
        );
      }
    }
  });

  it('declares the Idempotency-Key header on every POST, UUID path ids (a player card where the path names one), and security on every operation', () => {
    for (const { path: p, method, op } of operations()) {
      const header = op.parameters?.find((x) => x.in === 'header' && x.name === 'Idempotency-Key');
      expect({ p, method, idempotencyKey: header !== undefined }).toEqual({ p, method, idempotencyKey: method === 'post' });
      for (const param of op.parameters?.filter((x) => x.in === 'path') ?? []) {
        if (param.name === 'card')
          expect({ p, pattern: (param.schema as { pattern?: string }).pattern }).toEqual({ p, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' });
        else expect({ p, param: param.name, format: param.schema.format }).toEqual({ p, param: param.name, format: 'uuid' });
      }
      expect(Array.isArray(op.security)).toBe(true);
      expect(op.security!.length).toBe(p.startsWith('/health') ? 0 : 1);
    }
    expect(doc.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(doc.components.securitySchemes.apiKey.bearerFormat).toBeUndefined();
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('names every nested object: a schema property is a reference, a scalar, a list of those, or a map', () => {
    const inline: string[] = [];
    const visit = (node: Record<string, any>, at: string) => {
      const isMap = node.type === 'object' && node.additionalProperties !== undefined && node.properties === undefined;
      if (node.type === 'object' && !isMap && !node.allOf) inline.push(at);
      if (node.items) visit(node.items, `${at}/items`);
    };
    for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, { properties?: Record<string, Record<string, unknown>> }>)) {
      for (const [prop, s] of Object.entries(schema.properties ?? {})) visit(s, `${name}.${prop}`);
    }
    expect(inline).toEqual([]);
  });

  it('carries request examples for the main writes: a whole coup, a stepwise coup, a bank coup, a void', () => {
    const examples = (p: string) => Object.keys((doc.paths[p].post as Op).requestBody!.content['application/json'].examples as object);
    expect(examples('/v1/shoes/{id}/coups')).toEqual(['wholeCoup', 'stepwiseOpen']);
    expect(examples('/v1/coups/{id}/cards')).toEqual(['naturals']);
    expect(examples('/v1/banks/{id}/coups')).toEqual(['chemmyBanco', 'chemmyStakes', 'banque']);
    expect(examples('/v1/coups/{id}/void')).toEqual(['wrongTable']);
    expect(doc.paths['/v1/reports/win-loss'].get.responses['200'].content['application/json'].example.totals.handle).toBeGreaterThan(0);
  });

  it('plays its own examples: the whole coup and the three steps of a stepwise coup settle as their summaries say', async () => {
    const body = (p: string, name: string) =>
      ((doc.paths[p].post as Op).requestBody!.content['application/json'].examples as Record<string, { value: object }>)[name].value;
    const table = (
      await ctx.admin
        .post('/v1/tables', { code: 'EX-1', variant: 'COMMISSION', currency: 'EUR', minBet: 1000, maxBet: 500000, sideBets: ['PLAYER_PAIR'] })
        .expect(201)
    ).body;
    const supervisor = ctx.as(await givenKey(ctx, 'SUPERVISOR'));
    const shoe = (await supervisor.post(`/v1/tables/${table.id}/shoes`, {}).expect(201)).body;
    // The example's wager names a player card: it must be registered, as at any casino.
    await supervisor.post('/v1/patrons', { card: 'P-10442' }).expect(201);

    const whole = (await supervisor.post(`/v1/shoes/${shoe.id}/coups`, body('/v1/shoes/{id}/coups', 'wholeCoup')).expect(201)).body;
    expect(whole.outcome).toEqual(expect.objectContaining({ winner: 'BANKER', playerTotal: 5, bankerTotal: 7 }));
    expect(whole.wagers.map((w: { seat: number; result: string; commission: number }) => [w.seat, w.result, w.commission])).toEqual([
      [1, 'WIN', 500],
      [2, 'LOSE', 0],
    ]);

    const opened = (await supervisor.post(`/v1/shoes/${shoe.id}/coups`, body('/v1/shoes/{id}/coups', 'stepwiseOpen')).expect(201)).body;
    expect(opened.status).toBe('BETTING');
    await supervisor.post(`/v1/coups/${opened.id}/wagers`, body('/v1/coups/{id}/wagers', 'twoSeats')).expect(201);
    const dealt = (await supervisor.post(`/v1/coups/${opened.id}/cards`, body('/v1/coups/{id}/cards', 'naturals')).expect(200)).body;
    expect(dealt.outcome).toEqual(expect.objectContaining({ winner: 'PLAYER', playerTotal: 9, bankerTotal: 7, natural: true }));
    expect(dealt.wagers).toHaveLength(3);
  });
});
