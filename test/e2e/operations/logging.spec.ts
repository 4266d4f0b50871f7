import { cloneTestDatabase } from '../../support/database';
import { administratorsOn, givenStaffOn } from '../../support/builders';
import { client, ensureBuilt, exited, Service, startService, waitForHealth } from '../../support/process';

/**
 * The service's log, as an operations team reads it: one JSON object a line, each request's lines
 * carrying its correlation id and its caller, and never an API key.
 */
jest.setTimeout(60_000);
const ADMIN = 'logging-admin-key-0123456789abcdef0123456789';
let db: { url: string; drop(): Promise<void> };
let service: Service;

beforeAll(async () => {
  ensureBuilt();
  db = await cloneTestDatabase();
  service = startService({ DATABASE_URL: db.url, ADMIN_API_KEY: ADMIN });
  await waitForHealth(service);
});
afterAll(async () => {
  service.child.kill('SIGTERM');
  await exited(service.child);
  await db.drop();
});

type Line = Record<string, unknown> & { msg?: string; correlationId?: string; level: number };

/** The lines logged so far; every one of them must be a JSON object. */
function lines(): Line[] {
  return service
    .output()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line);
}

async function linesOf(correlationId: string, count: number): Promise<Line[]> {
  // The request's last line is written as the answer finishes: wait for it rather than guess a time.
  for (let i = 0; i < 100; i++) {
    const found = lines().filter((l) => l.correlationId === correlationId);
    if (found.length >= count) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${count} log lines for ${correlationId}:\n${service.output()}`);
}

describe('structured logs', () => {
  it('writes every line as JSON, the start included', () => {
    const all = lines();
    expect(all.length).toBeGreaterThan(0);
    expect(all.some((l) => /^Serving on http:\/\/localhost:\d+/.test(l.msg ?? ''))).toBe(true);
    for (const l of all) expect(typeof l.time).toBe('number');
  });

  it('ends a request with one line: its correlation id, caller, method, URL and status, at info', async () => {
    const res = await client(service.url, ADMIN).post(
      '/v1/properties',
      { name: 'Casino Logged', timeZone: 'Europe/Monaco', gamingDayStartHour: 6 },
      { 'X-Correlation-Id': 'log-test-create' },
    );
    expect(res.status).toBe(201);
    const [done] = await linesOf('log-test-create', 1);
    expect(done).toMatchObject({
      level: 30,
      correlationId: 'log-test-create',
      role: 'ADMIN',
      req: { method: 'POST', url: '/v1/properties' },
      res: { statusCode: 201 },
      msg: 'request completed',
    });
    expect(typeof done.actor).toBe('string');
    expect(typeof done.responseTime).toBe('number');
  });

  it('carries the correlation id and the caller on the lines a request logs along the way', async () => {
    const as = (k: string) => client(service.url, k);
    await givenStaffOn(service.url, as, ADMIN, 'E-LOG-1', 'AUDITOR');
    const res = await as((await administratorsOn(service.url, as, ADMIN)).first).post(
      '/v1/api-keys',
      { name: 'auditor', role: 'AUDITOR', staffId: 'E-LOG-1' },
      { 'X-Correlation-Id': 'log-test-key' },
    );
    expect(res.status).toBe(201);
    const found = await linesOf('log-test-key', 2);
    const created = found.find((l) => l.msg?.startsWith(`API key ${res.body.apiKey.id} (AUDITOR) created`));
    expect(created).toMatchObject({
      level: 30,
      correlationId: 'log-test-key',
      actor: expect.stringMatching(/^[0-9a-f-]{36}$/),
      role: 'ADMIN',
      context: 'ApiKeysService',
    });
    expect(service.output()).not.toContain(res.body.key);
  });

  it('logs a refused request at warn with its status, and no header of it', async () => {
    const res = await client(service.url, ADMIN).post('/v1/properties', { name: 'x', timeZone: 'Mars/Olympus' }, { 'X-Correlation-Id': 'log-test-refused' });
    expect(res.status).toBe(400);
    const [done] = await linesOf('log-test-refused', 1);
    expect(done).toMatchObject({ level: 40, correlationId: 'log-test-refused', res: { statusCode: 400 } });
    expect(Object.keys(done.req as object).sort()).toEqual(['method', 'url']);
  });

  it('never writes an API key, even one that was refused', async () => {
    const unknown = 'sab_this-key-does-not-exist-0123456789abcdef';
    expect((await client(service.url, unknown).get('/v1/tables')).status).toBe(401);
    await client(service.url, ADMIN).get('/v1/tables');
    expect(service.output()).not.toContain(unknown);
    expect(service.output()).not.toContain(ADMIN);
  });
});
