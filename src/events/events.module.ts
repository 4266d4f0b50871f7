import { DynamicModule, Module } from '@nestjs/common';
import { EVENTS_CONFIG, EventsConfig, EventRelay } from './event-relay';

/** The event stream: every change, published to NATS JetStream from the audit log (the outbox). */
@Module({})
export class EventsModule {
  static forRoot(config: EventsConfig): DynamicModule {
    return { module: EventsModule, providers: [{ provide: EVENTS_CONFIG, useValue: config }, EventRelay] };
  }
}
