import { DomainErrorCode } from '../domain';

/**
 * Every error the API returns has one of these codes. The table below is the only place codes
 * meet HTTP statuses; the global filter (error.filter.ts) applies it.
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TABLE_CLOSED: 409,
  TABLE_HAS_OPEN_SHOE: 409,
  SHOE_ALREADY_OPEN: 409,
  SHOE_CLOSED: 409,
  SHOE_EXHAUSTED: 409,
  COUP_IN_PROGRESS: 409,
  COUP_NOT_TAKING_BETS: 409,
  COUP_ALREADY_VOIDED: 409,
  WAGER_NOT_WITHDRAWABLE: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  SESSION_ALREADY_OPEN: 409,
  SESSION_CLOSED: 409,
  SLIP_ALREADY_VOIDED: 409,
  BUY_IN_ALREADY_VOIDED: 409,
  MARKER_PAID_ON: 409,
  MARKER_VOIDED: 409,
  VOID_ALREADY_REQUESTED: 409,
  VOID_REQUEST_DECIDED: 409,
  BANK_ALREADY_ACTIVE: 409,
  BANK_CLOSED: 409,
  WRONG_BANKER: 409,
  BANK_NOT_RETIRABLE: 409,
  STAKES_STAND: 409,
  VOID_NOT_LAST: 409,
  AUDIT_BROKEN: 409,
  DEALER_ALREADY_DEALING: 409,
  ALERT_ALREADY_ACKNOWLEDGED: 409,
  ALERT_CLOSED: 409,
  ALREADY_SEATED: 409,
  PATRON_SEATED_ELSEWHERE: 409,
  SEATING_ENDED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  MISDEAL: 422,
  CARD_NOT_IN_SHOE: 422,
  BET_NOT_OFFERED: 422,
  BET_LIMIT: 422,
  INVALID_RULES: 422,
  INVALID_SHOE: 422,
  ODDS_NOT_AVAILABLE: 422,
  INVALID_STAKES: 422,
  STAKES_EXCEED_BANK: 422,
  BANCO_CONFLICT: 422,
  BANK_BELOW_OFFER: 422,
  NOT_PLAYER_BANKED: 422,
  COLLECTION_EXCEEDS_OUTSTANDING: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  UNKNOWN_PATRON: 422,
  PATRON_REQUIRED: 422,
  IDENTIFICATION_REQUIRED: 422,
  MARKER_OVERPAID: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
  REPLICA_BEHIND: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** What each code means, for the API documentation: one line a pit supervisor or an auditor reads. */
