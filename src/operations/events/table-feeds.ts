import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { connect, Events, NatsConnection, Subscription } from 'nats';
import { BOOTSTRAP_ADMIN_ID } from '../../foundation/access/access.service';
import { ACCESS_SQL } from '../../foundation/access/access-sql';
import type { Actor } from '../../platform/common/actor';
import { PrismaService } from '../../platform/database/prisma.service';
import { EVENTS_CONFIG, EventsConfig } from './event-relay';
import { eventOf, SabotEvent } from './event';
import { EVENTS_SQL } from './events-sql';

/** How often the feeds look at the audit log for news when NATS does not bring it (not configured, or down). */
export const FEED_POLL_MS = 250;
/** How often they look anyway with NATS up: a backstop for a message lost on a reconnect. */
export const FEED_BACKSTOP_MS = 5_000;
/**
 * How often the keys of the open streams are checked again, all of an instance's in one query: a
 * stream whose key was revoked (or expired, or is otherwise no longer valid) ends within this.
 */
export const KEY_CHECK_MS = 5_000;
/** Entries read from the audit log at a time when a subscriber catches up. */
const PAGE = 500;

/** A look at the open streams' keys: the hashes asked about, and those of them valid. */
interface KeyLook {
  readonly asked: ReadonlySet<string>;
  readonly valid: ReadonlySet<string>;
}

/** News of a table's stream: it has reached `seq`; `event` is that entry when NATS brought it. */
export type Listener = (seq: number, event: SabotEvent | null) => void;

/**
 * Live news of tables' event streams for the Server-Sent Events route, shared by every subscriber
 * of a table in this instance. The news comes from NATS (a subscription to the table's subjects,
 * which the relay of whichever instance publishes), and from a look at the audit log's stream heads
 * (every FEED_POLL_MS without NATS, every FEED_BACKSTOP_MS with it). A subscriber that sees a gap
 * reads the missing entries from the audit log, so what it sends is every entry, in order, once.
 */
