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
  VOID_ALREADY_REQUESTED: 409,
  VOID_REQUEST_DECIDED: 409,
  BANK_ALREADY_ACTIVE: 409,
  BANK_CLOSED: 409,
  WRONG_BANKER: 409,
  BANK_NOT_RETIRABLE: 409,
  STAKES_STAND: 409,
  VOID_NOT_LAST: 409,
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
  NOT_PLAYER_BANKED: 422,
  COLLECTION_EXCEEDS_OUTSTANDING: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** How the engine's error codes read on the wire. */
export const DOMAIN_ERROR_CODE: Record<DomainErrorCode, ErrorCode> = {
  INVALID_CARD: 'VALIDATION_FAILED',
  MISDEAL: 'MISDEAL',
  CARD_NOT_IN_SHOE: 'CARD_NOT_IN_SHOE',
  BET_NOT_OFFERED: 'BET_NOT_OFFERED',
  INVALID_RULES: 'INVALID_RULES',
  INVALID_SHOE: 'INVALID_SHOE',
  ODDS_NOT_AVAILABLE: 'ODDS_NOT_AVAILABLE',
  INVALID_STAKES: 'INVALID_STAKES',
  STAKES_EXCEED_BANK: 'STAKES_EXCEED_BANK',
  BANCO_CONFLICT: 'BANCO_CONFLICT',
  STAKES_STAND: 'STAKES_STAND',
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
