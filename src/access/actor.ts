import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { AppError } from '../common/errors';
import { Role } from '../generated/prisma/enums';

export { Role };

/** Who is calling: the API key's id, its role, and the one table a terminal key is bound to. */
export interface Actor {
  readonly keyId: string;
  readonly role: Role;
  readonly tableId: string | null;
}

export const ROLES_KEY = 'sabot:roles';
export const PUBLIC_KEY = 'sabot:public';

/** Role groups used by the routes. Supervisors can do everything a terminal can. */
export const RECORDERS: Role[] = ['TERMINAL', 'SUPERVISOR'];
export const SUPERVISORS: Role[] = ['SUPERVISOR'];
export const ADMINS: Role[] = ['ADMIN'];
export const EVERYONE: Role[] = ['TERMINAL', 'SUPERVISOR', 'FINANCE', 'AUDITOR', 'ADMIN'];
export const TABLE_MANAGERS: Role[] = ['SUPERVISOR', 'ADMIN'];

export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** The authenticated caller, as set by the ApiKeyGuard. */
export const CurrentActor = createParamDecorator((_data: unknown, ctx: ExecutionContext): Actor => {
  const actor = (ctx.switchToHttp().getRequest() as { actor?: Actor }).actor;
  if (!actor) throw new AppError('UNAUTHENTICATED', 'A valid API key is required: Authorization: Bearer <key>');
  return actor;
});

/** Object-level check: a terminal key acts only on its own table. */
export function assertTableAccess(actor: Actor, tableId: string): void {
  if (actor.tableId !== null && actor.tableId !== tableId) {
    throw new AppError('FORBIDDEN', "This terminal's key is bound to another table");
  }
}