@Injectable()
export class TableFeeds implements OnModuleDestroy {
  private readonly logger = new Logger(TableFeeds.name);
  private readonly subjectPrefix: string;
  private readonly watched = new Map<string, { listeners: Set<Listener>; sub: Subscription | null; seq: number }>();
  private readonly closers = new Set<() => void>();
  /** Each open stream's end, with the hash of the key it was opened with. */
  private readonly keyed = new Map<() => void, string>();
  private keyTimer: NodeJS.Timeout | null = null;
  /** The look at the open streams' keys under way, and the one waiting to begin after it. */
  private looking: Promise<KeyLook | null> | null = null;
  private queuedLook: Promise<KeyLook | null> | null = null;
  private nc: Promise<NatsConnection | null> | null = null;
  private natsConnected = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(EVENTS_CONFIG) private readonly config: EventsConfig,
  ) {
    this.subjectPrefix = config.stream.toLowerCase();
  }

  /** How far a table's stream has gone (0 before its first entry). */
  async head(tableId: string): Promise<number> {
    return (await this.heads([tableId])).get(tableId) ?? 0;
  }

  /** A table's entries after `after`, in order, at most PAGE of them. */
  async entriesAfter(tableId: string, after: number): Promise<SabotEvent[]> {
    const { rows } = await this.prisma.pool.query<{ seq: string; payload: string }>(
      EVENTS_SQL.streamEntries.bind({ stream: tableId, after: String(after), limit: PAGE }),
    );
    return rows.map((r) => eventOf(tableId, r.seq, r.payload));
  }

  /** Calls `listener` with each piece of news of the table until the returned function is called. */
  watch(tableId: string, listener: Listener): () => void {
    let w = this.watched.get(tableId);
    if (!w) {
      w = { listeners: new Set(), sub: null, seq: 0 };
      this.watched.set(tableId, w);
      void this.subscribe(tableId, w);
      this.schedule(0);
    }
    w.listeners.add(listener);
    return () => {
      const entry = this.watched.get(tableId);
      if (!entry) return;
      entry.listeners.delete(listener);
      if (entry.listeners.size === 0) {
        entry.sub?.unsubscribe();
        this.watched.delete(tableId);
      }
    };
  }

  /** Registers what ends an open feed when the service stops (a stream would otherwise hold the server open). */
  onStop(close: () => void): () => void {
    this.closers.add(close);
    return () => this.closers.delete(close);
  }

  /**
   * Calls `end` once the key a stream was opened with would no longer be accepted: the caller `actor`,
   * who presented the key of SHA-256 `keyHash` (hex). That is the one definition of a usable key
   * (access.sql keyValid: revoked, expired, or whatever else it says), looked up by the key
   * itself as a request's is, so a key whose secret was replaced ends too. Every open stream's key is
   * checked every KEY_CHECK_MS, in one query for all of them (not per event); the bootstrap
   * administrator's key is the environment's and is not checked.
   */
  whileKeyValid(actor: Actor, keyHash: string, end: () => void): () => void {
    if (actor.keyId === BOOTSTRAP_ADMIN_ID) return () => undefined;
    this.keyed.set(end, keyHash);
    this.scheduleKeyCheck();
    return () => this.keyed.delete(end);
  }

  /**
   * Whether the key a stream was opened with (SHA-256 `keyHash`, hex) is still valid, as a look begun
   * after this call reads it: a stream asks before it sends each piece of news, so a key revoked before
   * an event was committed never sees that event. Streams asking at once share one look (all open
   * streams' keys in one query); one asking while a look is under way waits for the next, which
   * begins after it asked. A look that fails lets the news through (the database is what a revocation
   * is written to, and the periodic check ends the stream once it answers).
   */
  async keyStillValid(actor: Actor, keyHash: string): Promise<boolean> {
    if (actor.keyId === BOOTSTRAP_ADMIN_ID) return true;
    const look = await this.freshLook();
    if (look === null) return true;
    if (look.asked.has(keyHash)) return look.valid.has(keyHash);
    // Not asked about: its stream closed meanwhile (nothing more to send), or it opened as the look began (asked again).
    return [...this.keyed.values()].includes(keyHash) ? this.keyStillValid(actor, keyHash) : false;
  }

  private freshLook(): Promise<KeyLook | null> {
    if (!this.looking) {
      this.looking = this.validHashes().finally(() => (this.looking = null));
      return this.looking;
    }
    this.queuedLook ??= this.looking.then(() => {
      this.queuedLook = null;
      return this.freshLook();
    });
    return this.queuedLook;
  }

  /** The open streams' keys asked about, and those of them valid now; null when the look failed. */
  private async validHashes(): Promise<KeyLook | null> {
    const asked = new Set(this.keyed.values());
    try {
      const { rows } = await this.prisma.pool.query<{ key_hash: string }>(ACCESS_SQL.validHashes.bind({ keyHashes: [...asked] }));
      return { asked, valid: new Set(rows.map((r) => r.key_hash)) };
    } catch (e) {
      this.logger.warn(`Live feeds could not check the keys of open streams: ${(e as Error).message}`);
      return null;
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.keyTimer) clearTimeout(this.keyTimer);
    for (const close of [...this.closers]) close();
    const nc = await this.nc;
    await nc?.close().catch(() => undefined);
  }

  /** How far each of these tables' streams has gone (absent: not begun). */
  async heads(streams: string[]): Promise<Map<string, number>> {
    const { rows } = await this.prisma.pool.query<{ stream: string; seq: string }>(EVENTS_SQL.streamHeads.bind({ streams }));
    return new Map(rows.map((r) => [r.stream, Number(r.seq)]));
  }

  private async subscribe(tableId: string, w: { sub: Subscription | null; listeners: Set<Listener> }): Promise<void> {
    const nc = await this.connection();
    if (!nc || this.watched.get(tableId) !== w) return;
    w.sub = nc.subscribe(`${this.subjectPrefix}.table.${tableId}.>`, {
      callback: (err, msg) => {
        if (err) return;
        const event = JSON.parse(msg.string()) as SabotEvent;
        for (const l of w.listeners) l(event.seq, event);
      },
    });
  }

  private connection(): Promise<NatsConnection | null> {
    if (!this.config.natsUrl) return Promise.resolve(null);
    this.nc ??= connect({
      servers: this.config.natsUrl,
      name: 'sabot-table-feeds',
      reconnect: true,
      maxReconnectAttempts: -1,
      waitOnFirstConnect: true,
    }).then(
      (nc) => {
        this.natsConnected = true;
        void (async () => {
          for await (const s of nc.status()) {
            if (s.type === Events.Disconnect) this.natsConnected = false;
            if (s.type === Events.Reconnect) this.natsConnected = true;
          }
        })();
        return nc;
      },
      (e: Error) => {
        this.logger.warn(`Live feeds read the audit log instead of NATS: ${e.message}`);
        return null;
      },
    );
    return this.nc;
  }

  /** The next look at the audit log: often while NATS does not bring the news, rarely while it does. */
  private schedule(ms: number): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.look().finally(() => {
        if (this.watched.size > 0) this.schedule(this.natsUp() ? FEED_BACKSTOP_MS : FEED_POLL_MS);
      });
    }, ms);
  }

  private scheduleKeyCheck(): void {
    if (this.keyTimer || this.stopped || this.keyed.size === 0) return;
    this.keyTimer = setTimeout(() => {
      void this.checkKeys().finally(() => {
        this.keyTimer = null;
        this.scheduleKeyCheck();
      });
    }, KEY_CHECK_MS);
  }

  /** Ends the streams whose keys are no longer valid, quiet ones too. A failed look keeps them open until the next. */
  private async checkKeys(): Promise<void> {
    if (this.keyed.size === 0) return;
    const look = await this.freshLook();
    if (look === null) return;
    // A stream opened while the look ran was not asked about: the next look will.
    for (const [end, keyHash] of [...this.keyed]) if (look.asked.has(keyHash) && !look.valid.has(keyHash)) end();
  }

  private natsUp(): boolean {
    return this.natsConnected;
  }

  private async look(): Promise<void> {
    if (this.watched.size === 0) return;
    try {
      const heads = await this.heads([...this.watched.keys()]);
      for (const [tableId, w] of this.watched) {
        const seq = heads.get(tableId) ?? 0;
        if (seq <= w.seq) continue;
        w.seq = seq;
        for (const l of w.listeners) l(seq, null);
      }
    } catch (e) {
      this.logger.warn(`Live feeds could not read the audit log: ${(e as Error).message}`);
    }
  }
}
