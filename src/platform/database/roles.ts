import { Client } from 'pg';

/** The group role the migrations grant the service's rights to (prisma/migrations/…_least_privilege). */
export const SERVICE_GROUP = 'sabot_app';

/** A connection URL with another user and password. */
export function withUser(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = encodeURIComponent(user);
  u.password = encodeURIComponent(password);
  return u.toString();
}

/**
 * Makes the service's login role (the user of `serviceUrl`) a member of sabot_app, creating it
 * with the URL's password when it does not exist. Runs as the owner, after the migrations.
 */
export async function ensureServiceRole(ownerUrl: string, serviceUrl: string): Promise<void> {
  const u = new URL(serviceUrl);
  const user = decodeURIComponent(u.username);
  const password = decodeURIComponent(u.password);
  if (!user) throw new Error('the service database URL names no user');
  const owner = new Client({ connectionString: ownerUrl });
  await owner.connect();
  try {
    const exists = await owner.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [user]);
    const sql = exists.rowCount
      ? await owner.query<{ sql: string }>('SELECT format($$GRANT %I TO %I$$, $1::text, $2::text) AS sql', [SERVICE_GROUP, user])
      : await owner.query<{ sql: string }>('SELECT format($$CREATE ROLE %I LOGIN PASSWORD %L IN ROLE %I$$, $2::text, $3::text, $1::text) AS sql', [
          SERVICE_GROUP,
          user,
          password,
        ]);
    await owner.query(sql.rows[0].sql);
  } finally {
    await owner.end();
  }
}
