import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../../../src/domain';
import { AUDIT_KEYS, AUDIT_SIGNING_KEY } from '../../support/app';
import { baseBackup, Cluster, clusterFolder, primaryCluster, restoredCluster, superuser } from '../../support/clusters';
import { client, ensureBuilt, exited, ROOT, Service, startService, waitForHealth } from '../../support/process';

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
const ADMIN = 'restore-drill-admin-key-0123456789abcdef012';
let primary: Cluster;
let restored: Cluster | null = null;
let archive: string;
let base: string;
let files: string;
let service: Service | null = null;

const DB = 'sabot_drill_test';
async function query<T extends object>(c: Cluster, text: string): Promise<T[]> {
  return superuser(c.url(DB), async (db) => (await db.query<T>(text)).rows);
}
/** Waits for a condition (never for a time). */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1_200 && !done(); i++) await new Promise((r) => setTimeout(r, 100));
  if (!done()) throw new Error(`gave up waiting: ${what}`);
}

beforeAll(async () => {
  ensureBuilt();
  // The WAL archive: every finished segment copied out.
  archive = clusterFolder('archive');
  primary = await primaryCluster({ archive_mode: 'on', archive_command: `'cp %p ${archive}/%f'` });
  await superuser(primary.url(), (db) => db.query(`CREATE DATABASE ${DB}`));
  files = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-drill-'));
});
afterAll(async () => {
  if (service && service.child.exitCode === null) {
    service.child.kill('SIGTERM');
    await exited(service.child);
  }
  await restored?.destroy();
  await primary.destroy();
  for (const dir of [archive, base, files]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('restores to a point in time from a base backup and the WAL archive: the records verify, and the coups after the point are the ones missing', async () => {
  service = startService({ DATABASE_URL: primary.url(DB), ADMIN_API_KEY: ADMIN, AUDIT_KEYS, AUDIT_SIGNING_KEY, SURVEILLANCE: 'off' });
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
    const file = path.join(files, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify(res.body));
    return file;
  };

  const beforeBackup = await coups(5);
  base = await baseBackup(primary);
  const afterBackup = await coups(5);
  const kept = await checkpoint('kept-before-the-point');
  const [{ lsn }] = await query<{ lsn: string }>(primary, "SELECT pg_create_restore_point('drill')::text AS lsn");
  const afterPoint = await coups(5);
  const later = await checkpoint('kept-after-the-point');
  // The segment holding the restore point must reach the archive: switch, and wait for the archiver.
  const [{ segment }] = await query<{ segment: string }>(primary, `SELECT pg_walfile_name('${lsn}'::pg_lsn) AS segment`);
  await query(primary, 'SELECT pg_switch_wal()');
  await until(() => fs.existsSync(path.join(archive, segment)), `the archive to hold ${segment}`);
  service.child.kill('SIGTERM');
  expect(await exited(service.child)).toBe(0);

  // The restore: the base backup into a new folder, recovering from the archive up to the point.
  restored = await restoredCluster(base, { restore_command: `'cp ${archive}/%f %p'`, recovery_target_name: "'drill'" });
  expect(fs.readFileSync(path.join(restored.dir, 'server.log'), 'utf8')).toMatch(/recovery stopping at restore point "drill"/);

  const held = new Set((await query<{ id: string }>(restored, 'SELECT id::text FROM coups')).map((r) => r.id));
  expect([...beforeBackup, ...afterBackup].filter((id) => !held.has(id))).toEqual([]);
  expect(afterPoint.filter((id) => held.has(id))).toEqual([]);
  expect(held.size).toBe(10);

  // The auditor's own tool, from outside the service, with the checkpoints kept outside the casino.
  const verify = (file: string) =>
    spawnSync(process.execPath, [path.join(ROOT, 'dist', 'src', 'server', 'verify.cli.js'), '--checkpoint', file], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: restored!.url(DB), AUDIT_KEYS },
      encoding: 'utf8',
    });
  const whole = verify(kept);
  expect([whole.status, whole.stderr]).toEqual([0, '']);
  const cut = verify(later);
  expect(cut.status).toBe(1);
  expect(cut.stdout + cut.stderr).toMatch(/entries were cut|rows were removed/);
});
