import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { connect, JetStreamClient, nanos, NatsConnection, RetentionPolicy, StorageType } from 'nats';
import { Rest } from '../../platform/common/rest';
import { PrismaService } from '../../platform/database/prisma.service';
import { eventOf, subjectOf } from './event';
import { EVENTS_SQL } from './events-sql';

export interface EventsConfig {
  readonly natsUrl: string | null;
  readonly stream: string;
  readonly pollMs: number;
  /** After a pass that published, the next begins no sooner than this after it began. */
  readonly gatherMs: number;
}
export const EVENTS_CONFIG = 'sabot:events-config';

/** How long JetStream remembers a message id to drop a duplicate (its own default). */
const DUPLICATE_WINDOW_MS = 120_000;
const BATCH = 1_000;
const PER_STREAM = 250;

/**
 * Publishes every audit entry (one per change, written in the change's own transaction: the
 * outbox) to NATS JetStream, in each stream's order, under the message id "<stream>:<seq>", and
 * records how far each stream went. Off the request path: a coup commits whether or not NATS
 * answers. With no NATS_URL it does nothing, and the entries wait; with NATS down it retries, and
 * catches up from where it was.
 */
@Injectable()
export class EventRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EventRelay.name);
  private readonly subjectPrefix: string;
  private running = false;
  private loop: Promise<void> | null = null;
  private nc: NatsConnection | null = null;
  private js: JetStreamClient | null = null;
  private readonly rest = new Rest();
  /** A change committed in this instance since the relay last looked: look again at once. */
  private poked = false;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(EVENTS_CONFIG) private readonly config: EventsConfig,
  ) {
    this.subjectPrefix = config.stream.toLowerCase();
  }

  onApplicationBootstrap(): void {
    if (!this.config.natsUrl) {
      this.logger.log('No NATS_URL: events are not published; every change waits in the audit log for a relay');
      return;
    }
    this.running = true;
    this.loop = this.run();
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    this.rest.stop();
    await this.loop;
    await this.nc?.drain().catch(() => undefined);
  }

  private async run(): Promise<void> {
    let failing = false;
    while (this.running) {
      try {
        const js = await this.jetstream();
        const began = performance.now();
        const published = await this.relayOnce(js);
        if (failing) this.logger.log('Publishing events again');
        failing = false;
        if (published === 0) await this.idle();
        else if (published < BATCH) await this.gather(began);
      } catch (e) {
        if (!failing) this.logger.warn(`Events not published, retrying: ${(e as Error).message}`);
        failing = true;
        await this.forget();
        await this.rest.for(1_000);
      }
    }
  }

  /** One pass: the pending entries, published in order, then each stream's cursor moved. Returns how many. */
  private async relayOnce(js: JetStreamClient): Promise<number> {
    const { rows } = await this.prisma.pool.query<{ stream: string; seq: string; payload: string }>(
      EVENTS_SQL.pendingEntries.bind({ perStream: PER_STREAM, batch: BATCH }),
    );
    if (rows.length === 0) return 0;
    const last = new Map<string, string>();
    // Sent in order on one connection, so JetStream stores them in order; the acknowledgements are
    // awaited together. If one fails, no cursor moves, and the batch is published again (duplicates dropped).
    const acks = rows.map((r) => {
      const event = eventOf(r.stream, r.seq, r.payload);
      last.set(r.stream, r.seq);
      return js.publish(subjectOf(this.subjectPrefix, event), JSON.stringify(event), { msgID: event.id });
    });
    await Promise.all(acks);
    await this.prisma.pool.query(EVENTS_SQL.advanceCursors.bind({ streams: [...last.keys()], seqs: [...last.values()] }));
    return rows.length;
  }

  private async jetstream(): Promise<JetStreamClient> {
    if (this.js) return this.js;
    const nc = await connect({ servers: this.config.natsUrl!, name: 'sabot-event-relay', reconnect: true, maxReconnectAttempts: -1 });
    const jsm = await nc.jetstreamManager();
    const name = this.config.stream;
    const subjects = [`${this.subjectPrefix}.>`];
    try {
      await jsm.streams.info(name);
    } catch {
      await jsm.streams.add({
        name,
        subjects,
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      });
      this.logger.log(`Created the JetStream stream ${name} (${subjects.join(', ')})`);
    }
    this.nc = nc;
    this.js = nc.jetstream();
    this.logger.log(`Publishing events to ${this.config.natsUrl} (stream ${name})`);
    return this.js;
  }

  private async forget(): Promise<void> {
    const nc = this.nc;
    this.nc = null;
    this.js = null;
    await nc?.close().catch(() => undefined);
  }

  /**
   * This instance has just committed a change (a write answered): the relay publishes it now instead
   * of at its next look. Changes committed by other instances are found by the look every EVENTS_POLL_MS.
   */
  poke(): void {
    this.poked = true;
    if (this.idling) this.rest.wake();
  }

  private idling = false;

  /** Waits for the next look: EVENTS_POLL_MS, or less if a change is committed meanwhile. */
  private async idle(): Promise<void> {
    if (this.poked) {
      this.poked = false;
      return;
    }
    this.idling = true;
    await this.rest.for(this.config.pollMs);
    this.idling = false;
    this.poked = false;
  }

  /**
   * Lets a busy pit's changes gather into the next pass: one query, one round of acknowledgements
   * and one cursor statement for several coups instead of one each, which at a floor's full rate is
   * what keeps the relay from taking the coup path's processor time (BENCHMARKS.md).
   */
  private async gather(began: number): Promise<void> {
    const wait = began + this.config.gatherMs - performance.now();
    if (wait > 0) await this.rest.for(wait);
  }
}
