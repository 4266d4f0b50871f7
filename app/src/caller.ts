import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Schemas } from './api';
import { ROLES_OF } from './generated/roles';

/** The signed-in key: its role and table (GET /v1/api-keys/me). */
export type Caller = Schemas['CallerDto'];

export const CallerContext = createContext<Caller | null>(null);
export const useCaller = (): Caller => useContext(CallerContext)!;

/** Whether the key's role may call an operation (by its operationId), as the service's OpenAPI document says (x-roles). */
export function mayCall(caller: Caller | null, operationId: string): boolean {
  return !!caller && (ROLES_OF[operationId] ?? []).includes(caller.role);
}
