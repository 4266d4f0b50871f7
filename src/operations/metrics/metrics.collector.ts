import { Injectable, OnModuleInit } from '@nestjs/common';
import { collectDefaultMetrics, Gauge } from 'prom-client';
import { Metrics } from '../../platform/common/metrics';
import { PrismaService } from '../../platform/database/prisma.service';
import { ReadDatabase, replicaLag } from '../../platform/database/read-database';
import { METRICS_SQL } from './metrics-sql';

/**
 * What is read at each scrape, into the instance's registry: Node's own (event-loop lag, heap, CPU,
 * through prom-client's default collectors), the connection pools, the event outbox's and
 * surveillance's backlogs, and the replica's lag. A figure that cannot be read (the database not
 * answering) is left out of that scrape rather than reported as 0.
 */
/** The most a scrape waits for the database. */
const SCRAPE_DB_MS = 2_000;

@Injectable()
export class MetricsCollector implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly prisma: PrismaService,
    private readonly reads: ReadDatabase,
  ) {}

  onModuleInit(): void {
    const registers = [this.metrics.registry];
    collectDefaultMetrics({ register: this.metrics.registry });
    const pools = { primary: this.prisma, ...(this.reads.replica ? { replica: this.reads.replica } : {}) };
    new Gauge({
      name: 'sabot_db_pool_connections',
      help: 'Database connections by pool (primary, replica) and state: open (total), idle, and requests waiting for one',
      labelNames: ['pool', 'state'] as const,
      registers,
      collect() {
        for (const [pool, db] of Object.entries(pools)) {
          this.set({ pool, state: 'total' }, db.pool.totalCount);
          this.set({ pool, state: 'idle' }, db.pool.idleCount);
          this.set({ pool, state: 'waiting' }, db.pool.waitingCount);
        }
      },
    });
    this.backlog('outbox', 'Audit entries not yet published to the event stream (NATS)', METRICS_SQL.outboxBacklog, registers);
    this.backlog('surveillance', 'Table-stream audit entries the surveyor has not read yet', METRICS_SQL.surveillanceBacklog, registers);
    const { primary, replica } = this.reads;
    new Gauge({
      name: 'sabot_replica_configured',
      help: 'Whether this instance reads reports from a replica (1) or the primary only (0): with sabot_replica_lag_seconds absent, a replica that cannot be told apart',
      registers,
    }).set(replica ? 1 : 0);
    if (replica) {
      new Gauge({
        name: 'sabot_replica_lag_seconds',
        help: 'How far the reporting replica is behind the primary (0 when caught up); absent when it cannot be told',
        registers,
        async collect() {
          const lag = await Promise.race([replicaLag(primary, replica), new Promise<null>((resolve) => setTimeout(resolve, SCRAPE_DB_MS, null).unref())]);
          if (lag?.ms === null || lag === null) this.reset();
          else this.set(lag.ms / 1000);
        },
      });
    }
  }

  private backlog(name: string, help: string, query: (typeof METRICS_SQL)['outboxBacklog'], registers: Metrics['registry'][]): void {
    const prisma = this.prisma;
    let last: Promise<{ entries: string; oldest_seconds: number } | null> | null = null;
    // Both gauges of a backlog come from one query a scrape.
    const read = () =>
      (last ??= prisma.pool
        .query<{ entries: string; oldest_seconds: number }>(query.bind({}))
        .then(
          (r) => r.rows[0],
          () => null,
        )
        .finally(() => setImmediate(() => (last = null))));
    new Gauge({
      name: `sabot_${name}_backlog_entries`,
      help,
      registers,
      async collect() {
        const row = await read();
        if (row) this.set(Number(row.entries));
        else this.reset();
      },
    });
    new Gauge({
      name: `sabot_${name}_oldest_seconds`,
      help: `Age of the oldest of those entries (0 when none waits)`,
      registers,
      async collect() {
        const row = await read();
        if (row) this.set(row.oldest_seconds);
        else this.reset();
      },
    });
  }
}
