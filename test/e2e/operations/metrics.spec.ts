import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../../../src/domain';
import { cloneTestDatabase } from '../../support/database';
import { client, ensureBuilt, exited, Service, startService, waitForHealth } from '../../support/process';

/**
 * What an operator sees from outside the service: /metrics in Prometheus' text format on its own
 * port, liveness apart from readiness, and a SIGTERM that lets a request in flight finish.
 */
jest.setTimeout(120_000);
const ADMIN = 'metrics-admin-key-0123456789abcdef012345678';
let db: { url: string; drop(): Promise<void> };
let service: Service;

beforeAll(async () => {
  ensureBuilt();
  db = await cloneTestDatabase();
  service = startService({ DATABASE_URL: db.url, ADMIN_API_KEY: ADMIN, METRICS_PORT: '0', SURVEILLANCE: 'off' });
  await waitForHealth(service);
});
afterAll(async () => {
  if (service.child.exitCode === null) service.child.kill('SIGKILL');
  await db.drop();
});

const metricsUrl = () => {
  const port = /Metrics on http:\/\/localhost:(\d+)\/metrics/.exec(service.output())?.[1];
  if (!port) throw new Error(`no metrics port in:\n${service.output()}`);
  return `http://127.0.0.1:${port}/metrics`;
};
/** One sample's value from the text format (null when absent). */
const sample = (text: string, name: string, labels = ''): number | null => {
  const line = text.split('\n').find((l) => l.startsWith(labels ? `${name}{` : `${name} `) && l.includes(labels));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : null;
};

it('/metrics: coups and wagers settled, request durations by declared route and status, the backlogs, the pool and the event loop', async () => {
  const admin = client(service.url, ADMIN);
  const table = (await admin.post('/v1/tables', { code: 'MET-1', variant: 'COMMISSION', currency: 'EUR', minBet: 100, maxBet: 1_000_000 })).body;
  const terminal = (await admin.post('/v1/api-keys', { name: 'metrics terminal', role: 'TERMINAL', tableId: table.id })).body.key as string;
  const shoe = (await client(service.url, terminal).post(`/v1/tables/${table.id}/shoes`, {})).body;
  const cards = shuffledShoe(8, seededRandom(94));
  let pos = 0;
  for (let i = 0; i < 3; i++) {
    const d = dealPuntoBanco(cards, pos)!;
    pos += d.used;
    const coup = await client(service.url, terminal).post(`/v1/shoes/${shoe.id}/coups`, {
      cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) },
      wagers: [
        { seat: 1, betType: 'BANKER', amount: 1_000 },
        { seat: 2, betType: 'PLAYER', amount: 1_000 },
      ],
    });
    expect(coup.status).toBe(201);
  }
  // A stepwise coup: opened for betting, then its cards: counted once, when settled.
  const open = await client(service.url, terminal).post(`/v1/shoes/${shoe.id}/coups`, { wagers: [{ seat: 3, betType: 'TIE', amount: 1_000 }] });
  expect([open.status, open.body.status]).toEqual([201, 'BETTING']);
  const d = dealPuntoBanco(cards, pos)!;
  const dealt = await client(service.url, terminal).post(`/v1/coups/${open.body.id}/cards`, {
    player: d.player.map(formatCard),
    banker: d.banker.map(formatCard),
  });
  expect([dealt.status, dealt.body.status]).toEqual([200, 'SETTLED']);
  expect((await fetch(`${service.url}/v1/nothing-here`)).status).toBe(404);
  // Refused before routing, on paths a client makes up: no new series for each.
  for (const p of ['/made-up-1', '/made-up-2'])
    expect((await fetch(`${service.url}${p}`, { method: 'POST', body: 'x', headers: { 'Content-Type': 'text/plain' } })).status).toBeGreaterThanOrEqual(400);

  expect((await fetch(`${service.url}/app/`)).status).toBe(200);
  // A client that goes away before its request is whole: counted, as aborted.
  const gone = net.connect(service.port, '127.0.0.1');
  await new Promise((r) => gone.once('connect', r));
  // Expect: 100-continue: the server says "100 Continue" once it has the request's head, and only then does the client go.
  const continued = new Promise((r) => gone.on('data', (d: Buffer) => d.toString().includes('100 Continue') && r(null)));
  gone.write(`POST /v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`);
  await continued;
  gone.destroy();
  let text = '';
  for (let i = 0; i < 100 && !text.includes('status="aborted"'); i++) {
    text = await (await fetch(metricsUrl())).text();
    if (!text.includes('status="aborted"')) await new Promise((r) => setTimeout(r, 20));
  }
  expect(sample(text, 'sabot_http_request_duration_seconds_count', 'route="/v1/*",status="aborted"')).toBe(1);
  expect(sample(text, 'sabot_http_request_duration_seconds_count', 'route="/app/*",status="200"')).toBeGreaterThanOrEqual(1);

  const res = await fetch(metricsUrl());
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  text = await res.text();
  expect(sample(text, 'sabot_coups_settled_total')).toBe(4);
  expect(sample(text, 'sabot_wagers_settled_total')).toBe(7);
  expect(sample(text, 'sabot_http_request_duration_seconds_count', 'route="/v1/shoes/:id/coups",status="201"')).toBe(4); // three whole coups and the stepwise one's opening
  expect(sample(text, 'sabot_http_request_duration_seconds_count', 'route="unmatched",status="404"')).toBe(1);
  expect(text).not.toContain('made-up');
  // No NATS here: every audit entry waits in the outbox, the oldest as old as the first write.
  expect(sample(text, 'sabot_outbox_backlog_entries')).toBeGreaterThan(0);
  expect(sample(text, 'sabot_outbox_oldest_seconds')).toBeGreaterThanOrEqual(0);
  // SURVEILLANCE=off and no surveyor: the coups' entries wait for one.
  expect(sample(text, 'sabot_surveillance_backlog_entries')).toBeGreaterThanOrEqual(3);
  expect(sample(text, 'sabot_db_pool_connections', 'pool="primary",state="total"')).toBeGreaterThan(0);
  expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  // No replica configured: no lag to report, and it says so.
  expect(sample(text, 'sabot_replica_lag_seconds')).toBeNull();
  expect(sample(text, 'sabot_replica_configured')).toBe(0);
  expect((await fetch(metricsUrl().replace('/metrics', '/other'))).status).toBe(404);

  // The Grafana dashboard and the alert rules in deploy/ read only what the service exposes.
  const root = path.join(__dirname, '..', '..', '..');
  const used = (file: string) => [...fs.readFileSync(path.join(root, file), 'utf8').matchAll(/\b(?:sabot|nodejs)_[a-z0-9_]+/g)].map((m) => m[0]);
  const names = [...new Set([...used('deploy/grafana/dashboards/sabot.json'), ...used('deploy/prometheus/alerts.yml')])];
  expect(names.length).toBeGreaterThan(8);
  // sabot_replica_lag_seconds appears only where a replica is configured (test/e2e/operations/replica.spec.ts has one).
  for (const name of names.filter((n) => n !== 'sabot_replica_lag_seconds')) expect([name, text.includes(`${name}`)]).toEqual([name, true]);
});

