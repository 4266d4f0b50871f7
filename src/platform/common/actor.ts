import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { AppError } from './errors';
import { Role } from '../../generated/prisma/enums';

export { Role };

/** Who is calling: the API key's id, its role, and the one table a terminal's or a display's key is bound to. */
export interface Actor {
  readonly keyId: string;
  readonly role: Role;
  readonly tableId: string | null;
  /**
   * The key was recognised from the service's memory of keys it recently checked, not looked up
   * for this request: the route's write must confirm the key is still valid (KeyConfirmedByWrite).
   */
  readonly unconfirmed?: true;
  /** The SHA-256 (hex) of the secret the key was recognised by: a write confirming the key checks it is still that one. */
  readonly keyHash?: string;
}

export const ROLES_KEY = 'sabot:roles';
export const PUBLIC_KEY = 'sabot:public';

/** Role groups used by the routes. Supervisors can do everything a terminal can. */
export const RECORDERS: Role[] = ['TERMINAL', 'SUPERVISOR'];
export const SUPERVISORS: Role[] = ['SUPERVISOR'];
export const ADMINS: Role[] = ['ADMIN'];
/** Every staff role and the terminals; not DISPLAY, a public screen's key, which reads only its table's display. */
export const EVERYONE: Role[] = ['TERMINAL', 'SUPERVISOR', 'FINANCE', 'AUDITOR', 'ADMIN', 'SURVEILLANCE', 'HOST', 'COMPLIANCE', 'CASHIER', 'CASINO_MANAGER'];
/** Who reads a table's display board and its change stream: everyone who reads tables, and the table's own display. */
export const DISPLAY_READERS: Role[] = [...EVERYONE, 'DISPLAY'];
/** The keys bound to one table (tableId required, no person): a terminal's and a display's. */
export const TABLE_ROLES: Role[] = ['TERMINAL', 'DISPLAY', 'DEVICE'];
/** Who registers patrons (the player's club desk, a pit supervisor carding a new player). */
export const PATRON_REGISTRARS: Role[] = ['HOST', 'SUPERVISOR'];
/** Who reads a patron's record and rating; every read is in the audit chain. */
export const PATRON_READERS: Role[] = ['HOST', 'SUPERVISOR', 'AUDITOR', 'COMPLIANCE'];
/** Who takes money at the cage (marker payments, chips cashed, front money); a supervisor may record a marker payment too. */
export const CASHIERS: Role[] = ['CASHIER', 'SUPERVISOR'];
/** Who reads a patron's markers (audited like every read of a patron's record). */
export const MARKER_READERS: Role[] = ['CASHIER', 'COMPLIANCE', 'HOST', 'SUPERVISOR', 'AUDITOR'];
/** Who reads the cash reports (the multiple-transaction log, report candidates, structuring). */
export const CASH_REPORT_READERS: Role[] = ['COMPLIANCE', 'AUDITOR'];
/** Who reads a patron's rolling-chip account: the host and the VIP room, the cage, finance, compliance and the auditors. */
export const ROLLING_READERS: Role[] = ['HOST', 'SUPERVISOR', 'CASHIER', 'FINANCE', 'COMPLIANCE', 'AUDITOR'];
/** Who reads the drop reconciliation. */
export const DROP_READERS: Role[] = ['FINANCE', 'AUDITOR', 'SUPERVISOR', 'COMPLIANCE'];
/** Who decides credit acts (a line, a write-off, the policy, a repayment over the threshold): the credit department and the casino manager. */
export const CREDIT_OFFICERS: Role[] = ['FINANCE', 'CASINO_MANAGER'];
/** Who requests credit acts: the credit officers, and the cage (a repayment over the threshold). */
export const CREDIT_REQUESTERS: Role[] = [...CREDIT_OFFICERS, 'CASHIER'];
/** Who reads credit: lines, requests, the policy, the markers' ageing. */
export const CREDIT_READERS: Role[] = [...CREDIT_REQUESTERS, 'AUDITOR', 'COMPLIANCE'];
export const TABLE_MANAGERS: Role[] = ['SUPERVISOR', 'ADMIN'];
/** Who reads the figures finance reports: reports, exchange rates, a group's links. */
export const FIGURE_READERS: Role[] = ['FINANCE', 'AUDITOR', 'ADMIN', 'SUPERVISOR'];

export const Public = () => SetMetadata(PUBLIC_KEY, true);

export const KEY_CONFIRMED_BY_WRITE = 'sabot:key-confirmed-by-write';
/**
 * For a write whose single statement itself checks that the caller's key is still valid: the
 * guard may then recognise the key from memory instead of asking the database first. A revoked or
 * expired key still changes nothing, because the write refuses it atomically.
 */
export const KeyConfirmedByWrite = () => SetMetadata(KEY_CONFIRMED_BY_WRITE, true);

/** The authenticated caller, as set by the ApiKeyGuard. */
export const CurrentActor = createParamDecorator((_data: unknown, ctx: ExecutionContext): Actor => {
  const actor = ctx.switchToHttp().getRequest<{ actor?: Actor }>().actor;
  if (!actor) throw new AppError('UNAUTHENTICATED', 'A valid API key is required: Authorization: Bearer <key>');
  return actor;
});

/** Object-level check: a terminal's or a display's key acts only on its own table. */
export function assertTableAccess(actor: Actor, tableId: string): void {
  if (actor.tableId !== null && actor.tableId !== tableId) {
    throw new AppError(
      'FORBIDDEN',
      `This ${actor.role === 'DISPLAY' ? "display's" : actor.role === 'DEVICE' ? "device's" : "terminal's"} key is bound to another table`,
    );
  }
}
