import type { ClientBase, Pool } from 'pg';

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

/** What a Prisma transaction client offers for raw SQL (PrismaService's Tx has it). */
export interface RawSqlClient {
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

export const prismaRunner = (tx: RawSqlClient): SqlRunner => ({
  run: async (s) => {
    await tx.$executeRawUnsafe(s.text, ...s.values);
  },
  query: async <T>(s: SqlStatement) => tx.$queryRawUnsafe<T[]>(s.text, ...s.values),
});

/** On a connection, or on the pool (each statement on whichever connection is free). */
export const pgRunner = (client: ClientBase | Pool): SqlRunner => ({
  run: async (s) => {
    await client.query({ name: s.name, text: s.text, values: s.values });
  },
  query: async <T>(s: SqlStatement) => (await client.query({ name: s.name, text: s.text, values: s.values })).rows as T[],
});
