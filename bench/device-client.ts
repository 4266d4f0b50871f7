import { WebSocket } from 'ws';
import { DeviceEvent } from '../src/domain';
import { textOf } from '../src/table-games/coups/device-gateway';

/** What the gateway says to a device. */
export type GatewayMessage =
  | { type: 'WELCOME'; lastSeq: number; tableId: string }
  | { type: 'ACK'; seq: number; again?: true }
  | { type: 'REFUSED'; seq: number | null; code: string; message: string };

/**
 * A device on the device gateway (issue 51) over a real WebSocket, as a card-reading shoe or a chip
 * reader would be: it opens with its key, hears WELCOME, and sends reports one at a time, each
 * waiting for its answer. The table simulator's devices and the tests' alike.
 */
export class DeviceClient {
  private readonly inbox: GatewayMessage[] = [];
  private waiting: ((m: GatewayMessage) => void) | null = null;
  closed: { code: number; reason: string } | null = null;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const m = JSON.parse(textOf(data)) as GatewayMessage;
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = null;
        w(m);
      } else this.inbox.push(m);
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
  }

  /** Opens a connection with `key` at the service `url` (http://…) and waits for the gateway's WELCOME. */
  static async open(url: string, key: string): Promise<{ client: DeviceClient; welcome: GatewayMessage & { type: 'WELCOME' } }> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/devices/stream`, { headers: { Authorization: `Bearer ${key}` } });
    // Listening from the start: the WELCOME may come in the same packet as the upgrade's answer.
    const client = new DeviceClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    const welcome = await client.next();
    if (welcome.type !== 'WELCOME') throw new Error(`expected WELCOME, got ${JSON.stringify(welcome)}`);
    return { client, welcome };
  }

  /** The status the gateway refuses a connection with `key` with (an HTTP status), or 101 if it opens. */
  static async statusFor(url: string, key: string | null): Promise<number> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/devices/stream`, key === null ? {} : { headers: { Authorization: `Bearer ${key}` } });
    return new Promise<number>((resolve) => {
      ws.once('open', () => {
        ws.terminate();
        resolve(101);
      });
      ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.once('error', () => resolve(0));
    });
  }

  next(): Promise<GatewayMessage> {
    const m = this.inbox.shift();
    if (m) return Promise.resolve(m);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** Sends one report (any JSON, or text as it is) and waits for its answer. */
  async send(report: unknown): Promise<GatewayMessage> {
    this.ws.send(typeof report === 'string' ? report : JSON.stringify(report));
    return this.next();
  }

  /** Sends without waiting (to drop the connection with a report in flight). */
  fire(report: unknown): void {
    this.ws.send(JSON.stringify(report));
  }

  close(): void {
    this.ws.terminate();
  }
}

/** A report as the device protocol carries it (numbers where the domain has bigints), with its sequence number. */
export function onTheWire(e: DeviceEvent, seq: number): Record<string, unknown> {
  if (e.type === 'BET_DETECTED') return { seq, ...e, chips: e.chips.map((c) => ({ ...c, denomination: Number(c.denomination) })) };
  return { seq, ...e };
}
