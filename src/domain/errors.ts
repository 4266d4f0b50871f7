/**
 * Errors raised by the game engine. Each carries a stable code; the HTTP layer maps codes to
 * statuses in one table (src/common/errors). Messages are written for a pit supervisor.
 */
export type DomainErrorCode =
  | 'INVALID_CARD'
  | 'MISDEAL'
  | 'CARD_NOT_IN_SHOE'
  | 'BET_NOT_OFFERED'
  | 'INVALID_RULES'
  | 'INVALID_SHOE'
  | 'ODDS_NOT_AVAILABLE'
  | 'INVALID_STAKES'
  | 'STAKES_EXCEED_BANK'
  | 'BANCO_CONFLICT'
  | 'STAKES_STAND'
  | 'WRONG_BANKER'
  | 'BANK_BELOW_OFFER'
  | 'BET_LIMIT';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
