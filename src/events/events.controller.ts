import { Controller, Headers, Res } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Actor, assertTableAccess, CurrentActor, EVERYONE } from '../common/actor';
import { Endpoint } from '../common/endpoint';
import { AppError } from '../common/errors';
import { IdParam } from '../common/validation';
import { PitService } from '../pit/pit.service';
import { TableEventStream } from './table-event-stream';
import { TableFeeds } from './table-feeds';

const LAST_EVENT_ID = /^(?:([0-9a-f-]{36}):)?(\d{1,15})$/;

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
      'A comment line every 15 s keeps the connection open. Any instance of the service answers: the events come from the stream, and what a connection missed is read from the audit log.',
    roles: EVERYONE,
    eventStream:
      'A stream of Server-Sent Events (`text/event-stream`): `event: ready` with `{ stream, after, head }`, then one `message` per event, `id: <tableId>:<seq>`, `data: <event JSON>`.',
    errors: ['NOT_FOUND'],
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'Resume after this event: its id `<tableId>:<seq>` (or the seq alone). Without it the stream starts from now.',
    schema: { type: 'string', maxLength: 64 },
  })
  async stream(
    @IdParam() tableId: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @CurrentActor() actor: Actor,
    @Res() res: Response,
  ): Promise<void> {
    assertTableAccess(actor, tableId);
    await this.pit.withProperty(tableId);
    const after = resumeFrom(tableId, lastEventId);
    const head = await this.feeds.head(tableId);
    new TableEventStream(this.feeds, res, tableId, after ?? head).start(head);
  }
}

/** The seq a Last-Event-ID names, or null without one. */
function resumeFrom(tableId: string, header: string | undefined): number | null {
  if (header === undefined || header.trim() === '') return null;
  const m = LAST_EVENT_ID.exec(header.trim());
  if (!m || (m[1] !== undefined && m[1] !== tableId))
    throw new AppError('VALIDATION_FAILED', `Last-Event-ID must be an event id of this table ("${tableId}:<seq>") or a seq, got "${header.slice(0, 64)}"`);
  return Number(m[2]);
}
