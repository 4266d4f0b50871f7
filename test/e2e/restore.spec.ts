import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../../src/domain';
import { AUDIT_KEYS, AUDIT_SIGNING_KEY } from '../support/app';
import { client, ensureBuilt, exited, ROOT, Service, startService, waitForHealth } from '../support/process';

/**
 * The restore drill (docs/operations.md, "Backup and restore"), on a PostgreSQL 15 cluster of its
 * own: a pit records while a base backup (pg_basebackup) is taken and the WAL is archived; an
 * auditor keeps a signed checkpoint; a restore point is made; the pit records more. The cluster is
 * then restored from the base backup and the archive, to that point, into a new data folder: the
 * auditor's tool (audit:verify) finds the restored records whole against the checkpoint kept before
 * the point, and says entries were cut against the one kept after it; the coups recorded after the
 * point are exactly the ones missing.
 */
jest.setTimeout(240_000);
const BIN = '/usr/lib/postgresql/15/bin';
const ADMIN = 'restore-drill-admin-key-0123456789abcdef012';
const asRoot = process.getuid?.() === 0;
let dir: string;
let ports: { primary: number; restored: number };
let service: Service | null = null;

/** A PostgreSQL command, as the postgres OS user when the suite runs as root (PostgreSQL refuses root). */
function pg(command: string, args: string[]): string {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(BIN, command), ...args]] : [path.join(BIN, command), args];
  const run = spawnSync(file, argv, { encoding: 'utf8', cwd: dir });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}
const url = (port: number, database = 'sabot_drill_test') => `postgres://postgres@127.0.0.1:${port}/${database}`;
async function query<T extends object>(port: number, text: string): Promise<T[]> {
  const c = new Client({ connectionString: url(port) });
  await c.connect();
  try {
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end();
  }
}
/** Waits for a condition (never for a time), saying what the server logged if it never comes. */
async function until(done: () => boolean | Promise<boolean>, log: string): Promise<void> {
  for (let i = 0; i < 1_200; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting; ${log} says:\n${fs.readFileSync(path.join(dir, log), 'utf8')}`);
}
const freePort = () => 20_000 + Math.floor(Math.random() * 10_000);

beforeAll(() => {
  ensureBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-drill-'));
  fs.chmodSync(dir, 0o755);
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  ports = { primary: freePort(), restored: freePort() };
  pg('initdb', ['-D', 'primary', '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  fs.mkdirSync(path.join(dir, 'archive'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', path.join(dir, 'archive')]);
  fs.appendFileSync(
    path.join(dir, 'primary', 'postgresql.conf'),
    [
      `port = ${ports.primary}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'wal_level = replica',
      'archive_mode = on',
      // The WAL archive: every finished segment copied out, never overwritten.
      `archive_command = 'test ! -f ${dir}/archive/%f && cp %p ${dir}/archive/%f'`,
      'fsync = off',
      '',
    ].join('\n'),
  );
  pg('pg_ctl', ['-D', 'primary', '-l', 'primary.log', '-w', 'start']);
  pg('createdb', ['-h', '127.0.0.1', '-p', String(ports.primary), '-U', 'postgres', 'sabot_drill_test']);
});
afterAll(async () => {
  if (service && service.child.exitCode === null) {
    service.child.kill('SIGTERM');
    await exited(service.child);
  }
  for (const cluster of ['primary', 'restored'])
    if (fs.existsSync(path.join(dir, cluster, 'postmaster.pid'))) pg('pg_ctl', ['-D', cluster, '-m', 'immediate', 'stop']);
  fs.rmSync(dir, { recursive: true, force: true });
});

