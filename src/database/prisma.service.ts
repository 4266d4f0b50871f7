import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';
import { storeIdempotentResponse } from '../idempotency/idempotency-store';

/** The one database client. Connections are made lazily by the pg pool behind the adapter. */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  private readonly logger = new Logger(PrismaService.name);

  constructor(connectionString: string, poolSize: number, statementTimeoutMs = 10_000) {
    super({ adapter: new PrismaPg({ connectionString, max: poolSize, connectionTimeoutMillis: 5_000, statement_timeout: statementTimeoutMs }) });
  }

  /**
   * Every write goes through here: one interactive transaction, which also stores the response of
   * an Idempotency-Key request so that the change and its replayable answer commit together.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.$transaction(
      async (tx) => {
        const result = await fn(tx);
        await storeIdempotentResponse(tx, result);
        return result;
      },
      { maxWait: 5_000, timeout: 15_000 },
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
    this.logger.log('Database connections closed');
  }
}

/** A transaction client, passed explicitly to whatever writes inside a transaction. */
export type Tx = Parameters<Parameters<PrismaService['$transaction']>[0]>[0];
