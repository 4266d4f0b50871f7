import { DomainError } from '../errors';
import { creditRequestStatus } from './credit';

/**
 * Acts a room records quoting the credit request approved for them (docs/domain/credit.md): a
 * rolling-chip programme's terms (PROGRAMME), a junket's statement agreed for the casino (STATEMENT).
 * One credit officer requests the act with its terms, another approves it (a different person), and
 * the room that owns the record then records exactly those terms, once, naming the request.
 */
export type ApprovedAct = 'PROGRAMME' | 'STATEMENT';

/** A credit request on file, as the room recording its act reads it. */
export interface RequestOnFile {
  readonly id: string;
  readonly act: string;
  readonly propertyId: string;
  readonly terms: Readonly<Record<string, unknown>>;
  readonly approvalsNeeded: number;
  readonly decisions: readonly { readonly approve: boolean }[];
}

const NEEDS_APPROVAL = { PROGRAMME: 'PROGRAMME_NEEDS_APPROVAL', STATEMENT: 'STATEMENT_NEEDS_APPROVAL' } as const;
const WHAT = { PROGRAMME: "A programme's terms are", STATEMENT: "A junket's statement is" } as const;
const HOW = {
  PROGRAMME:
    'request them (a credit request, act PROGRAMME, with the version’s terms), have a second credit officer approve it, then record the version with its requestId',
  STATEMENT:
    'one credit officer requests the agreement (a credit request, act STATEMENT, with the period, the digest the junket saw and its signatory), another approves it, then it is recorded with its requestId',
} as const;

/** A term as compared: numbers and strings alike by their text, a missing one as empty (terms hold no other kind). */
const text = (v: unknown) =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? v.toString() : v === undefined || v === null ? '' : JSON.stringify(v);

/**
 * Admits a record of `act` at `propertyId` with the terms `recorded`, under the request `r` (read by
 * the id `requestId` the caller gave; null: none given): a request of that act at that property,
 * approved, whose every term is the record's. Refused otherwise, saying which: no request or one not
 * approved yet (PROGRAMME_NEEDS_APPROVAL, STATEMENT_NEEDS_APPROVAL), another act or property, or
 * other terms (NOT_AS_APPROVED).
 */
export function admitAsApproved(
  act: ApprovedAct,
  requestId: string | null,
  r: RequestOnFile | null,
  propertyId: string,
  recorded: Readonly<Record<string, string | number>>,
): void {
  if (requestId === null || r === null) throw new DomainError(NEEDS_APPROVAL[act], `${WHAT[act]} recorded for the casino by two persons: ${HOW[act]}`);
  if (r.act !== act || r.propertyId !== propertyId)
    throw new DomainError(
      'NOT_AS_APPROVED',
      `Credit request ${r.id} is ${r.act === act ? `a ${act} request of another property` : `a ${r.act} request, not a ${act} request`}: ${HOW[act]}`,
      { requestId: r.id, act: r.act },
    );
  const status = creditRequestStatus(r.approvalsNeeded, r.decisions);
  if (status !== 'APPROVED')
    throw new DomainError(
      NEEDS_APPROVAL[act],
      status === 'PENDING'
        ? `Credit request ${r.id} waits for a second credit officer's approval: it is recorded once approved`
        : `Credit request ${r.id} was rejected: nothing of it is recorded; request it again`,
      { requestId: r.id, status },
    );
  const keys = [...new Set([...Object.keys(r.terms), ...Object.keys(recorded)])].sort();
  const differ = keys.filter((k) => text(r.terms[k]) !== text(recorded[k]));
  if (differ.length > 0)
    throw new DomainError(
      'NOT_AS_APPROVED',
      `This is not what credit request ${r.id} approved: ${differ.map((k) => `${k} ${JSON.stringify(text(r.terms[k]))} was approved, not ${JSON.stringify(text(recorded[k]))}`).join('; ')}. Record it as approved, or request the new terms`,
      { requestId: r.id, approved: Object.fromEntries(differ.map((k) => [k, text(r.terms[k])])) },
    );
}
