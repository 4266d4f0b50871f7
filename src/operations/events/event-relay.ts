import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { connect, JetStreamClient, nanos, NatsConnection, RetentionPolicy, StorageType } from 'nats';
import type { PoolClient } from 'pg';
import { AUDIT_SECRETS, AuditSecrets, appendWithSeals, auditParams } from '../../foundation/ledger/audit-log';
import { cursorHolds, cursorMac, cursorMacs, RELAY_ENTITY, RELAY_STREAM, RelayRecord } from '../../foundation/ledger/progress';
import { SYSTEM_CONTEXT } from '../../platform/common/context';
import { Rest } from '../../platform/common/rest';
import { PrismaService } from '../../platform/database/prisma.service';
import { pgRunner } from '../../platform/database/sql';
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
 * How often, at most, the relay records its progress under the audit key (a `relay.progress` entry
 * of the `relay` stream, never published) and checks its cursors' MACs. Less than JetStream's
 * duplicate window: a cursor moved back within it re-publishes only what JetStream drops.
 */
export const PROGRESS_MS = 60_000;

/**
 * Publishes every audit entry (one per change, written in the change's own transaction: the
 * outbox) to NATS JetStream, in each stream's order, under the message id "<stream>:<seq>", and
 * records how far each stream went. Off the request path: a coup commits whether or not NATS
 * answers. With no NATS_URL it does nothing, and the entries wait; with NATS down it retries, and
 * catches up from where it was.
 *
 * Its progress is a record (issue 49, src/foundation/ledger/progress.ts): each cursor carries a MAC
 * under the audit key, so one moved ahead of what was published is found (by the verification, the
 * backlog metric, and the relay itself, which sets it back and publishes what it skipped); and the
 * relay records how far it published under the audit key at most every PROGRESS_MS, so a cursor
 * moved back or deleted is found too.
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

  /** How far this relay published each stream since it last recorded its progress. */
  private unrecorded = new Map<string, string>();
  /** When it last recorded its progress and checked its cursors (0: not yet). */
  private lastRecorded = 0;
  private adopted = false;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(EVENTS_CONFIG) private readonly config: EventsConfig,
    @Inject(AUDIT_SECRETS) private readonly secrets: AuditSecrets,
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
    await this.recordProgress().catch(() => undefined);
    await this.nc?.drain().catch(() => undefined);
  }

  private async run(): Promise<void> {
    let failing = false;
    while (this.running) {
      try {
        const js = await this.jetstream();
        const began = performance.now();
        if (!this.adopted) await this.adopt();
        if (Date.now() - this.lastRecorded >= PROGRESS_MS) {
          await this.checkCursors();
          await this.recordProgress();
        }
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
    const streams = [...last.keys()];
    const seqs = [...last.values()];
    await this.prisma.pool.query(EVENTS_SQL.advanceCursors.bind({ streams, seqs, ...cursorMacs(this.secrets.keyring, 'event_relay_cursors', streams, seqs) }));
    for (const [stream, seq] of last) this.unrecorded.set(stream, seq);
    return rows.length;
  }

  /**
   * How far this relay published each stream since it last said, recorded under the audit key (a
   * `relay.progress` entry of the `relay` stream): the verification finds a cursor behind it.
   */
  async recordProgress(): Promise<void> {
    this.lastRecorded = Date.now();
    if (this.unrecorded.size === 0) return;
    const published = Object.fromEntries(this.unrecorded);
    this.unrecorded = new Map();
    await this.record('relay.progress', 'progress', { published }).catch((e: Error) => {
      for (const [stream, seq] of Object.entries(published)) if (!this.unrecorded.has(stream)) this.unrecorded.set(stream, seq);
      throw e;
    });
  }

  private async record(action: string, entityId: string, data: RelayRecord, before?: (client: PoolClient) => Promise<void>): Promise<void> {
    const keyring = this.secrets.keyring;
    await this.prisma.rawTransaction(SYSTEM_CONTEXT, async (client) => {
      await before?.(client);
      const entry = { stream: RELAY_STREAM, action, entityType: RELAY_ENTITY, entityId, data: { ...data } };
      await appendWithSeals(pgRunner(client), keyring, auditParams(SYSTEM_CONTEXT, entry, keyring), entry);
    });
  }

  /**
   * At the first start after the relay's progress became a record (20261214153720_progress_keyed),
   * the cursors it finds are keyed and recorded, once (relay.adopt).
   */
  private async adopt(): Promise<void> {
    const keyring = this.secrets.keyring;
    const found = await this.prisma.rawTransaction(SYSTEM_CONTEXT, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('sabot:relay:adopt', 0))");
      if ((await client.query(EVENTS_SQL.relayAdopted.bind({}))).rows.length) return null;
      const rows = (await client.query<{ stream: string; seq: string }>(EVENTS_SQL.relayCursors.bind({}))).rows;
      const streams = rows.map((r) => r.stream);
      await client.query(
        EVENTS_SQL.keyRelayCursors.bind({
          streams,
          ...cursorMacs(
            keyring,
            'event_relay_cursors',
            streams,
            rows.map((r) => r.seq),
          ),
        }),
      );
      const data: RelayRecord = { published: Object.fromEntries(rows.map((r) => [r.stream, r.seq])) };
      const entry = { stream: RELAY_STREAM, action: 'relay.adopt', entityType: RELAY_ENTITY, entityId: 'adopt', data: { ...data } };
      await appendWithSeals(pgRunner(client), keyring, auditParams(SYSTEM_CONTEXT, entry, keyring), entry);
      return rows.length;
    });
    if (found !== null) this.logger.log(`Recorded the ${found} event relay cursors found at the first start (relay.adopt)`);
    this.adopted = true;
  }

  /**
   * Every cursor's MAC: one that does not hold (moved ahead of what was published) is set back to
   * where the relay's keyed record says it published, so what it skipped is published now; the move
   * stays on the record (relay.reset), and in the log.
   */
  async checkCursors(): Promise<void> {
    const pool = this.prisma.pool;
    const keyring = this.secrets.keyring;
    for (const c of (await pool.query<{ stream: string; seq: string; mac: string | null; mac_key: string | null }>(EVENTS_SQL.relayCursors.bind({}))).rows) {
      if (cursorHolds(keyring, 'event_relay_cursors', c)) continue;
      const [{ seq }] = (await pool.query<{ seq: string }>(EVENTS_SQL.relayPublishedTo.bind({ stream: c.stream, quoted: JSON.stringify(c.stream) }))).rows;
      const mac = cursorMac(keyring.keys.get(keyring.currentId)!, 'event_relay_cursors', c.stream, seq);
      await this.record('relay.reset', 'reset', { published: {}, reset: { [c.stream]: [c.seq, seq] } }, async (client) => {
        await client.query(EVENTS_SQL.resetRelayCursor.bind({ stream: c.stream, seq, mac, macKey: keyring.currentId }));
      });
      this.logger.warn(
        `The event relay's cursor of stream ${c.stream} was at ${c.seq} without a MAC that holds: set back to ${seq}, where it had published to`,
      );
    }
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
