import { DomainError } from '../errors';

/**
 * Whose a wager is (docs/domain.md §10). A patron's card is in at a table and seat (a seating)
 * until it comes out; while it is in, a wager on that seat is theirs without the terminal naming
 * them. Several patrons on one seat (back-betting) and one patron on several seats are both real.
 */

/** A seating open at the table now. */
export interface OpenSeating {
  readonly id: string;
  readonly patronId: string;
  readonly seat: number;
}

/** Whose a wager is, and the visit it was played in (null: none). */
export interface Attribution {
  readonly patronId: string | null;
  readonly seatingId: string | null;
}

/**
 * A wager on `seat`, naming `named` or no one:
 * - named: that patron's, in their seating on this seat, else their earliest open seating at the
 *   table (a patron betting on a neighbour's seat), else in no visit (a patron named without a card in);
 * - not named: the patron seated on this seat; no one's when the seat is empty; refused when
 *   several patrons share the seat (whose it is cannot be guessed).
 */
export function attributeWager(seated: readonly OpenSeating[], seat: number, named: string | null): Attribution {
  if (named !== null) {
    const mine = seated.filter((s) => s.patronId === named);
    const visit = mine.find((s) => s.seat === seat) ?? mine[0];
    return { patronId: named, seatingId: visit?.id ?? null };
  }
  const here = seated.filter((s) => s.seat === seat);
  if (here.length === 0) return { patronId: null, seatingId: null };
  if (here.length === 1) return { patronId: here[0].patronId, seatingId: here[0].id };
  throw new DomainError(
    'PATRON_REQUIRED',
    `Seat ${seat} has ${here.length} patrons seated (${here.map((s) => s.patronId).join(', ')}): name the patron whose wager this is`,
    { seat, patrons: here.map((s) => s.patronId) },
  );
}
