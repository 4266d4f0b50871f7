import fs from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { loadConfig } from '../../src/platform/config/config';
import { AUDIT_KEYS, AUDIT_SIGNING_KEY } from '../support/app';

/**
 * No Docker engine runs here, so docker-compose.yml is checked by reading it: the production shape
 * (a primary, a streaming replica of it, the service pointed at both) and the service's environment
 * as compose fills it in, which the service's own configuration must accept.
 */
interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string | number>;
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
}
const compose = load(fs.readFileSync(path.join(__dirname, '..', '..', 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};

/** Compose's interpolation: ${X:-default} takes its default, ${X:?message} a value the operator must give. */
const REQUIRED: Record<string, string> = {
  ADMIN_API_KEY: 'a'.repeat(40),
  AUDIT_KEYS,
  AUDIT_SIGNING_KEY,
  POSTGRES_PASSWORD: 'owner-secret',
  SERVICE_DB_PASSWORD: 'service-secret',
};
const interpolate = (v: string | number) =>
  String(v).replace(/\$\{(\w+)(?::-([^}]*)|:\?[^}]*)\}/g, (_m, name: string, fallback?: string) => fallback ?? REQUIRED[name] ?? '');

it("the service's environment, as compose fills it in, is a valid production configuration", () => {
  const env = Object.fromEntries(Object.entries(compose.services.sabot.environment!).map(([k, v]) => [k, interpolate(v)]));
  const config = loadConfig(env);
  expect(config).toMatchObject({ production: true, readMaxLagMs: 5000, readWhenBehind: 'primary', natsUrl: 'nats://nats:4222' });
  expect([new URL(config.databaseUrl!).host, new URL(config.databaseReadUrl!).host]).toEqual(['db:5432', 'db-replica:5432']);
  expect(new URL(config.databaseReadUrl!).username).toBe(new URL(config.databaseUrl!).username); // the role replicates with the rest
});

it('surveillance runs as a process of its own beside the service, on the same database and audit keys', () => {
  const envOf = (name: string) => Object.fromEntries(Object.entries(compose.services[name].environment!).map(([k, v]) => [k, interpolate(v)]));
  const service = loadConfig(envOf('sabot'));
  const surveyor = loadConfig(envOf('surveyor'));
  expect([service.surveillance, service.surveillanceOnly]).toEqual([false, false]);
  expect([surveyor.surveillance, surveyor.surveillanceOnly, surveyor.production, surveyor.surveillanceRecordDays]).toEqual([true, true, true, 30]);
  expect([surveyor.databaseUrl, surveyor.auditKeys]).toEqual([service.databaseUrl, service.auditKeys]);
  expect(compose.services.surveyor.depends_on).toEqual({ sabot: { condition: 'service_healthy' } });
});

it('the replica is a base backup of the primary that streams from it, as a hot standby', () => {
  const { db, 'db-replica': replica } = compose.services;
  expect(db.command).toEqual(expect.arrayContaining(['wal_level=logical']));
  expect(db.volumes).toContain('./deploy/postgres/allow-replication.sh:/docker-entrypoint-initdb.d/allow-replication.sh:ro');
  expect(fs.readFileSync(path.join(__dirname, '..', '..', 'deploy', 'postgres', 'allow-replication.sh'), 'utf8')).toContain(
    'echo "host replication all all scram-sha-256" >> "$PGDATA/pg_hba.conf"',
  );
  expect(replica.image).toBe(db.image);
  expect(replica.depends_on).toEqual({ db: { condition: 'service_healthy' } });
  const script = replica.command!.join('\n');
  expect(script).toMatch(/pg_basebackup -h db -U sabot -D "\$\$PGDATA" -R -X stream/);
  expect(script).toMatch(/exec postgres -c hot_standby=on -c hot_standby_feedback=on/);
  expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['pgdata', 'pgreplica']));
  expect(replica.volumes).toEqual(['pgreplica:/var/lib/postgresql/data']);
});

it('every secret compose demands is named in .env.example (empty, with how to make it) and in the README', () => {
  const root = path.join(__dirname, '..', '..');
  const demanded = [...new Set([...fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8').matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]))].sort();
  expect(demanded).toEqual(Object.keys(REQUIRED).sort());
  const example = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
  const named = [...example.matchAll(/^(\w+)=(.*)$/gm)];
  expect(named.map((m) => m[1]).sort()).toEqual(demanded);
  expect(named.every((m) => m[2] === '')).toBe(true); // no secret ships with the code
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  for (const name of demanded) expect(readme).toContain(`\`${name}\``);
});
