/** One Server-Sent Event as a client receives it. */
export interface ServerSentEvent {
  event: string;
  id: string | null;
  data: string;
}

/**
 * A Server-Sent Events client over fetch (it can send the Authorization header, which a browser's
 * EventSource cannot): parses frames as the HTML standard says and hands them out in order.
 */
export class SseClient {
  private readonly received: ServerSentEvent[] = [];
  private waiting: (() => void) | null = null;
  private readonly abort = new AbortController();
  private done: Promise<void> = Promise.resolve();
  status = 0;
  contentType = '';
  body = '';

  static async open(url: string, key: string, lastEventId?: string): Promise<SseClient> {
    const c = new SseClient();
    const headers: Record<string, string> = { Authorization: `Bearer ${key}`, Accept: 'text/event-stream' };
    if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
    const res = await fetch(url, { headers, signal: c.abort.signal });
    c.status = res.status;
    c.contentType = res.headers.get('content-type') ?? '';
    if (!c.contentType.startsWith('text/event-stream')) {
      c.body = await res.text();
      return c;
    }
    c.done = c.read(res.body!).catch(() => undefined);
    return c;
  }

  /** The next `n` events (of any kind but comments), waiting for them as long as `ms`. */
  async take(n: number, ms = 20_000): Promise<ServerSentEvent[]> {
    const until = Date.now() + ms;
    while (this.received.length < n) {
      const left = until - Date.now();
      if (left <= 0) throw new Error(`${this.received.length} of ${n} events arrived: ${this.received.map((e) => e.id ?? e.event).join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return this.received.splice(0, n);
  }

  /** What has arrived and not been taken. */
  pending(): ServerSentEvent[] {
    return [...this.received];
  }

  /** Resolves once the server has ended the stream; fails if it has not within `ms`. */
  async ended(ms = 30_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`The stream did not end within ${ms} ms`)), ms)));
    try {
      await Promise.race([this.done, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.done;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const e: ServerSentEvent = { event: 'message', id: null, data: '' };
        const data: string[] = [];
        let any = false;
        for (const line of frame.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') e.event = value;
          else if (field === 'id') e.id = value;
          else if (field === 'data') data.push(value);
          else continue;
          any = true;
        }
        if (!any) continue;
        e.data = data.join('\n');
        this.received.push(e);
        this.waiting?.();
      }
    }
  }
}