export const ERROR_MEANING: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'The request is malformed: a field is missing, of the wrong kind, out of range or unknown (details lists each problem)',
  UNAUTHENTICATED: 'No API key, or one that is unknown, revoked or expired',
  FORBIDDEN: "The key's role may not do this, or a terminal key is bound to another table",
  NOT_FOUND: 'A record named in the path or the body does not exist',
  CONFLICT: 'The record already exists (a code or number must be unique)',
  TABLE_CLOSED: 'The table is closed: reopen it first',
  TABLE_HAS_OPEN_SHOE: 'The table still has an open shoe: close the shoe first',
  SHOE_ALREADY_OPEN: 'The table already has an open shoe',
  SHOE_CLOSED: 'The shoe is closed: it takes no more coups',
  SHOE_EXHAUSTED: 'The cut card came out and the last coup was dealt: the shoe is finished',
  COUP_IN_PROGRESS: 'A coup of this shoe is open for betting: record its cards first',
  COUP_NOT_TAKING_BETS: 'The coup has been dealt already',
  COUP_ALREADY_VOIDED: 'The coup was voided already',
  WAGER_NOT_WITHDRAWABLE: 'Only a tie bet carried to a coup not yet dealt may be withdrawn',
  IDEMPOTENCY_IN_PROGRESS: 'The first request with this Idempotency-Key is still running: retry after Retry-After seconds',
  SESSION_ALREADY_OPEN: 'The table already has an open session',
  SESSION_CLOSED: 'The table session is closed',
  SLIP_ALREADY_VOIDED: 'The slip was voided already',
  BUY_IN_ALREADY_VOIDED: 'The buy-in was voided already',
  MARKER_PAID_ON: 'The marker of this buy-in has been paid on: it cannot be voided',
  MARKER_VOIDED: 'The buy-in that issued this marker was voided: it takes no payment',
  VOID_ALREADY_REQUESTED: 'A void of this record is already waiting for approval',
  VOID_REQUEST_DECIDED: 'The void request was approved or rejected already',
  BANK_ALREADY_ACTIVE: 'The shoe already has an active bank: it must retire or pass first',
  BANK_CLOSED: 'The bank passed, retired, broke or closed with its shoe',
  WRONG_BANKER: 'By the rotation another seat holds the bank next (the message names it)',
  BANK_NOT_RETIRABLE: 'The banker cannot retire now (stakes stand after a tie, or no coup played yet in banque)',
  STAKES_STAND: 'After a chemin de fer tie the same stakes stand for the next coup',
  VOID_NOT_LAST: 'Only the last coup standing of a bank can be voided',
  AUDIT_BROKEN: 'The audit log does not verify: no checkpoint is signed over it (GET /v1/audit/verify says why)',
  DEALER_ALREADY_DEALING: 'The dealer named is already dealing this table',
  ALERT_ALREADY_ACKNOWLEDGED: 'Someone has acknowledged this alert already',
  ALERT_CLOSED: 'The alert is closed: nothing more can be recorded on it',
  ALREADY_SEATED: "The patron's card is in at this seat already",
  PATRON_SEATED_ELSEWHERE: "The patron's card is in at another table: take it out there first",
  SEATING_ENDED: "The patron's card came out of this seat already",
  PAYLOAD_TOO_LARGE: 'The request body is too large',
  UNSUPPORTED_MEDIA_TYPE: 'The body is not JSON (send Content-Type: application/json)',
  MISDEAL: 'The cards break the drawing rules (a third card missing or one too many)',
  CARD_NOT_IN_SHOE: 'A card is not left in the shoe (every copy of it was dealt or burned)',
  BET_NOT_OFFERED: 'The table does not offer this bet',
  BET_LIMIT: "The amount is outside the table's limits for this bet",
  INVALID_RULES: 'The table rules are inconsistent (pay tables, limits, rounding)',
  INVALID_SHOE: 'The shoe composition is not possible (decks, burns, cut card)',
  ODDS_NOT_AVAILABLE: 'Exact odds cannot be computed for this request',
  INVALID_STAKES: 'The stakes against the bank break the rules of the game (the message says which)',
  STAKES_EXCEED_BANK: 'The stakes add up to more than the bank',
  BANCO_CONFLICT: 'Two bancos, or a stake beside a banco',
  BANK_BELOW_OFFER: 'A retired chemin de fer bank is taken only at its offer or more',
  NOT_PLAYER_BANKED: 'The table deals a casino-banked game: banks belong to chemin de fer and baccarat banque',
  COLLECTION_EXCEEDS_OUTSTANDING: 'More commission collected than the seat owes',
  IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was used for a different request',
  UNKNOWN_PATRON: 'No patron is registered with this card number: register it first',
  PATRON_REQUIRED: 'Several patrons share the seat: the wager must name whose it is',
  IDENTIFICATION_REQUIRED: 'The patron must be identified: a marker, or cash from the report threshold on, needs a registered patron named',
  MARKER_OVERPAID: 'More paid than the marker still owes',
  RATE_LIMITED: 'Too many requests with this key: retry after Retry-After seconds',
  INTERNAL: 'An unexpected fault; nothing was written. Quote the correlationId',
  SERVICE_UNAVAILABLE: 'The database is not answering: retry after Retry-After seconds (nothing was written)',
  REPLICA_BEHIND:
    'The reporting replica is further behind the pit than the set bound, or not answering, and this service refuses rather than load the primary: retry after Retry-After seconds, or send X-Read-From: primary',
};

/** How the engine's error codes read on the wire. */
export const DOMAIN_ERROR_CODE: Record<DomainErrorCode, ErrorCode> = {
  INVALID_CARD: 'VALIDATION_FAILED',
  MISDEAL: 'MISDEAL',
  CARD_NOT_IN_SHOE: 'CARD_NOT_IN_SHOE',
  BET_NOT_OFFERED: 'BET_NOT_OFFERED',
  INVALID_RULES: 'INVALID_RULES',
  INVALID_SHOE: 'INVALID_SHOE',
  SHOE_EXHAUSTED: 'SHOE_EXHAUSTED',
  COUP_IN_PROGRESS: 'COUP_IN_PROGRESS',
  BANK_ALREADY_ACTIVE: 'BANK_ALREADY_ACTIVE',
  BANK_NOT_RETIRABLE: 'BANK_NOT_RETIRABLE',
  INCOMPLETE: 'VALIDATION_FAILED',
  ODDS_NOT_AVAILABLE: 'ODDS_NOT_AVAILABLE',
  INVALID_STAKES: 'INVALID_STAKES',
  STAKES_EXCEED_BANK: 'STAKES_EXCEED_BANK',
  BANCO_CONFLICT: 'BANCO_CONFLICT',
  STAKES_STAND: 'STAKES_STAND',
  WRONG_BANKER: 'WRONG_BANKER',
  BANK_BELOW_OFFER: 'BANK_BELOW_OFFER',
  BET_LIMIT: 'BET_LIMIT',
  PATRON_REQUIRED: 'PATRON_REQUIRED',
};

/** An error the service raises on purpose: a stable code and a message for a pit supervisor. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what: string, id: string) => new AppError('NOT_FOUND', `${what} ${id} does not exist`);
