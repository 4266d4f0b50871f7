import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool, PoolClient } from 'pg';
import { CopyTextRows, inlineParameters } from './copy-rows';
import { pgRunner, prismaRunner } from './sql';
import { PrismaClient } from '../../generated/prisma/client';
import type { IdempotencyClaim } from '../common/context';
import { storeIdempotentResponse } from './idempotent-answers';

/** The one database client. Connections are made lazily by the pg pool behind the adapter. */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  private readonly logger = new Logger(PrismaService.name);

  /** The one connection pool: Prisma's adapter and the coup hot path share it. */
  readonly pool: Pool;

  constructor(connectionString: string, poolSize: number, statementTimeoutMs = 10_000) {
    const pool = new Pool({ connectionString, max: poolSize, connectionTimeoutMillis: 5_000, statement_timeout: statementTimeoutMs });
    // An idle connection the server drops (restart, failover) must not take the process down.
    pool.on('error', (e) => new Logger(PrismaService.name).warn(`idle database connection lost: ${e.message}`));
    super({ adapter: new PrismaPg(pool) });
    this.pool = pool;
  }

  /**
   * A transaction on a plain pg connection, for the hot path where Prisma's per-statement cost
   * matters; it stores an Idempotency-Key answer before COMMIT, like transaction() does.
   */
  async rawTransaction<T>(ctx: Answering, fn: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await storeIdempotentResponse(pgRunner(client), ctx.idempotency, result);
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  /**
   * A large report's rows, each the one text column of a row of `statement`, joined by commas, in
   * buffers of about 256 KB as PostgreSQL sends them, so that an answer goes out while the rest is
   * still being computed. The rows travel as COPY data and stay bytes (CopyTextRows).
   * Read in a read-only transaction with room to sort in memory (PostgreSQL's default work_mem
   * spills a sort of a few megabytes to disk) and with random reads priced as what they are for
   * rollups held in memory (the default random_page_cost of 4 is a spinning disk's): the planner
   * then reads a table-day rollup in its primary key's order instead of sorting megabytes first.
   * Dates are written as ISO (YYYY-MM-DD) whatever the server's or the session's DateStyle: a
   * date's own output costs PostgreSQL less than to_char, and the reports write days with it.
   */
  async *streamReportRows(statement: { text: string; values: unknown[] }): AsyncGenerator<Buffer> {
    const client = await this.pool.connect();
    let healthy = false;
    try {
      await client.query('BEGIN READ ONLY');
      await client.query("SELECT set_config('work_mem', '64MB', true), set_config('random_page_cost', '1.1', true), set_config('DateStyle', 'ISO, YMD', true)");
      yield* client.query(new CopyTextRows(`COPY (${inlineParameters(statement)}) TO STDOUT (FORMAT binary)`));
      await client.query('COMMIT');
      healthy = true;
    } finally {
      // A reader that stopped early (the client went away) leaves a COPY running: drop that connection.
      client.release(healthy ? undefined : true);
    }
  }

  /**
   * Every write goes through here: one interactive transaction, which also writes the record of the
   * request's Idempotency-Key (if it has one), with its answer, as its last statement, so that the
   * change and its replayable answer commit together. If another request with the key committed
   * first, that statement fails on the key and the whole transaction rolls back (the idempotency
   * interceptor then answers with the stored answer).
   */
  transaction<T>(ctx: Answering, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.$transaction(
      async (tx) => {
        const result = await fn(tx);
        await storeIdempotentResponse(prismaRunner(tx), ctx.idempotency, result);
        return result;
      },
      { maxWait: 5_000, timeout: 15_000 },
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
    if (!this.pool.ended) await this.pool.end();
    this.logger.log('Database connections closed');
  }
}

/** What a write's transaction needs of its request: the Idempotency-Key claim whose answer it stores, if any. */
export interface Answering {
  readonly idempotency: IdempotencyClaim | null;
}

/** A transaction client, passed explicitly to whatever writes inside a transaction. */
export type Tx = Parameters<Parameters<PrismaService['$transaction']>[0]>[0];
