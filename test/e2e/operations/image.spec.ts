import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../../../src/domain';
import { AUDIT_KEYS, AUDIT_SIGNING_KEY } from '../../support/app';
import { cloneTestDatabase } from '../../support/database';
import { buildStages, readDockerfile, Stage } from '../../support/dockerfile';
import { client, exited, ROOT } from '../../support/process';

/**
 * The service image, built with no Docker engine (none runs here): a clean folder holding exactly
 * what the Dockerfile's COPY lines take from the checkout (less .dockerignore), the build stage's
 * own RUN lines (npm ci from the lockfile, the build, the prune), then the last stage's file system
 * from what it copies out of the build stage, started with its CMD and ENV as its USER would. If the
 * Dockerfile forgets a file the build or the service needs, this fails.
 */
jest.setTimeout(900_000);
const ADMIN = 'image-admin-key-0123456789abcdef0123456789';
let stages: Stage[];
let work: string;
let folders: string[];
let service: ChildProcess | null = null;
let out = '';
let db: { url: string; drop(): Promise<void> };

beforeAll(async () => {
  stages = readDockerfile(path.join(ROOT, 'Dockerfile'));
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-image-'));
  folders = buildStages(stages, ROOT, work);
  db = await cloneTestDatabase();
});
afterAll(async () => {
  if (service && service.exitCode === null) service.kill('SIGKILL');
  await db?.drop();
  fs.rmSync(work, { recursive: true, force: true });
});

it('has a build stage and a runtime stage on a supported Node LTS, runs as a user that is not root, with a HEALTHCHECK', () => {
  expect(stages.map((s) => s.name)).toEqual(['build', null]);
  const runtime = stages[1];
  for (const s of stages) expect(Number(/^node:(\d+)/.exec(s.image)?.[1])).toBeGreaterThanOrEqual(24);
  expect(runtime.user).not.toBeNull();
  expect(['root', '0']).not.toContain(runtime.user);
  expect(runtime.healthcheck).not.toBeNull();
  expect(runtime.env).toMatchObject({ NODE_ENV: 'production' });
  // Nothing of the build's toolchain in the runtime: no sources, no dev dependencies.
  const app = folders[1];
  expect(fs.existsSync(path.join(app, 'src'))).toBe(false);
  for (const dev of ['jest', 'vite', '@nestjs/cli']) expect(fs.existsSync(path.join(app, 'node_modules', dev))).toBe(false);
  expect(fs.existsSync(path.join(app, 'dist', 'src', 'server', 'main.js'))).toBe(true);
});

it('starts from its CMD against PostgreSQL: healthy by its own HEALTHCHECK, a coup settled, a report, /docs and the screens served', async () => {
  const runtime = stages[1];
  const [command, ...args] = runtime.cmd!;
  service = spawn(command, args, {
    cwd: folders[1],
    env: {
      PATH: process.env.PATH ?? '',
      ...runtime.env,
      PORT: '0',
      DATABASE_URL: db.url,
      ADMIN_API_KEY: ADMIN,
      AUDIT_KEYS,
      AUDIT_SIGNING_KEY,
      SURVEILLANCE: 'off',
      METRICS_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  service.stdout!.on('data', (d) => (out += d));
  service.stderr!.on('data', (d) => (out += d));
  let port = 0;
  for (let i = 0; i < 600 && port === 0; i++) {
    if (service.exitCode !== null) throw new Error(`the image's service exited (${service.exitCode}):\n${out}`);
    port = Number(/Serving on http:\/\/localhost:(\d+)/.exec(out)?.[1] ?? 0);
    if (port === 0) await new Promise((r) => setTimeout(r, 100));
  }
  expect(port).toBeGreaterThan(0);
  const url = `http://127.0.0.1:${port}`;

  // The image's own HEALTHCHECK, as the engine would run it inside the container.
  const [hcCommand, ...hcArgs] = runtime.healthcheck!;
  expect(() => execFileSync(hcCommand, hcArgs, { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, timeout: 10_000 })).not.toThrow();

  const admin = client(url, ADMIN);
  const table = await admin.post('/v1/tables', { code: 'IMG-1', variant: 'COMMISSION', currency: 'EUR', minBet: 100, maxBet: 1_000_000 });
  expect(table.status).toBe(201);
  const terminal = (await admin.post('/v1/api-keys', { name: 'image terminal', role: 'TERMINAL', tableId: table.body.id })).body.key as string;
  const shoe = await client(url, terminal).post(`/v1/tables/${table.body.id}/shoes`, {});
  expect(shoe.status).toBe(201);
  const d = dealPuntoBanco(shuffledShoe(8, seededRandom(36)), 0)!;
  const coup = await client(url, terminal).post(`/v1/shoes/${shoe.body.id}/coups`, {
    cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) },
    wagers: [{ seat: 1, betType: 'BANKER', amount: 10_000 }],
  });
  expect(coup.status).toBe(201);
  const day = coup.body.gamingDay as string;
  const report = await admin.get(`/v1/reports/win-loss?from=${day}&to=${day}`);
  expect(report.status).toBe(200);
  expect(JSON.stringify(report.body)).toContain('10000');
  expect((await fetch(`${url}/docs-json`)).status).toBe(200);
  const metricsPort = /Metrics on http:\/\/localhost:(\d+)\/metrics/.exec(out)?.[1];
  expect(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()).toContain('sabot_coups_settled_total 1');
  const screens = await fetch(`${url}/app/`);
  expect(screens.status).toBe(200);
  expect(await screens.text()).toContain('<div id="root"');

  // The operators' commands, as the README gives them, inside the image.
  const ledger = spawnSync('npm', ['run', '--silent', 'ledger', '--', 'months'], {
    cwd: folders[1],
    env: { PATH: process.env.PATH ?? '', HOME: work, ...runtime.env, DATABASE_URL: db.url },
    encoding: 'utf8',
  });
  expect([ledger.status, ledger.stdout]).toEqual([0, expect.stringContaining('No sources here')]);

  service.kill('SIGTERM');
  expect(await exited(service)).toBe(0);
});