it('restores to a point in time from a base backup and the WAL archive: the records verify, and the coups after the point are the ones missing', async () => {
  service = startService({ DATABASE_URL: url(ports.primary), ADMIN_API_KEY: ADMIN, AUDIT_KEYS, AUDIT_SIGNING_KEY, SURVEILLANCE: 'off' });
  await waitForHealth(service);
  const admin = client(service.url, ADMIN);
  const table = (await admin.post('/v1/tables', { code: 'DRILL-1', variant: 'COMMISSION', currency: 'EUR', minBet: 100, maxBet: 1_000_000 })).body;
  const terminal = client(service.url, (await admin.post('/v1/api-keys', { name: 'drill terminal', role: 'TERMINAL', tableId: table.id })).body.key as string);
  const shoe = (await terminal.post(`/v1/tables/${table.id}/shoes`, {})).body;
  const cards = shuffledShoe(8, seededRandom(2026));
  let pos = 0;
  const coups = async (n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const d = dealPuntoBanco(cards, pos)!;
      pos += d.used;
      const res = await terminal.post(`/v1/shoes/${shoe.id}/coups`, {
        cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) },
        wagers: [{ seat: 1, betType: 'BANKER', amount: 5_000 }],
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id as string);
    }
    return ids;
  };
  const checkpoint = async (name: string) => {
    const res = await admin.post('/v1/audit/checkpoints', {});
    expect(res.status).toBe(201);
    const file = path.join(dir, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify(res.body));
    return file;
  };

  const beforeBackup = await coups(5);
  pg('pg_basebackup', ['-h', '127.0.0.1', '-p', String(ports.primary), '-U', 'postgres', '-D', 'base', '-X', 'stream', '-c', 'fast']);
  const afterBackup = await coups(5);
  const kept = await checkpoint('kept-before-the-point');
  const [{ lsn }] = await query<{ lsn: string }>(ports.primary, "SELECT pg_create_restore_point('drill')::text AS lsn");
  const afterPoint = await coups(5);
  const later = await checkpoint('kept-after-the-point');
  // The segment holding the restore point must reach the archive: switch, and wait for the archiver.
  const [{ segment }] = await query<{ segment: string }>(ports.primary, `SELECT pg_walfile_name('${lsn}'::pg_lsn) AS segment`);
  await query(ports.primary, 'SELECT pg_switch_wal()');
  await until(() => fs.existsSync(path.join(dir, 'archive', segment)), 'primary.log');
  service.child.kill('SIGTERM');
  expect(await exited(service.child)).toBe(0);

  // The restore: the base backup into a new folder, recovering from the archive up to the point.
  fs.cpSync(path.join(dir, 'base'), path.join(dir, 'restored'), { recursive: true });
  fs.chmodSync(path.join(dir, 'restored'), 0o700);
  fs.appendFileSync(
    path.join(dir, 'restored', 'postgresql.auto.conf'),
    [
      `port = ${ports.restored}`,
      'archive_mode = off',
      `restore_command = 'cp ${dir}/archive/%f %p'`,
      "recovery_target_name = 'drill'",
      "recovery_target_action = 'promote'",
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'restored', 'recovery.signal'), '');
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', path.join(dir, 'restored')]);
  pg('pg_ctl', ['-D', 'restored', '-l', 'restored.log', '-w', 'start']);
  await until(async () => !(await query<{ r: boolean }>(ports.restored, 'SELECT pg_is_in_recovery() AS r'))[0].r, 'restored.log');
  expect(fs.readFileSync(path.join(dir, 'restored.log'), 'utf8')).toMatch(/recovery stopping at restore point "drill"/);

  const restored = new Set((await query<{ id: string }>(ports.restored, 'SELECT id::text FROM coups')).map((r) => r.id));
  expect([...beforeBackup, ...afterBackup].filter((id) => !restored.has(id))).toEqual([]);
  expect(afterPoint.filter((id) => restored.has(id))).toEqual([]);
  expect(restored.size).toBe(10);

  // The auditor's own tool, from outside the service, with the checkpoints kept outside the casino.
  const verify = (file: string) =>
    spawnSync(process.execPath, [path.join(ROOT, 'dist', 'src', 'audit', 'verify.cli.js'), '--checkpoint', file], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: url(ports.restored), AUDIT_KEYS },
      encoding: 'utf8',
    });
  const whole = verify(kept);
  expect([whole.status, whole.stderr]).toEqual([0, '']);
  const cut = verify(later);
  expect(cut.status).toBe(1);
  expect(cut.stdout + cut.stderr).toMatch(/entries were cut|rows were removed/);
});
