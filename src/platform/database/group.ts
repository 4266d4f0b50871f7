import path from 'node:path';
import { ClientBase, escapeIdentifier, escapeLiteral } from 'pg';
import { loadQueries } from './named-sql';
import { pgRunner, SqlRunner } from './sql';

/**
 * A casino group on PostgreSQL's logical replication (docs/decisions.md "A casino group"). Every property keeps
 * its own database and publishes what the group's statements read; the group's database subscribes
 * to each. A property's pit never waits on the group: the publication is read from the property's
 * write-ahead log by the group's own connection, which may be down for days (the property keeps the
 * log for it in a replication slot and the group catches up when the link is back).
 */

/** The publication on every property's database, and the prefix of the group's subscriptions. */
export const GROUP_PUBLICATION = 'sabot_group';

/**
 * What a property publishes: its properties (not the default property, the same row in every
 * database), its tables, and the finance rollups. No raw coup or wager leaves the property: the
 * group's statements read rollups only (docs/scaling.md).
 */
export const GROUP_TABLES = ['properties', 'casino_tables', 'table_day_rollups', 'wager_rollups', 'month_rollups'] as const;

const SQL = loadQueries<{
  groupPublication: Record<string, never>;
  tablesOfProperty: { propertyId: string };
  groupLinks: Record<string, never>;
}>(path.join(__dirname, 'group.sql'));

/** Whether this database publishes to a group: then tables are opened under a property's own id. */
export async function publishesToGroup(db: SqlRunner): Promise<boolean> {
  const [row] = await db.query<{ published: boolean }>(SQL.groupPublication.bind({}));
  return row.published;
}

/**
 * Makes a property's database a member of a group: creates the publication (as the database's
 * owner). Refused while the default property has tables: their ids and codes would meet another
 * property's in the group. Running it again changes nothing.
 */
export async function publishToGroup(db: ClientBase, defaultPropertyId: string): Promise<'published' | 'already published'> {
  const sql = pgRunner(db);
  const [{ tables }] = await sql.query<{ tables: number }>(SQL.tablesOfProperty.bind({ propertyId: defaultPropertyId }));
  if (tables > 0) {
    throw new Error(
      `The default property has ${tables} table(s): a group tells properties apart by their own ids. Create the property (POST /v1/properties) and open its tables under it before joining a group.`,
    );
  }
  if (await publishesToGroup(sql)) return 'already published';
  const [first, ...rest] = GROUP_TABLES;
  await db.query(
    `CREATE PUBLICATION ${escapeIdentifier(GROUP_PUBLICATION)} FOR TABLE ${first} WHERE (id <> ${escapeLiteral(defaultPropertyId)}::uuid), ${rest.join(', ')}`,
  );
  return 'published';
}

/** A property's link name: it names the group's subscription (sabot_group_<name>). */
export const LINK_NAME = /^[a-z][a-z0-9_]{0,39}$/;

/**
 * Subscribes the group's database to a property's publication (as a superuser of the group's
 * cluster, as PostgreSQL 15 requires). `conninfo` reaches the property's database as a role with
 * REPLICATION that may read the published tables. The first copy of the property's rows runs in the
 * background; changes follow as they are committed.
 */
export async function subscribeToProperty(db: ClientBase, name: string, conninfo: string): Promise<void> {
  if (!LINK_NAME.test(name)) throw new Error(`"${name}" is not a link name: lower-case letters, digits and _ (at most 40), starting with a letter`);
  await db.query(
    `CREATE SUBSCRIPTION ${escapeIdentifier(`${GROUP_PUBLICATION}_${name}`)} CONNECTION ${escapeLiteral(conninfo)} PUBLICATION ${escapeIdentifier(GROUP_PUBLICATION)}`,
  );
}

export interface GroupLink {
  name: string;
  enabled: boolean;
  connected: boolean;
  receivedLsn: string | null;
  lastMessageAt: Date | null;
  latestEndAt: Date | null;
  tablesCopying: number;
}

/** The group's links to its properties, as the group's database sees them (none on a property's database). */
export async function groupLinks(db: SqlRunner): Promise<GroupLink[]> {
  return db.query<GroupLink>(SQL.groupLinks.bind({}));
}
