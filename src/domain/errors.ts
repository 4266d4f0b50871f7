/**
 * Errors raised by the game engine. Each carries a stable code; the HTTP layer maps codes to
 * statuses in one table (src/platform/common/errors). Messages are written for a pit supervisor.
 */
export type DomainErrorCode =
  | 'INVALID_CARD'
  | 'MISDEAL'
  | 'CARD_NOT_IN_SHOE'
  | 'BET_NOT_OFFERED'
  | 'INVALID_RULES'
  | 'INVALID_SHOE'
  | 'SHOE_EXHAUSTED'
  | 'COUP_IN_PROGRESS'
  /** A coup sent with its number (recorded offline) that the shoe's next coup does not have. */
  | 'COUP_NUMBER_TAKEN'
  /** A coup sent later with a time it cannot have been recorded at. */
  | 'COUP_TIME_IMPOSSIBLE'
  | 'BANK_ALREADY_ACTIVE'
  | 'BANK_NOT_RETIRABLE'
  /** A request that leaves out (or adds) a term the rule needs: answered as VALIDATION_FAILED. */
  | 'INCOMPLETE'
  | 'ODDS_NOT_AVAILABLE'
  | 'INVALID_STAKES'
  | 'STAKES_EXCEED_BANK'
  | 'BANCO_CONFLICT'
  | 'STAKES_STAND'
  | 'WRONG_BANKER'
  | 'BANK_BELOW_OFFER'
  | 'BET_LIMIT'
  /** Several patrons share the seat and the wager names none of them. */
  | 'PATRON_REQUIRED'
  /** A dead-chip wager nobody's: dead chips are issued to a patron. */
  | 'DEAD_CHIPS_NEED_PATRON'
  /** A junket's marker over its credit limit. */
  | 'JUNKET_CREDIT_LIMIT'
  /** A repayment (or payout) of more than is owed. */
  | 'JUNKET_OVERPAID'
  /** A junket's period agreed before it has ended. */
  | 'JUNKET_PERIOD_OPEN'
  /** A junket's period agreed already (or a later one): what would change it is refused. */
  | 'JUNKET_PERIOD_LOCKED'
  /** Credit asked of a patron or junket with no approved credit line. */
  | 'NO_CREDIT_LINE'
  /** Credit over the approved line. */
  | 'CREDIT_LIMIT_EXCEEDED'
  /** Front money drawn beyond what is on deposit. */
  | 'FRONT_MONEY_SHORT'
  /** Dead chips drawn on a junket's markers beyond what they still cover. */
  | 'JUNKET_MARKERS_DRAWN'
  /** A programme's commission (or allowance) over the property's cap for its basis. */
  | 'COMMISSION_OVER_CAP'
  /** A programme version recorded without the approved credit request (act PROGRAMME) for it. */
  | 'PROGRAMME_NEEDS_APPROVAL'
  /** A junket's statement agreed without the approved credit request (act STATEMENT) for it. */
  | 'STATEMENT_NEEDS_APPROVAL'
  /** A record that is not what its credit request approved: another act or property, or other terms. */
  | 'NOT_AS_APPROVED'
  /** A junket's period agreed while its players would hold fewer than no dead chips at its end. */
  | 'NEGATIVE_CHIPS_IN_HAND'
  /** A programme version from a gaming day begun already: answered as VALIDATION_FAILED. */
  | 'PROGRAMME_START'
  /** A programme version not after the programme's latest: answered as CONFLICT. */
  | 'PROGRAMME_VERSION_ORDER';

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
