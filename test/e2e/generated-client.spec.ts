import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ADMIN_KEY, startTestApp, TestContext } from '../support/app';
import { ROOT } from '../support/process';

/**
 * A client generated from the served document by a mainstream generator (openapi-typescript, the
 * calls through openapi-fetch), with no hand patch: test/client/play-shoe.ts must type-check
 * against it and play a whole shoe. If the document drifts from what the service does, this fails.
 */
const CLIENT = path.join(ROOT, 'test', 'client');
let ctx: TestContext;
let baseUrl: string;
beforeAll(async () => {
  ctx = await startTestApp();
  await ctx.app.listen(0, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
});
afterAll(() => ctx.close());

describe('a client generated from the served OpenAPI document', () => {
  it('generates and type-checks the shoe-playing script against the generated types', async () => {
    const served = await (await fetch(`${baseUrl}/docs-json`)).text();
    fs.mkdirSync(path.join(CLIENT, 'generated'), { recursive: true });
    const docFile = path.join(CLIENT, 'generated', 'openapi.json');
    fs.writeFileSync(docFile, served);
    const cli = path.join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
    execFileSync(process.execPath, [cli, docFile, '-o', path.join(CLIENT, 'generated', 'sabot.ts')], { cwd: ROOT, stdio: 'pipe' });
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    let out = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', path.join(CLIENT, 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8' });
    } catch (e) {
      out = String((e as { stdout?: string }).stdout);
    }
    expect(out).toBe('');
  });

  it('plays a whole 8-deck shoe through it: coups, commission collected, a two-person void, the win/loss report', async () => {
    const { playShoe } = await import('../client/play-shoe');
    const r = await playShoe(baseUrl, ADMIN_KEY, 7);
    // The cut card 16 from the end: the shoe refuses a coup once its last one is dealt.
    expect(r.finishedWith).toBe('SHOE_EXHAUSTED');
    expect(r.coups.length).toBeGreaterThan(60);
    for (const c of r.coups) expect(c.status).toBe('SETTLED');
    expect(r.voided.void).toEqual(expect.objectContaining({ reason: 'Keyed at the wrong table' }));

    const standing = r.coups.slice(0, -1);
    const wagers = standing.flatMap((c) => c.wagers);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(r.totals.coups).toBe(standing.length);
    expect(r.totals.wagers).toBe(wagers.length);
    expect(r.totals.handle).toBe(sum(wagers.map((w) => w.amount)));
    // What the customers lost is what the house won, commission included.
    expect(r.totals.win).toBe(-sum(wagers.map((w) => w.net!)));
    expect(r.totals.commissionCharged).toBe(sum(wagers.map((w) => w.commission!)));
    expect(r.totals.commissionCollected).toBe(r.collected);
    expect(r.totals.commissionOutstanding).toBe(r.totals.commissionCharged - r.collected);
    expect(r.outstandingAfter).toBe(r.totals.commissionOutstanding);
    expect(r.collected).toBeGreaterThan(0);
    expect(r.voidedFromReport).toBe(1);
  });
});
