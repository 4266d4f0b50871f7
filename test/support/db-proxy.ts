import net from 'node:net';

/**
 * Where the proxy cuts the connection that sends the armed statement:
 * - `request`: the statement never reaches PostgreSQL; the connection is closed instead.
 * - `sent`: the statement reaches PostgreSQL whole, then the service's side is closed at once: the
 *   statement runs on in its backend (and an autocommit statement commits) with nobody to answer.
 * - `reply`: PostgreSQL runs the statement to its end (its ReadyForQuery: an autocommit statement
 *   or a COMMIT has committed); none of the reply reaches the service, and the connection is closed.
 * - `mid-reply`: as `reply`, but the reply is delivered up to its last bytes (the service reads the
 *   result rows, never the ReadyForQuery that ends them).
 */
export type Cut = 'request' | 'sent' | 'reply' | 'mid-reply';

interface Rule {
  markers: Buffer[];
  cut: Cut;
  fired: () => void;
}

/** A connection through the proxy: the service's socket, PostgreSQL's, and how far it is through the armed markers. */
interface Link {
  client: net.Socket;
  server: net.Socket;
  /** The next marker of the armed rule this connection has to send. */
  next: number;
  /** The last bytes the service sent, for a marker split between two packets. */
  tail: Buffer;
  /** Once cut: what PostgreSQL answered since the trigger (held back, or partly passed on). */
  reply: Buffer | null;
  rule: Rule | null;
}

/**
 * A TCP proxy between the service and PostgreSQL that cuts one connection at a point the test
 * names: the connection that sends the armed markers, in order (a statement's text or a prepared
 * statement's name, both sent as they are in the wire protocol), is cut as `Cut` says. Nothing in it
 * depends on time: the cut is made on the bytes themselves.
 */
export class DbProxy {
  private readonly links = new Set<Link>();
  private rule: Rule | null = null;
  /** How many connections the proxy has cut. */
  cuts = 0;

  private constructor(
    private readonly server: net.Server,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(databaseUrl: string): Promise<DbProxy> {
    const u = new URL(databaseUrl);
    const target = { host: u.hostname, port: Number(u.port || 5432) };
    const server = net.createServer();
    const proxy = new DbProxy(server, target);
    server.on('connection', (client: net.Socket) => proxy.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The same database URL, through the proxy. */
  url(databaseUrl: string): string {
    const u = new URL(databaseUrl);
    u.hostname = '127.0.0.1';
    u.port = String((this.server.address() as net.AddressInfo).port);
    return u.toString();
  }

  /**
   * Arms one cut: the first connection to send every marker in order (the last in the same packet
   * as the statement it marks) is cut. Resolves once it has been.
   */
  arm(markers: string[], cut: Cut): Promise<void> {
    if (this.rule) throw new Error('a cut is armed already');
    return new Promise((resolve) => {
      this.rule = { markers: markers.map((m) => Buffer.from(m, 'utf8')), cut, fired: resolve };
      for (const link of this.links) link.next = 0;
    });
  }

  get armed(): boolean {
    return this.rule !== null;
  }

  /** Takes back a cut armed but not made. */
  disarm(): void {
    this.rule = null;
  }

  async close(): Promise<void> {
    for (const link of this.links) {
      link.client.destroy();
      link.server.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    const server = net.connect(this.target.port, this.target.host);
    const link: Link = { client, server, next: 0, tail: Buffer.alloc(0), reply: null, rule: null };
    this.links.add(link);
    // Either side closing closes the other, but for a statement cut after it was sent: PostgreSQL
    // reads it to its end and closes its side itself.
    const drop = () => {
      if (link.rule?.cut !== 'sent') server.destroy();
      client.destroy();
    };
    client.on('error', drop);
    server.on('error', drop);
    client.on('close', drop);
    server.on('close', () => {
      this.links.delete(link);
      client.destroy();
    });
    client.on('data', (chunk: Buffer) => this.fromService(link, chunk));
    server.on('data', (chunk: Buffer) => this.fromDatabase(link, chunk));
  }

  private fromService(link: Link, chunk: Buffer): void {
    if (link.rule) return; // cut: nothing more goes through
    const rule = this.rule;
    if (rule) {
      // Each marker is looked for after the one before it (a marker split between two packets is
      // found in the last bytes of the one before).
      const seen = Buffer.concat([link.tail, chunk]);
      for (let from = 0; link.next < rule.markers.length; link.next++) {
        const at = seen.indexOf(rule.markers[link.next], from);
        if (at === -1) break;
        from = at + rule.markers[link.next].length;
      }
      link.tail = Buffer.from(seen.subarray(Math.max(0, seen.length - 64)));
      if (link.next === rule.markers.length) return this.trigger(link, rule, chunk);
    }
    link.server.write(chunk);
  }

  private trigger(link: Link, rule: Rule, chunk: Buffer): void {
    this.rule = null;
    link.rule = rule;
    link.reply = Buffer.alloc(0);
    switch (rule.cut) {
      case 'request':
        return this.finish(link);
      case 'sent':
        // The statement, then an orderly end: PostgreSQL reads it whole and runs it before it sees
        // the end of the stream. Its answer goes nowhere.
        link.server.write(chunk);
        link.server.end();
        link.client.end();
        this.cuts++;
        rule.fired();
        return;
      default:
        link.server.write(chunk);
    }
  }

  private fromDatabase(link: Link, chunk: Buffer): void {
    if (!link.rule) {
      link.client.write(chunk);
      return;
    }
    if (link.reply === null || link.rule.cut === 'sent' || link.rule.cut === 'request') return;
    link.reply = Buffer.concat([link.reply, chunk]);
    const end = readyForQueryEnd(link.reply);
    if (end === -1) return;
    // The statement has run to its end. Pass on all but the last bytes of the reply, or none.
    if (link.rule.cut === 'mid-reply') link.client.write(link.reply.subarray(0, end - 3));
    this.finish(link);
  }

  private finish(link: Link): void {
    link.reply = null;
    // An orderly end on the service's side: whatever was passed on reaches it first.
    link.client.end();
    link.server.destroy();
    this.cuts++;
    link.rule!.fired();
  }
}

/** The end offset of the first ReadyForQuery ('Z') message in a stream of backend messages, or -1. */
function readyForQueryEnd(bytes: Buffer): number {
  for (let at = 0; at + 5 <= bytes.length;) {
    const length = bytes.readUInt32BE(at + 1);
    if (at + 1 + length > bytes.length) return -1;
    if (bytes[at] === 0x5a) return at + 1 + length;
    at += 1 + length;
  }
  return -1;
}
