import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/**
 * The V8 flags `npm start` gives node and the script it runs (package.json's start script), so
 * benchmarks run what production runs, whichever layout the checkout's commit has.
 */
function startCommand(dir: string): { flags: string; main: string } {
  const start = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const m = /^node (.*?)\s*(dist\/src\/\S+\.js)$/.exec(start);
  if (!m) throw new Error(`package.json's start script is not "node <flags> dist/src/…/main.js": ${start}`);
  return { flags: m[1], main: m[2] };
}

/**
 * The built service as its own process (dist/src/server/main.js), as `npm start` runs it: the load
 * generator never shares its event loop. SERVICE_NODE_ARGS overrides the V8 flags (e.g. --cpu-prof).
 * `dir` is the checkout whose build runs (another commit's, to compare side by side).
 */
export async function startServiceProcess(
  env: Record<string, string>,
  dir = process.cwd(),
): Promise<{ base: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = 24000 + Math.floor(Math.random() * 1000);
  const { flags, main } = startCommand(dir);
  const nodeArgs = (process.env.SERVICE_NODE_ARGS ?? flags).split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, path.join(dir, main)], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  try {
    await waitHealthy(base, child);
  } catch (e) {
    await stop();
    throw e;
  }
  return { base, child, stop };
}

async function waitHealthy(base: string, child: ChildProcess) {
  for (let i = 0; i < 300 && child.exitCode === null; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the service did not start');
}

/** The process's peak resident memory, sampled every 100 ms until stop(). */
export function sampleRss(child: ChildProcess) {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
      peak = Math.max(peak, kb / 1024);
    } catch {
      /* gone */
    }
  }, 100);
  return { stop: () => (clearInterval(timer), peak) };
}

/**
 * A keep-alive JSON POST over node:http (lighter than fetch for a load generator), with its own
 * agent of `maxSockets` connections.
 */
export function jsonPoster(maxSockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  return (url: string, key: string, body: unknown): Promise<{ status: number; body: Record<string, string> }> => {
    const data = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data), Authorization: `Bearer ${key}` } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, string> }));
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  };
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU time a process has used so far (user + system), in ms, from /proc. */
export function processCpuMs(pid: number): number {
  const fields = fs
    .readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  // After "pid (comm) ", field 3 (state) is index 0: utime is field 14, stime field 15.
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/**
 * CPU time the whole machine has spent busy so far (user, nice, system, irq, softirq; not idle, not
 * waiting for the disk, not stolen by the hypervisor's other guests), in ms. Per coup, this is far
 * steadier than coups a second on a shared machine: a neighbour's load slows the clock, not the work.
 */
export function machineCpuMs(): number {
  const [user, nice, system, , , irq, softirq] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq) * TICK_MS;
}

/**
 * A benchmark's pit terminal: an EZ Baccarat table with every side bet and tie bets that stay (so
 * that coups carry bets), and a terminal's key bound to it.
 */
export async function benchTerminal(
  post: (key: string, path: string, body: unknown) => Promise<{ body: Record<string, unknown> }>,
  adminKey: string,
  code: string,
): Promise<{ tableId: string; key: string }> {
  const table = (
    await post(adminKey, '/v1/tables', {
      code,
      variant: 'EZ',
      currency: 'EUR',
      minBet: 100,
      maxBet: 1_000_000,
      sideBets: ['PLAYER_PAIR', 'BANKER_PAIR', 'DRAGON_7', 'PANDA_8'],
      tieBetsStay: true,
    })
  ).body;
  const key = (await post(adminKey, '/v1/api-keys', { name: `terminal ${code}`, role: 'TERMINAL', tableId: table.id })).body.key as string;
  return { tableId: table.id as string, key };
}

/**
 * A host's key, made as a casino makes one: the bootstrap key registers the first two
 * administrators alone and mints their keys; one proposes the host, the other approves; the first
 * mints the host's key. Staff numbers begin with `prefix`.
 */
export async function benchHost(
  post: (key: string, path: string, body: unknown) => Promise<{ body: Record<string, string> }>,
  bootstrapKey: string,
  prefix: string,
): Promise<string> {
  const admins: string[] = [];
  for (const staffId of [`${prefix}-ADM-1`, `${prefix}-ADM-2`]) {
    await post(bootstrapKey, '/v1/staff', { staffId, name: staffId, roles: ['ADMIN'], reason: 'bench' });
    admins.push((await post(bootstrapKey, '/v1/api-keys', { name: staffId, role: 'ADMIN', staffId })).body.key);
  }
  const change = (await post(admins[0], '/v1/staff', { staffId: `${prefix}-HOST`, name: 'bench host', roles: ['HOST'], reason: 'bench' })).body.id;
  await post(admins[1], `/v1/staff/changes/${change}/approve`, {});
  return (await post(admins[0], '/v1/api-keys', { name: 'bench host', role: 'HOST', staffId: `${prefix}-HOST` })).body.key;
}

/**
 * Staff keys on a benchmark's kept database. Two administrators are registered by the bootstrap key
 * on the database's first run (after which it registers no person) and their keys kept beside the
 * seed, in bench/results/<keptAs>-administrators-<database>.json, for the runs after it; then each
 * role asked for gets a person of its own, proposed by one administrator and approved by the other.
 */
export async function benchStaffKeys(
  base: string,
  bootstrapKey: string,
  databaseUrl: string,
  keptAs: string,
  roles: readonly string[],
): Promise<Record<string, string>> {
  const post = async (route: string, key: string, body: unknown) => {
    const res = await fetch(base + route, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ key: string; id: string }>;
  };
  const kept = path.join(process.cwd(), 'bench', 'results', `${keptAs}-administrators-${new URL(databaseUrl).pathname.slice(1)}.json`);
  let admins: string[];
  if (fs.existsSync(kept)) admins = JSON.parse(fs.readFileSync(kept, 'utf8')) as string[];
  else {
    admins = [];
    for (const staffId of [`B-ADM-1-${keptAs}`, `B-ADM-2-${keptAs}`]) {
      await post('/v1/staff', bootstrapKey, { staffId, name: staffId, roles: ['ADMIN'], reason: 'bench' });
      admins.push((await post('/v1/api-keys', bootstrapKey, { name: staffId, role: 'ADMIN', staffId })).key);
    }
    fs.mkdirSync(path.dirname(kept), { recursive: true });
    fs.writeFileSync(kept, JSON.stringify(admins), { mode: 0o600 });
  }
  const tag = `${process.pid}-${Date.now() % 100000}`;
  const keys: Record<string, string> = {};
  for (const role of roles) {
    const staffId = `B-${role}-${tag}`;
    const change = await post('/v1/staff', admins[0], { staffId, name: `bench ${role.toLowerCase()}`, roles: [role], reason: 'bench' });
    await post(`/v1/staff/changes/${change.id}/approve`, admins[1], {});
    keys[role] = (await post('/v1/api-keys', admins[0], { name: `bench ${role.toLowerCase()}`, role, staffId })).key;
  }
  return keys;
}
