import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { migrate } from '../../src/platform/database/migrate';
import { ensureServiceRole, withUser } from '../../src/platform/database/roles';
import { withClient } from './database';

/**
 * Real PostgreSQL clusters of the machine's own server (Debian's PostgreSQL 15 binaries), each in a
 * folder of its own under the system's temporary folder on a free port of 127.0.0.1: a primary made
 * by initdb, and streaming replicas of it made by pg_basebackup -R, as a production pair is built.
 * PostgreSQL refuses to run as root, so as root the clusters run as the postgres user.
 */
const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

async function pg(tool: string, args: string[]): Promise<string> {
  // PostgreSQL's own tools from BIN; cp and touch from the system, as the same user.
  const file = ['cp', 'touch'].includes(tool) ? tool : path.join(BIN, tool);
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  const { stdout } = await run(cmd, argv, { cwd: os.tmpdir(), maxBuffer: 16 << 20 });
  return stdout;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function clusterDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sabot-${name}-`));
  if (asRoot) fs.chownSync(dir, Number(process.env.PG_UID ?? uidOf('postgres')), Number(process.env.PG_GID ?? gidOf('postgres')));
  fs.chmodSync(dir, 0o700);
  return dir;
}

function passwdEntry(user: string): string[] {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`));
  if (!line) throw new Error(`no ${user} user on this machine: PostgreSQL clusters cannot be made as root without it`);
  return line.split(':');
}
const uidOf = (user: string) => Number(passwdEntry(user)[2]);
const gidOf = (user: string) => Number(passwdEntry(user)[3]);

export interface Cluster {
  readonly port: number;
  readonly dir: string;
  /** A superuser's URL of a database of this cluster (trust authentication on 127.0.0.1). */
  url(database?: string): string;
  /** Stops the server: `fast` rolls back and disconnects; `immediate` is a crash. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops the server (if running) and removes its folder. */
  destroy(): Promise<void>;
}

/** Settings a cluster starts with beyond the common ones (each `-c name=value`). */
export type Settings = Record<string, string>;

async function cluster(dir: string, port: number, settings: Settings = {}): Promise<Cluster> {
  // Logical too: a group's database subscribes to a property's ledgers.
  const extra = Object.entries(settings)
    .map(([name, value]) => ` -c ${name}=${value}`)
    .join('');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c wal_level=logical -c hot_standby_feedback=on${extra}`;
  let running = false;
  const c: Cluster = {
    port,
    dir,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: async () => {
      await pg('pg_ctl', ['-D', dir, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '120', 'start']);
      running = true;
    },
    stop: async (mode = 'fast') => {
      await pg('pg_ctl', ['-D', dir, '-m', mode, '-w', '-t', '120', 'stop']);
      running = false;
    },
    destroy: async () => {
      if (running) await c.stop('immediate').catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await c.start();
  return c;
}

/** A new primary cluster: initdb with trust authentication (replication connections included), started. */
export async function primaryCluster(settings: Settings = {}): Promise<Cluster> {
  const dir = clusterDir('primary');
  await pg('initdb', ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  return cluster(dir, await freePort(), settings);
}

/** A folder the clusters' OS user may write (a WAL archive, say); removed by the caller. */
export function clusterFolder(name: string): string {
  return clusterDir(name);
}

/** A base backup of `primary` (pg_basebackup, its WAL streamed with it) into a folder of its own, not started. */
export async function baseBackup(primary: Cluster): Promise<string> {
  const dir = clusterDir('base');
  await pg('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', dir, '-X', 'stream', '-c', 'fast', '--no-sync']);
  return dir;
}

/**
 * A cluster restored from a base backup (copied, the backup kept) and recovered with `settings`
 * (restore_command, a recovery target, …): recovery.signal written, started, and waited for until
 * it has left recovery (recovery_target_action = promote).
 */
export async function restoredCluster(base: string, settings: Settings): Promise<Cluster> {
  const dir = clusterDir('restored');
  await pg('cp', ['-a', `${base}/.`, dir]);
  await pg('touch', [path.join(dir, 'recovery.signal')]);
  const c = await cluster(dir, await freePort(), { recovery_target_action: 'promote', archive_mode: 'off', ...settings });
  await superuser(c.url(), async (db) => {
    for (let i = 0; (await db.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r')).rows[0].r; i++) {
      if (i > 1_200) throw new Error(`the restored cluster did not leave recovery:\n${fs.readFileSync(path.join(dir, 'server.log'), 'utf8')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  return c;
}

/** A streaming replica of `primary`: a base backup with its standby settings written (-R), started as a hot standby. */
export async function replicaOf(primary: Cluster): Promise<Cluster> {
  const dir = clusterDir('replica');
  await pg('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', dir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
  return cluster(dir, await freePort());
}

/** A query as the cluster's superuser (trust authentication on 127.0.0.1). */
export const superuser = withClient;

/**
 * Sabot's database on a cluster, as it is made in production: created, migrated as its owner, with
 * the service's login role in sabot_app. Returns the owner's and the service's URLs.
 */
export async function sabotDatabase(c: Cluster, name = 'sabot'): Promise<{ ownerUrl: string; serviceUrl: string }> {
  await superuser(c.url(), (db) => db.query(`CREATE DATABASE ${name}`));
  const ownerUrl = c.url(name);
  await migrate(ownerUrl);
  const serviceUrl = withUser(ownerUrl, 'sabot_service', 'replica-test-service');
  await ensureServiceRole(ownerUrl, serviceUrl);
  return { ownerUrl, serviceUrl };
}

/** The primary's write-ahead log position now (where it inserts: commits not yet flushed included). */
export async function walPosition(primaryUrl: string): Promise<string> {
  return superuser(primaryUrl, async (db) => (await db.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn);
}

/**
 * Waits until the replica has replayed the primary's position `lsn` (or `deadlineMs` passes, then
 * throws): a wait on a condition, never a fixed sleep.
 */
export async function replayed(replicaUrl: string, lsn: string, deadlineMs = 60_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  await superuser(replicaUrl, async (db) => {
    for (;;) {
      const r = await db.query<{ done: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn]);
      if (r.rows[0].done) return;
      if (Date.now() > until) throw new Error(`the replica did not replay ${lsn} within ${deadlineMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  });
}