it('liveness and readiness apart: both 200 while the database answers', async () => {
  const live = await fetch(`${service.url}/health/live`);
  expect([live.status, await live.json()]).toEqual([200, { status: 'ok' }]);
  expect((await fetch(`${service.url}/health/ready`)).status).toBe(200);
  expect((await fetch(`${service.url}/health`)).status).toBe(200);
});

it('SIGTERM: a request in flight finishes and is answered, an idle keep-alive connection is closed, no new connection is taken, and the process exits 0', async () => {
  // A request in flight by construction: its headers sent, its body not yet.
  const body = JSON.stringify({ code: 'MET-DRAIN', variant: 'COMMISSION', currency: 'EUR', minBet: 100, maxBet: 1_000_000 });
  const socket = net.connect(service.port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  let answer = '';
  socket.on('data', (d: Buffer) => (answer += d.toString()));
  socket.write(
    `POST /v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
  );
  // A keep-alive client, idle between two requests when the signal comes.
  const idle = net.connect(service.port, '127.0.0.1');
  await new Promise((r) => idle.once('connect', r));
  let idleAnswer = '';
  const answered = new Promise((r) => idle.on('data', (d: Buffer) => (idleAnswer += d.toString()) && idleAnswer.includes('"ok"') && r(null)));
  idle.write('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await answered;
  expect(idleAnswer).toMatch(/keep-alive/i);
  const idleClosed = new Promise((r) => idle.once('close', r));
  service.child.kill('SIGTERM');
  service.child.kill('SIGTERM'); // a second signal changes nothing: the drain goes on
  // The idle keep-alive connection is closed at once, not kept to the end of the grace period.
  await idleClosed;
  // Until the listener is closed, new connections still succeed: wait for the refusal, not for a time.
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const probe = net.connect(service.port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve(false);
      });
      probe.once('error', () => resolve(true));
    });
    if (refused) break;
    await new Promise((r) => setImmediate(r));
  }
  expect(service.child.exitCode).toBeNull(); // still draining: the request above is in flight
  socket.write(body.slice(10));
  await new Promise((r) => socket.once('close', r));
  expect(answer).toMatch(/^HTTP\/1\.1 201 /);
  expect(answer).toContain('"code":"MET-DRAIN"');
  expect(await exited(service.child)).toBe(0);
});
