import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PinoLogger } from 'nestjs-pino';
import type { Request } from 'express';
import { AppError } from '../../platform/common/errors';
import { AccessService } from './access.service';
import { Actor, KEY_CONFIRMED_BY_WRITE, PUBLIC_KEY, Role, ROLES_KEY } from '../../platform/common/actor';

/** Global guard: every route needs `Authorization: Bearer <key>` unless marked public; roles are checked here. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: AccessService,
    private readonly log: PinoLogger,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const req = ctx.switchToHttp().getRequest<Request & { actor?: Actor }>();
    const header = req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S{1,200})$/i.exec(header);
    if (!match) throw new AppError('UNAUTHENTICATED', 'A valid API key is required: Authorization: Bearer <key>');
    // A write that confirms the key itself may take it from memory, unless an Idempotency-Key
    // claim would be written before that write.
    const fromMemory = this.reflector.get<boolean>(KEY_CONFIRMED_BY_WRITE, ctx.getHandler()) === true && !req.header('idempotency-key');
    const actor = await this.keys.authenticate(match[1], fromMemory);
    if (!actor) throw new AppError('UNAUTHENTICATED', 'This API key is unknown, revoked or expired, or its secret was replaced when its holder claimed it');
    req.actor = actor;
    // Every later line of this request's log names the caller.
    this.log.assign({ actor: actor.keyId, role: actor.role });
    const roles = this.reflector.getAllAndOverride<Role[]>(ROLES_KEY, targets) ?? [];
    if (!roles.includes(actor.role)) {
      throw new AppError('FORBIDDEN', `A ${actor.role} key may not do this (allowed: ${roles.join(', ')})`);
    }
    return true;
  }
}
