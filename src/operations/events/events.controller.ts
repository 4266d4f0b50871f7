import { Controller, Headers, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { hash } from '../../foundation/access/access.service';
import { Actor, assertTableAccess, CurrentActor, DISPLAY_READERS, EVERYONE } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { AppError } from '../../platform/common/errors';
import { IdParam } from '../../platform/common/validation';
import { PitService } from '../../foundation/pit/pit.service';
import { TablesEventsQuery } from './dto/events-query.dto';
import { StreamStart, TableEventStream } from './table-event-stream';
import { TableFeeds } from './table-feeds';

const LAST_EVENT_ID = /^(?:([0-9a-f-]{36}):)?(\d{1,15})$/;
const BEARER = /^Bearer\s+(\S{1,200})$/i;

@ApiTags('Events')
@Controller('v1')
export class EventsController {
  constructor(
    private readonly pit: PitService,
    private readonly feeds: TableFeeds,
  ) {}

  @Endpoint('GET', 'tables/:id/events', {
    operationId: 'streamTableEvents',
    summary: "A table's events, live (Server-Sent Events)",
    description:
      "The table's events (the same envelope as on NATS: docs/events.md) as Server-Sent Events, for live screens: each a `message` whose `id` is the event's id (`<tableId>:<seq>`) and whose `data` is the event's JSON, in the table's order, each once. " +
      'The answer opens with a `ready` event `{ stream, after, head }`; then come the events after `Last-Event-ID` (a browser sends it when it reconnects) or, without it, the events from now on. ' +
      'A comment line every 15 s keeps the connection open. Any instance of the service answers: the events come from the stream, and what a connection missed is read from the audit log. ' +
      'Once the key the stream was opened with is revoked or expires, the stream ends before its next event (a quiet one within 5 s) with an `end` event `{ code: UNAUTHENTICATED, message }`: the events stop, and a reconnect with that key is refused.',
    roles: EVERYONE,
    eventStream:
      'A stream of Server-Sent Events (`text/event-stream`): `event: ready` with `{ stream, after, head }`, then one `message` per event, `id: <tableId>:<seq>`, `data: <event JSON>`; `event: end` with `{ code, message }` when the key is no longer valid, and the stream ends.',
    errors: ['NOT_FOUND'],
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description:
      "Resume after this event: its id `<tableId>:<seq>` (or the seq alone). Without it, or past the table's last event (after a restore), the stream starts from now.",
    schema: { type: 'string', maxLength: 64 },
  })
  async stream(
    @IdParam() tableId: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @CurrentActor() actor: Actor,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    assertTableAccess(actor, tableId);
    await this.pit.withProperty(tableId);
    const head = await this.feeds.head(tableId);
    const start: StreamStart = { stream: tableId, after: startAfter(tableId, lastEventId, head), head };
    new TableEventStream(this.feeds, res, [start], keyOf(actor, req)).start(start);
  }

  @Endpoint('GET', 'tables/:id/display/events', {
    operationId: 'streamTableDisplayChanges',
    summary: "When a table-side display's board changed, live (Server-Sent Events, no event data)",
    description:
      "For a public screen (a DISPLAY key): says that the table's board changed, and nothing of what changed. Each time the table's stream moves on, one `changed` event whose `id` is the table's seq reached and whose `data` is `{ seq }` alone: no wager, seat, patron or amount. " +
      'The screen then reads `GET /v1/tables/{id}/display` again. It opens with a `ready` event `{ stream, after, head }`; with `Last-Event-ID` (a browser sends it on reconnecting) a `changed` follows at once if the table moved on meanwhile. ' +
      'A comment line every 15 s keeps the connection open. Once the key is revoked or expires, it ends before its next event (a quiet one within 5 s) with an `end` event, as on `GET /v1/tables/{id}/events`.',
    roles: DISPLAY_READERS,
    eventStream:
      'A stream of Server-Sent Events (`text/event-stream`): `event: ready` with `{ stream, after, head }`, then `event: changed`, `id: <seq>`, `data: { seq }` each time the board changed; `event: end` with `{ code, message }` when the key is no longer valid, and the stream ends.',
    errors: ['NOT_FOUND'],
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description:
      "Resume after this seq (the `id` of the last `changed`, or an event id `<tableId>:<seq>`). Without it, or past the table's last event (after a restore), the stream starts from now.",
    schema: { type: 'string', maxLength: 64 },
  })
  async displayChanges(
    @IdParam() tableId: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @CurrentActor() actor: Actor,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    assertTableAccess(actor, tableId);
    await this.pit.withProperty(tableId);
    const head = await this.feeds.head(tableId);
    const start: StreamStart = { stream: tableId, after: startAfter(tableId, lastEventId, head), head };
    new TableEventStream(this.feeds, res, [start], keyOf(actor, req), true).start(start);
  }

  @Endpoint('GET', 'events', {
    operationId: 'streamTablesEvents',
    summary: "Several tables' events, live, on one connection (Server-Sent Events)",
    description:
      "The events of several tables (a pit's, for an overview screen) as Server-Sent Events on one connection: each table's in its order, each once, as on `GET /v1/tables/{id}/events`, from now on. " +
      'It opens with a `ready` event `{ tables: [{ stream, after, head }] }`. It does not resume (a Last-Event-ID is ignored): after a reconnect, read the figures again on `ready`. ' +
      'Once the key is revoked or expires, it ends before its next event (a quiet one within 5 s) with an `end` event, as on `GET /v1/tables/{id}/events`.',
    roles: EVERYONE,
    eventStream:
      'A stream of Server-Sent Events (`text/event-stream`): `event: ready` with `{ tables: [{ stream, after, head }] }`, then one `message` per event, `id: <tableId>:<seq>`, `data: <event JSON>`; `event: end` with `{ code, message }` when the key is no longer valid, and the stream ends.',
    errors: ['NOT_FOUND'],
  })
  async streamMany(@Query() query: TablesEventsQuery, @CurrentActor() actor: Actor, @Req() req: Request, @Res() res: Response): Promise<void> {
    const tableIds = [...new Set(query.tables.toLowerCase().split(','))];
    for (const id of tableIds) {
      assertTableAccess(actor, id);
      await this.pit.withProperty(id);
    }
    const heads = await this.feeds.heads(tableIds);
    const starts = tableIds.map((stream): StreamStart => ({ stream, after: heads.get(stream) ?? 0, head: heads.get(stream) ?? 0 }));
    new TableEventStream(this.feeds, res, starts, keyOf(actor, req)).start({ tables: starts });
  }
}

/** The caller and the key they opened the stream with (the guard has accepted it), by its SHA-256 as api_keys keeps it. */
function keyOf(actor: Actor, req: Request): { actor: Actor; keyHash: string } {
  const secret = BEARER.exec(req.header('authorization') ?? '')?.[1] ?? '';
  return { actor, keyHash: hash(secret).toString('hex') };
}

/**
 * Where a table's stream starts: after the seq its Last-Event-ID names, or from now without one. An
 * id past the table's last event (a client that saw events of a database since restored to an earlier
 * point) starts from now too: waiting for the table to pass it would leave the screen frozen.
 */
function startAfter(tableId: string, header: string | undefined, head: number): number {
  return Math.min(resumeFrom(tableId, header) ?? head, head);
}

/** The seq a Last-Event-ID names, or null without one. */
function resumeFrom(tableId: string, header: string | undefined): number | null {
  if (header === undefined || header.trim() === '') return null;
  const m = LAST_EVENT_ID.exec(header.trim());
  if (!m || (m[1] !== undefined && m[1] !== tableId))
    throw new AppError('VALIDATION_FAILED', `Last-Event-ID must be an event id of this table ("${tableId}:<seq>") or a seq, got "${header.slice(0, 64)}"`);
  return Number(m[2]);
}
