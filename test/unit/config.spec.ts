import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { auditKeyringFromFile, parseAuditKeys } from '../../src/platform/config/keyring';
import { ConfigError, loadConfig } from '../../src/platform/config/config';

describe('configuration is validated at boot', () => {
  it('defaults for development', () => {
    expect(loadConfig({})).toMatchObject({ port: 3000, databaseUrl: null, adminApiKey: null, production: false, dbPoolSize: 10, bodyLimit: '100kb' });
  });

  it('a read replica: reports read it while it is at most 5 s behind, else the primary, unless told to refuse', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://s@primary/sabot' })).toMatchObject({ databaseReadUrl: null, readMaxLagMs: 5000, readWhenBehind: 'primary' });
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://s@primary/sabot',
        DATABASE_READ_URL: 'postgres://s@replica/sabot',
        READ_MAX_LAG_MS: '0',
        READ_WHEN_BEHIND: 'Refuse',
      }),
    ).toMatchObject({ databaseReadUrl: 'postgres://s@replica/sabot', readMaxLagMs: 0, readWhenBehind: 'refuse' });
  });

  it.each([
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535'],
    [{ DB_POOL_SIZE: '0' }, 'DB_POOL_SIZE must be a whole number from 1 to 200'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL is not a valid URL'],
    [{ ADMIN_API_KEY: 'short' }, 'ADMIN_API_KEY must be at least 32 characters'],
    [{ NODE_ENV: 'production' }, 'DATABASE_URL is required when NODE_ENV=production'],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgres://x@db/sabot' }, 'ADMIN_API_KEY is required when NODE_ENV=production'],
    [{ BODY_LIMIT: 'huge' }, 'BODY_LIMIT must look like 100kb or 1mb'],
    [{ DATABASE_READ_URL: 'postgres://s@replica/sabot' }, 'DATABASE_READ_URL needs DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://s@db/sabot', DATABASE_READ_URL: 'mysql://s@replica/sabot' }, 'DATABASE_READ_URL must be a postgres://'],
    [{ DATABASE_URL: 'postgres://s@db/sabot', DATABASE_READ_URL: 'replica' }, 'DATABASE_READ_URL is not a valid URL'],
    [{ READ_MAX_LAG_MS: '-1' }, 'READ_MAX_LAG_MS must be a whole number from 0 to 86400000'],
    [{ READ_WHEN_BEHIND: 'stale' }, 'READ_WHEN_BEHIND must be primary or refuse'],
    [
      { NODE_ENV: 'production', DATABASE_URL: 'postgres://x@db/sabot', ADMIN_API_KEY: 'x'.repeat(32) },
      'AUDIT_KEYS or AUDIT_KEYS_FILE is required when NODE_ENV=production',
    ],
    [{ AUDIT_KEYS: 'k1:tooshort' }, 'AUDIT_KEYS: each audit key is id:secret'],
    [{ AUDIT_KEYS: `k1:${'A'.repeat(43)},k1:${'B'.repeat(43)}` }, 'AUDIT_KEYS: audit key k1 is given twice'],
  ])('%j is refused', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('audit keys', () => {
  it('the first key is current; older keys stay to verify what they keyed; a missing file is made once, mode 600', () => {
    const k = parseAuditKeys(`new:${'A'.repeat(43)}, old:${'B'.repeat(43)}`);
    expect([k.currentId, [...k.keys.keys()]]).toEqual(['new', ['new', 'old']]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-keys-'));
    const file = `${dir}/audit-keys`;
    const made = auditKeyringFromFile(file, true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(auditKeyringFromFile(file, true).keys.get(made.currentId)).toEqual(made.keys.get(made.currentId));
    expect(() => auditKeyringFromFile(`${dir}/none`, false)).toThrow('does not exist');
    fs.rmSync(dir, { recursive: true });
  });
});
