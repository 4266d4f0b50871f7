import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { Observable, tap } from 'rxjs';
import { EventRelay } from './event-relay';

/**
 * Every change is a POST, and its answer comes after its transaction committed: the relay is poked
 * then, so the change's event leaves at once rather than at the relay's next look.
 */
@Injectable()
export class WakeRelayOnWrite implements NestInterceptor {
  constructor(private readonly relay: EventRelay) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.switchToHttp().getRequest<Request>().method !== 'POST') return next.handle();
    return next.handle().pipe(tap(() => this.relay.poke()));
  }
}
