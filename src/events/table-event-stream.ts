import type { Response } from 'express';
import { SabotEvent } from './event';
import { TableFeeds } from './table-feeds';

/** A comment line sent this often keeps proxies from closing a quiet stream, and the feed checks for gaps. */
export const KEEP_ALIVE_MS = 15_000;
/** What a browser waits before reconnecting after the stream drops. */
const RETRY_MS = 1_000;

/**
 * One Server-Sent Events answer: the table's events after `after`, in order, each once, then live
 * ones as they come, until the client goes. Each event is a `message` whose `id` is the event's id
 * (`<tableId>:<seq>`, which a browser sends back as Last-Event-ID on reconnecting) and whose data is
 * the event's JSON. It starts with a `ready` event naming where it starts.
 */
export class TableEventStream {
  private last: number;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly feeds: TableFeeds,
    private readonly res: Response,
    private readonly tableId: string,
    after: number,
  ) {
    this.last = after;
  }

  /** Starts the answer. `head` is how far the table's stream had gone when the request came. */
  start(head: number): void {
    this.res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    this.res.flushHeaders();
    this.res.on('close', () => this.close());
    this.stops.push(this.feeds.onStop(() => this.close()));
    this.stops.push(this.feeds.watch(this.tableId, (seq, event) => this.news(seq, event)));
    const keepAlive = setInterval(() => {
      this.send(': keep-alive\n\n');
      void this.feeds.head(this.tableId).then(
        (seq) => this.news(seq, null),
        () => undefined,
      );
    }, KEEP_ALIVE_MS);
    this.stops.push(() => clearInterval(keepAlive));
    this.send(`retry: ${RETRY_MS}\nevent: ready\ndata: ${JSON.stringify({ stream: this.tableId, after: this.last, head })}\n\n`);
    this.news(head, null);
  }

  /** The stream has reached `seq`: send what this client has not had, in order. */
  private news(seq: number, event: SabotEvent | null): void {
    this.chain = this.chain.then(async () => {
      if (this.closed || seq <= this.last) return;
      if (event && seq === this.last + 1) return this.deliver([event]);
      // A gap (or news without the event): read what is missing from the audit log.
      while (!this.closed && this.last < seq) {
        const page = await this.feeds.entriesAfter(this.tableId, this.last);
        if (page.length === 0) return;
        await this.deliver(page);
      }
    });
    this.chain = this.chain.catch(() => this.close());
  }

  private async deliver(events: SabotEvent[]): Promise<void> {
    for (const e of events) {
      if (this.closed) return;
      if (e.seq !== this.last + 1) continue;
      this.last = e.seq;
      if (!this.send(`id: ${e.id}\ndata: ${JSON.stringify(e)}\n\n`)) await this.drained();
    }
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
