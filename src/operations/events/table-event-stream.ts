import type { Response } from 'express';
import type { Actor } from '../../platform/common/actor';
import { SabotEvent } from './event';
import { TableFeeds } from './table-feeds';

/** A comment line sent this often keeps proxies from closing a quiet stream, and the feed checks for gaps. */
export const KEEP_ALIVE_MS = 15_000;
/** What a browser waits before reconnecting after the stream drops. */
const RETRY_MS = 1_000;

/** Where a stream starts for one table: after `after`; `head` is how far the table had gone. */
export interface StreamStart {
  readonly stream: string;
  readonly after: number;
  readonly head: number;
}

/** The last event of a stream whose key is no longer valid (then the stream ends). */
export const KEY_ENDED = { code: 'UNAUTHENTICATED', message: 'The API key of this stream was revoked or has expired: the stream ends' };

/**
 * One Server-Sent Events answer: each table's events after its start, in that table's order, each
 * once, then live ones as they come, until the client goes, or the key it was opened with is no
 * longer valid (revoked or expired: an `end` event, then the end of the answer). Each event is a `message` whose `id` is
 * the event's id (`<tableId>:<seq>`, which a browser sends back as Last-Event-ID on reconnecting)
 * and whose data is the event's JSON. It starts with a `ready` event naming where it starts.
 *
 * With `changesOnly` (a table-side display's stream) it carries none of the events' data: each time
 * the table's stream moves on, one `changed` event whose `id` is the seq reached and whose data is
 * `{ "seq": <seq> }`, however many events that was, so a public screen learns only that its board
 * changed and reads it again.
 */
export class TableEventStream {
  private readonly last = new Map<string, number>();
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly feeds: TableFeeds,
    private readonly res: Response,
    private readonly starts: readonly StreamStart[],
    /** Who opened it, with the SHA-256 (hex) of the key they presented. */
    private readonly key: { actor: Actor; keyHash: string },
    private readonly changesOnly = false,
  ) {
    for (const s of starts) this.last.set(s.stream, s.after);
  }

  /** Starts the answer with a `ready` event whose data is `ready`. */
  start(ready: unknown): void {
    this.res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    this.res.flushHeaders();
    this.res.on('close', () => this.close());
    this.stops.push(this.feeds.onStop(() => this.close()));
    this.stops.push(this.feeds.whileKeyValid(this.key.actor, this.key.keyHash, () => this.endForKey()));
    for (const { stream } of this.starts) this.stops.push(this.feeds.watch(stream, (seq, event) => this.news(stream, seq, event)));
    const keepAlive = setInterval(() => {
      this.send(': keep-alive\n\n');
      for (const { stream } of this.starts)
        void this.feeds.head(stream).then(
          (seq) => this.news(stream, seq, null),
          () => undefined,
        );
    }, KEEP_ALIVE_MS);
    this.stops.push(() => clearInterval(keepAlive));
    this.send(`retry: ${RETRY_MS}\nevent: ready\ndata: ${JSON.stringify(ready)}\n\n`);
    for (const s of this.starts) this.news(s.stream, s.head, null);
  }

  /** A table's stream has reached `seq`: send what this client has not had of it, in order. */
  private news(stream: string, seq: number, event: SabotEvent | null): void {
    this.chain = this.chain.then(async () => {
      if (this.closed || seq <= this.last.get(stream)!) return;
      // The key is asked after the news came, so a key revoked before the event was written never sees it.
      if (!(await this.feeds.keyStillValid(this.key.actor, this.key.keyHash))) return this.endForKey();
      if (this.closed) return;
      if (this.changesOnly) {
        this.last.set(stream, seq);
        if (!this.send(`id: ${seq}\nevent: changed\ndata: ${JSON.stringify({ seq })}\n\n`)) await this.drained();
        return;
      }
      if (event && seq === this.last.get(stream)! + 1) return this.deliver([event]);
      // A gap (or news without the event): read what is missing from the audit log, up to `seq` and no
      // further: what was written after the key was asked about comes with news of its own, asked again.
      while (!this.closed && this.last.get(stream)! < seq) {
        const page = (await this.feeds.entriesAfter(stream, this.last.get(stream)!)).filter((e) => e.seq <= seq);
        if (page.length === 0) return;
        await this.deliver(page);
      }
    });
    this.chain = this.chain.catch(() => this.close());
  }

  private async deliver(events: SabotEvent[]): Promise<void> {
    for (const e of events) {
      if (this.closed) return;
      if (e.seq !== this.last.get(e.stream)! + 1) continue;
      this.last.set(e.stream, e.seq);
      if (!this.send(`id: ${e.id}\ndata: ${JSON.stringify(e)}\n\n`)) await this.drained();
    }
  }

  /** The key is no longer valid: an `end` event, then the end of the answer. */
  private endForKey(): void {
    this.send(`event: end\ndata: ${JSON.stringify(KEY_ENDED)}\n\n`);
    this.close();
  }

  private send(frame: string): boolean {
    return this.closed ? true : this.res.write(frame);
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const stop of this.stops) stop();
    this.res.end();
  }
}
