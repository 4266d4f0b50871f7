/**
 * The rows of one database poured into another whose schema is an older (or newer) build's own,
 * so that two builds answer the same data side by side: every table of the target found in the
 * source gets the columns both have, streamed with COPY out of the source and COPY into the
 * target. Triggers (the append-only guards, the foreign keys) are off in the target for the load
 * (`session_replication_role = replica`: a superuser's bulk restore, as pg_restore does it).
 * Rows a migration wrote into the target (the default property) are replaced by the source's.
 */
import { Writable, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

export async function portDatabase(sourceUrl: string, targetUrl: string, log: (line: string) => void = () => undefined): Promise<void> {
  const source = new Client({ connectionString: sourceUrl });
  const target = new Client({ connectionString: targetUrl });
  await source.connect();
  await target.connect();
  try {
    await target.query("SET session_replication_role = 'replica'");
    await target.query('SET synchronous_commit = off');
    const tablesOf = async (c: Client) =>
      (
        await c.query<{ name: string }>(
          `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> '_prisma_migrations'`,
        )
      ).rows.map((r) => r.name);
    const sourceTables = new Set(await tablesOf(source));
    for (const table of await tablesOf(target)) {
      if (!sourceTables.has(table)) continue;
      const cols = await storedColumns(target, table);
      const theirs = new Set(await storedColumns(source, table));
      const both = cols
        .filter((c) => theirs.has(c))
        .map((c) => `"${c}"`)
        .join(', ');
      await target.query(`DELETE FROM "${table}"`);
      const t0 = Date.now();
      const out = source.query(copyTo(`COPY (SELECT ${both} FROM "${table}") TO STDOUT`)) as unknown as Readable;
      const into = target.query(copyFrom(`COPY "${table}" (${both}) FROM STDIN`)) as unknown as Writable;
      await pipeline(out, into);
      log(`  ${table} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    await target.query('ANALYZE');
  } finally {
    await source.end();
    await target.end();
  }
}

/** A table's stored columns (not generated ones), in order. */
export async function storedColumns(c: Client, table: string): Promise<string[]> {
  const { rows } = await c.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r) => r.column_name);
}
