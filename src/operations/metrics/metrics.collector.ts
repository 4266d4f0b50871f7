import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { collectDefaultMetrics, Gauge } from 'prom-client';
import { AUDIT_SECRETS, AuditSecrets } from '../../foundation/ledger/audit-log';
import { CursorTable, cursorHolds } from '../../foundation/ledger/progress';
import { Metrics } from '../../platform/common/metrics';
import { PrismaService } from '../../platform/database/prisma.service';
import { ReadDatabase, replicaLag } from '../../platform/database/read-database';
import { METRICS_SQL } from './metrics-sql';

/**
 * What is read at each scrape, into the instance's registry: Node's own (event-loop lag, heap, CPU,
 * through prom-client's default collectors), the connection pools, the event outbox's and
 * surveillance's backlogs (each counted from cursors whose MAC holds), and the replica's lag. A figure that cannot be read (the database not
 * answering) is left out of that scrape rather than reported as 0.
 */
/** The most a scrape waits for the database. */
const SCRAPE_DB_MS = 2_000;

@Injectable()
export class MetricsCollector implements OnModuleInit {
  /** Cursors whose MAC was found to hold (`table:stream:seq:mac`): checked once each. */
  private readonly trusted = new Set<string>();

  constructor(
    private readonly metrics: Metrics,
    private readonly prisma: PrismaService,
    private readonly reads: ReadDatabase,
    @Inject(AUDIT_SECRETS) private readonly secrets: AuditSecrets,
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
    this.backlog('outbox', 'Audit entries not yet published to the event stream (NATS)', 'event_relay_cursors', registers);
    this.backlog('surveillance', 'Table-stream audit entries the surveyor has not read yet', 'surveillance_cursors', registers);
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

  /**
   * One reader's backlog: the entries after each stream's cursor, counted from the cursor only when
   * its MAC holds (issue 49); a cursor moved by hand is counted from where the reader's keyed record
   * says it got to, so the backlog is the true one.
   */
  private async readBacklog(table: CursorTable): Promise<{ entries: number; oldest_seconds: number }> {
    const pool = this.prisma.pool;
    const rows = (
      await pool.query<{ stream: string; head: string; seq: string | null; mac: string | null; mac_key: string | null }>(
        (table === 'event_relay_cursors' ? METRICS_SQL.outboxCursors : METRICS_SQL.surveillanceCursors).bind({}),
      )
    ).rows;
    if (this.trusted.size > 20_000) this.trusted.clear();
    const behind: { stream: string; seq: bigint; head: bigint }[] = [];
    for (const r of rows) {
      let seq = BigInt(r.seq ?? 0);
      if (r.seq !== null) {
        const known = `${table}:${r.stream}:${r.seq}:${r.mac}`;
        if (this.trusted.has(known)) {
          // held already
        } else if (cursorHolds(this.secrets.keyring, table, { stream: r.stream, seq: r.seq, mac: r.mac, mac_key: r.mac_key })) this.trusted.add(known);
        else {
          const lookup = table === 'event_relay_cursors' ? METRICS_SQL.keyedPublishedTo : METRICS_SQL.keyedSurveyedTo;
          const [{ seq: keyed }] = (await pool.query<{ seq: string }>(lookup.bind({ stream: r.stream, quoted: JSON.stringify(r.stream) }))).rows;
          seq = BigInt(keyed);
        }
      }
      const head = BigInt(r.head);
      if (head > seq) behind.push({ stream: r.stream, seq, head });
    }
    if (behind.length === 0) return { entries: 0, oldest_seconds: 0 };
    const [{ oldest_seconds }] = (
      await pool.query<{ oldest_seconds: number }>(
        METRICS_SQL.oldestAfter.bind({ streams: behind.map((b) => b.stream), seqs: behind.map((b) => b.seq.toString()) }),
      )
    ).rows;
    return { entries: Number(behind.reduce((n, b) => n + b.head - b.seq, 0n)), oldest_seconds };
  }

  private backlog(name: string, help: string, table: CursorTable, registers: Metrics['registry'][]): void {
    let last: Promise<{ entries: number; oldest_seconds: number } | null> | null = null;
    // Both gauges of a backlog come from one reading a scrape.
    const read = () =>
      (last ??= this.readBacklog(table)
        .catch(() => null)
        .finally(() => setImmediate(() => (last = null))));
    new Gauge({
      name: `sabot_${name}_backlog_entries`,
      help,
      registers,
      async collect() {
        const row = await read();
        if (row) this.set(row.entries);
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
