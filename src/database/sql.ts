import type { PoolClient } from 'pg';
import type { Tx } from './prisma.service';

/**
 * A SQL statement as text and positional values, so that the same statement can run inside a
 * Prisma transaction or on a plain pg connection (the coup hot path). Build statements only from
 * fixed text; every value goes in `values`.
 */
export interface SqlStatement {
  /** A name for statements whose text never changes: pg prepares them once per connection. */
  readonly name?: string;
  readonly text: string;
  readonly values: unknown[];
}

export interface SqlRunner {
  run(statement: SqlStatement): Promise<void>;
  query<T>(statement: SqlStatement): Promise<T[]>;
}

export const prismaRunner = (tx: Tx): SqlRunner => ({
  run: async (s) => {
    await tx.$executeRawUnsafe(s.text, ...s.values);
  },
  query: (s) => tx.$queryRawUnsafe(s.text, ...s.values),
});

export const pgRunner = (client: PoolClient): SqlRunner => ({
  run: async (s) => {
    await client.query({ name: s.name, text: s.text, values: s.values });
  },
  query: async <T>(s: SqlStatement) => (await client.query({ name: s.name, text: s.text, values: s.values })).rows as T[],
});
