import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

/** The one database client. Connections are made lazily by the pg pool behind the adapter. */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  private readonly logger = new Logger(PrismaService.name);

  constructor(connectionString: string, poolSize: number) {
    super({ adapter: new PrismaPg({ connectionString, max: poolSize, connectionTimeoutMillis: 5_000 }) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
    this.logger.log('Database connections closed');
  }
}

/** A transaction client, passed explicitly to whatever writes inside a transaction. */
export type Tx = Parameters<Parameters<PrismaService['$transaction']>[0]>[0];
