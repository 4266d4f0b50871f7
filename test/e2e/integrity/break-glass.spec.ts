import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SignedCheckpoint } from '../../../src/integrity/audit/checkpoint';
import { ADMIN_KEY, AUDIT_KEYS, databaseSnapshot, startTestApp, TestContext } from '../../support/app';
import { serviceUrl } from '../../support/database';
import { ensureBuilt, ROOT } from '../../support/process';

/**
 * Break-glass (docs/operations.md): the day fewer than two administrators hold a key of their own
 * (both left, their keys gone with them), nothing can change the register through the API. With the
 * database and the audit key, `npm run break-glass` makes one person an administrator and mints their
 * key, in front of the people it names; the verification lists every break-glass, and one made
 * without the audit key is a finding. The CLI runs as its own process, as the service's database
 * role, on a database of the test's own.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const CLI = path.join(ROOT, 'dist', 'src', 'server', 'break-glass.cli.js');
const VERIFY = path.join(ROOT, 'dist', 'src', 'server', 'verify.cli.js');
const PRESENT = ['--present', 'Ann Lee, compliance officer', '--present', 'Bo Chan, keeper of the audit key'];

function breakGlass(args: string[], env: Record<string, string> = { AUDIT_KEYS }) {
  return spawnSync(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: serviceUrl(ctx.databaseUrl), ...env },
    encoding: 'utf8',
  });
}

it('with the database and the audit key, those present make an administrator the day none can act; the verification lists it, and one made without the key is a finding', async () => {
  ensureBuilt();
  if (!fs.existsSync(CLI)) execFileSync('npx', ['nest', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const state = async () => JSON.stringify(await databaseSnapshot(ctx.prisma));
  const propose = (by: string, staffId: string, roles: string[], active = true) =>
    ctx.as(by).post('/v1/staff', { staffId, name: `Person ${staffId}`, roles, active, reason: 'a change' });
  const approve = (by: string, change: string) => ctx.as(by).post(`/v1/staff/changes/${change}/approve`, {});

  // The casino is set up: two administrators, their keys minted by the bootstrap key.
  for (const staffId of ['E-A', 'E-B']) await propose(ADMIN_KEY, staffId, ['ADMIN']).expect(202);
  const a = (await ctx.admin.post('/v1/api-keys', { name: 'E-A', role: 'ADMIN', staffId: 'E-A' }).expect(201)).body.key as string;
  await ctx.admin.post('/v1/api-keys', { name: 'E-B', role: 'ADMIN', staffId: 'E-B' }).expect(201);

  // While two administrators hold keys, break-glass is refused and writes nothing; so it is with one person present, or without the audit key.
  const before = await state();
  const nora = ['--staff', 'E-N', '--name', 'Nora Ng', '--reason', 'E-A and E-B left; INC-4411'];
  const refused = breakGlass([...nora, ...PRESENT]);
  expect({ status: refused.status, err: refused.stderr }).toEqual({ status: 1, err: expect.stringContaining('E-A and E-B hold keys of their own') });
  expect(breakGlass([...nora, '--present', 'Ann Lee', '--lost', 'E-A', '--lost', 'E-B']).stderr).toContain('at least 2 people present');
  expect(breakGlass([...nora, ...PRESENT, '--lost', 'E-A'], {}).status).toBe(2);
  expect(await state()).toEqual(before);

  // Both left, with their keys: their keys are revoked, E-N is made an administrator and given a key.
  const first = breakGlass([...nora, ...PRESENT, '--lost', 'E-A', '--lost', 'E-B']);
  expect({ status: first.status, err: first.stderr }).toEqual({ status: 0, err: '' });
  expect(first.stdout).toContain('E-N is an active administrator; 2 lost key(s) revoked');
  const nMinted = first.stdout.trim().split('\n').pop()!;
  expect((await ctx.as(a).get('/v1/api-keys/me')).status).toBe(401);
  // The bootstrap key is no way back: it stays retired.
  expect((await propose(ADMIN_KEY, 'E-M', ['ADMIN'])).body).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('retired') });
  // E-N claims the key at once, in front of those present; one administrator alone still changes nothing.
  const n = (await ctx.as(nMinted).post('/v1/api-keys/claim', {}).expect(201)).body.key as string;
  expect((await ctx.as(n).get('/v1/api-keys/me').expect(200)).body).toMatchObject({ staffId: 'E-N', role: 'ADMIN' });
  // A second administrator, the same way.
  const second = breakGlass(['--staff', 'E-M', '--name', 'Mo Ma', '--reason', 'a second administrator; INC-4411', ...PRESENT]);
  expect(second.status).toBe(0);
  const m = (await ctx.as(second.stdout.trim().split('\n').pop()!).post('/v1/api-keys/claim', {}).expect(201)).body.key as string;

  // From here the API again: the two take the ones who left off the register.
  for (const gone of ['E-A', 'E-B']) await approve(m, (await propose(n, gone, [], false).expect(202)).body.id).expect(200);
  const register = (await ctx.as(n).get('/v1/staff').expect(200)).body as { staffId: string; active: boolean; history: { decidedByKeyId: string }[] }[];
  expect(register.filter((p) => p.active).map((p) => p.staffId)).toEqual(['E-M', 'E-N']);
  expect(register.find((p) => p.staffId === 'E-N')!.history).toEqual([expect.objectContaining({ decidedByKeyId: 'break-glass' })]);

  // The verification: every record holds, and both break-glasses are listed, with why and who was there.
  const verified = (await ctx.as(n).get('/v1/audit/verify').expect(200)).body;
  expect(verified).toMatchObject({ ok: true, problems: [] });
  expect(verified.breakGlass).toEqual([
    expect.objectContaining({
      stream: 'admin',
      staffId: 'E-N',
      reason: 'E-A and E-B left; INC-4411',
      present: PRESENT.filter((_, i) => i % 2),
      lost: ['E-A', 'E-B'],
    }),
    expect.objectContaining({ stream: 'admin', staffId: 'E-M', lost: [] }),
  ]);
  // … and so does the auditor's own check, from outside the service.
  const kept = (await ctx.as(n).post('/v1/audit/checkpoints').expect(201)).body as SignedCheckpoint;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-break-glass-'));
  try {
    const file = path.join(dir, 'checkpoint.json');
    fs.writeFileSync(file, JSON.stringify(kept));
    const audit = spawnSync(process.execPath, [VERIFY, '--checkpoint', file, '--pin', kept.keyFingerprint], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: ctx.databaseUrl, AUDIT_KEYS },
      encoding: 'utf8',
    });
    expect(audit.status).toBe(0);
    expect(audit.stdout).toContain('BREAK-GLASS');
    expect(audit.stdout).toContain('E-N made an administrator with the database and the audit key; reason: E-A and E-B left; INC-4411');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  // Someone with the database but not the service's audit key (under its name, or another) is refused, and writes nothing;
  // so is a run whose witnesses are the new administrator themselves.
  const untouched = await state();
  const forged = breakGlass(['--staff', 'E-Z', '--name', 'Zed', '--reason', 'nobody asked', ...PRESENT, '--lost', 'E-N', '--lost', 'E-M'], {
    AUDIT_KEYS: 'test-2026:Zm9yZ2VkLWtleS1mb3JnZWQta2V5LWZvcmdlZC1rZXktZm9yZ2Vk',
  });
  expect({ status: forged.status, err: forged.stderr }).toEqual({ status: 1, err: expect.stringContaining("needs the service's audit key") });
  const other = breakGlass(['--staff', 'E-Z', '--name', 'Zed', '--reason', 'nobody asked', ...PRESENT, '--lost', 'E-N', '--lost', 'E-M'], {
    AUDIT_KEYS: 'k1:Zm9yZ2VkLWtleS1mb3JnZWQta2V5LWZvcmdlZC1rZXktZm9yZ2Vk',
  });
  expect({ status: other.status, err: other.stderr }).toEqual({ status: 1, err: expect.stringContaining('keyed none of the latest entries') });
  const selfWitnessed = breakGlass([
    '--staff',
    'E-Z',
    '--name',
    'Zed',
    '--reason',
    'no administrator can act; INC-9',
    '--present',
    'Zed',
    '--present',
    'E-Z',
    '--present',
    'Ann Lee',
    '--lost',
    'E-N',
    '--lost',
    'E-M',
  ]);
  expect({ status: selfWitnessed.status, err: selfWitnessed.stderr }).toEqual({ status: 1, err: expect.stringContaining('besides Zed') });
  expect(await state()).toEqual(untouched);
  expect((await ctx.as(n).get('/v1/audit/verify').expect(200)).body).toMatchObject({ ok: true, problems: [] });
});
