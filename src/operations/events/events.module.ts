import { DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { PitModule } from '../../foundation/pit/pit.module';
import { EVENTS_CONFIG, EventsConfig, EventRelay } from './event-relay';
import { EventsController } from './events.controller';
import { TableFeeds } from './table-feeds';
import { WakeRelayOnWrite } from './wake-relay.interceptor';

/**
 * The event stream: every change, published to NATS JetStream from the audit log (the outbox), and
 * each table's events served live to screens as Server-Sent Events.
 */
@Module({})
export class EventsModule {
  static forRoot(config: EventsConfig): DynamicModule {
    return {
      module: EventsModule,
      imports: [PitModule],
      controllers: [EventsController],
      providers: [{ provide: EVENTS_CONFIG, useValue: config }, EventRelay, TableFeeds, { provide: APP_INTERCEPTOR, useClass: WakeRelayOnWrite }],
    };
  }
}
