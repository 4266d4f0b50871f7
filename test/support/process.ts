import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The built service (`npm test` builds first), started as its own OS process. */
export const ROOT = path.resolve(__dirname, '..', '..');
export const MAIN = path.join(ROOT, 'dist', 'src', 'server', 'main.js');

export function ensureBuilt(): void {
  if (!fs.existsSync(MAIN)) execFileSync('npx', ['nest', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

export interface Service {
  child: ChildProcess;
  /** Known once the service says where it listens (it takes any free port). */
  readonly port: number;
  readonly url: string;
  output(): string;
}

/** The built service on a free port of its own choosing (PORT=0): no two test processes can collide. */
export function startService(env: Record<string, string>): Service {
  let out = '';
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', PORT: '0', METRICS_PORT: 'off', LOG_LEVEL: 'log', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const port = () => Number(/Serving on http:\/\/localhost:(\d+)/.exec(out)?.[1] ?? 0);
  return {
    child,
    get port() {
      return port();
    },
    get url() {
      return `http://127.0.0.1:${port()}`;
    },
    output: () => out,
  };
}

export async function waitForHealth(s: Service, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (s.child.exitCode !== null) throw new Error(`the service exited (${s.child.exitCode}):\n${s.output()}`);
    try {
      if (s.port > 0 && (await fetch(`${s.url}/health`)).status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the service did not become healthy:\n${s.output()}`);
}

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

/** A small JSON client for a running service. */
export function client(baseUrl: string, key: string) {
  const call = async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(baseUrl + p, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, any>) : {} };
  };
  return {
    get: (p: string) => call('GET', p),
    post: (p: string, body?: unknown, headers?: Record<string, string>) => call('POST', p, body ?? {}, headers),
  };
}

/**
 * An embedded PostgreSQL in its own process (Jest's module registry cannot load the ESM package
 * on Node 20; plain Node can). stop() shuts it down cleanly.
 */
export async function startPostgresProcess(dataDir: string, port: number, database: string): Promise<{ url: string; stop(): Promise<void> }> {
  ensureBuilt();
  const script = `
    const { startEmbeddedDatabase } = require(${JSON.stringify(path.join(ROOT, 'dist', 'src', 'platform', 'database', 'embedded.js'))});
    startEmbeddedDatabase(${JSON.stringify(dataDir)}, ${port}, ${JSON.stringify(database)}).then((db) => {
      process.stdout.write('READY ' + db.url + '\\n');
      process.on('SIGTERM', () => db.stop().then(() => process.exit(0)));
    }, (e) => { console.error(e); process.exit(1); });`;
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /READY (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => reject(new Error(`embedded PostgreSQL exited (${code}): ${out}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}
