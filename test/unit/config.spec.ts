import { ConfigError, loadConfig } from '../../src/config/config';

describe('configuration is validated at boot', () => {
  it('defaults for development', () => {
    expect(loadConfig({})).toMatchObject({ port: 3000, databaseUrl: null, adminApiKey: null, production: false, dbPoolSize: 10, bodyLimit: '100kb' });
  });

  it.each([
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535'],
    [{ DB_POOL_SIZE: '0' }, 'DB_POOL_SIZE must be a whole number from 1 to 200'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL is not a valid URL'],
    [{ ADMIN_API_KEY: 'short' }, 'ADMIN_API_KEY must be at least 32 characters'],
    [{ NODE_ENV: 'production' }, 'DATABASE_URL is required when NODE_ENV=production'],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgres://x@db/sabot' }, 'ADMIN_API_KEY is required when NODE_ENV=production'],
    [{ BODY_LIMIT: 'huge' }, 'BODY_LIMIT must look like 100kb or 1mb'],
  ])('%j is refused', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
