import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { RawData, WebSocket, WebSocketServer } from 'ws';
import { AccessService } from '../../foundation/access/access.service';
import type { Actor } from '../../platform/common/actor';
import { DeviceAnswer, DeviceReportsService } from './device-reports.service';

/** Where devices connect. */
export const DEVICE_STREAM_PATH = '/v1/devices/stream';

/** The largest report a device may send (a spot of 200 chips fits many times over). */
const MAX_REPORT_BYTES = 64 * 1024;

/**
 * The device gateway (issue 51): a WebSocket at /v1/devices/stream, opened with a DEVICE key (one
 * device of one table). Chosen over a NATS subject because a device speaks to Sabot, not to Sabot's
 * internal bus: the connection carries the device's own key, checked as every key is, and each report
 * is answered (ACK or REFUSED) on the connection that sent it, after it is kept. On opening, the
 * gateway says WELCOME with the last number it has kept from the device; the device goes on from the
 * next, so a reconnect loses nothing and repeats nothing. Reports of one connection are taken one at a
 * time, in the order they came.
 */
@Injectable()
export class DeviceGateway implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeviceGateway.name);
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_REPORT_BYTES });
  private server: Server | null = null;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.upgrade(req, socket, head);

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly access: AccessService,
    private readonly reports: DeviceReportsService,
  ) {}

  onApplicationBootstrap(): void {
    this.server = this.adapterHost.httpAdapter?.getHttpServer() as Server | null;
    this.server?.on('upgrade', this.onUpgrade);
  }

  onModuleDestroy(): void {
    this.server?.off('upgrade', this.onUpgrade);
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://device');
    if (url.pathname !== DEVICE_STREAM_PATH) return;
    const refuse = (status: string, message: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${JSON.stringify({ message })}`);
    };
    try {
      const match = /^Bearer\s+(\S{1,200})$/i.exec(req.headers.authorization ?? '');
      const actor = match ? await this.access.authenticate(match[1]) : null;
      if (!actor) return refuse('401 Unauthorized', 'A valid DEVICE key is required: Authorization: Bearer <key>');
      if (actor.role !== 'DEVICE' || !actor.tableId)
        return refuse('403 Forbidden', `A ${actor.role} key does not report for a table's device: a DEVICE key does`);
      const last = await this.reports.lastSeq(actor.keyId);
      this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws, actor, last));
    } catch (e) {
      this.logger.warn(`device connection refused: ${(e as Error).message}`);
      refuse('503 Service Unavailable', 'The gateway cannot take reports now: connect again shortly');
    }
  }

  private connected(ws: WebSocket, actor: Actor, lastSeq: number): void {
    const connection = randomUUID();
    let queue = Promise.resolve();
    const send = (a: DeviceAnswer | { type: 'WELCOME'; lastSeq: number; tableId: string }) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(a));
    };
    send({ type: 'WELCOME', lastSeq, tableId: actor.tableId! });
    ws.on('message', (data, isBinary) => {
      queue = queue.then(async () => {
        const text = textOf(data);
        let raw: unknown;
        try {
          raw = isBinary ? undefined : JSON.parse(text);
        } catch {
          raw = text;
        }
        try {
          // A key revoked while its device is connected takes nothing more.
          if (!(await this.access.isValid(actor.keyId))) {
            ws.close(1008, 'This DEVICE key is revoked or expired');
            return;
          }
          send(await this.reports.take(actor, raw, connection));
        } catch (e) {
          // The report is not kept (the database, say): the device sends it again after reconnecting.
          this.logger.warn(`device ${actor.keyId}: a report not kept: ${(e as Error).message}`);
          ws.close(1011, 'The report was not kept: connect again and send it again');
        }
      });
    });
  }
}

/** A message's bytes as text (a report is JSON in UTF-8). */
export const textOf = (data: RawData): string =>
  (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString('utf8');
