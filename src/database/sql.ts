import type { PoolClient } from 'pg';

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

export const pgRunner = (client: PoolClient): SqlRunner => ({
  run: async (s) => {
    await client.query({ name: s.name, text: s.text, values: s.values });
  },
  query: async <T>(s: SqlStatement) => (await client.query({ name: s.name, text: s.text, values: s.values })).rows as T[],
});

/**
 * Data-modifying CTEs ("a AS (…), b AS (…)") whose every change reads from a relation named
 * `guard`, numbered $1… on their own. Alone they run under a guard that always holds; composed,
 * one guard (e.g. an optimistic version check) decides for all of them in a single statement.
 */
export interface CteParts {
  readonly ctes: string;
  readonly values: unknown[];
}

/** The parts as a statement of their own. */
export function standalone(name: string, parts: CteParts, select = 'SELECT 1'): SqlStatement {
  return { name, text: `WITH guard AS (SELECT 1), ${parts.ctes} ${select}`, values: parts.values };
}

/** A guard CTE and several parts as one statement, renumbering each part's placeholders. */
export function compose(name: string, guard: CteParts, parts: CteParts[], select: string): SqlStatement {
  const values = [...guard.values];
  const texts = [guard.ctes];
  for (const p of parts) {
    const offset = values.length;
    texts.push(p.ctes.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + offset}`));
    values.push(...p.values);
  }
  return { name, text: `WITH ${texts.join(', ')} ${select}`, values };
}
