import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** The open wagers' columns, one array each, as pit.sql takes them (unnest). */
export interface OpenWagerParams {
  ids: string[];
  seats: number[];
  betTypes: string[];
  amounts: string[];
  patrons: (string | null)[];
  seatings: (string | null)[];
  /** true: dead chips; null: cash chips. */
  dead: (true | null)[];
}

/** A new table's row, as pit.sql openTable takes it. */
export interface TableRowParams {
  id: string;
  propertyId: string;
  code: string;
  pit: string;
  variant: string;
  currency: string;
  minBet: string;
  maxBet: string;
  decks: number;
  commissionBps: number;
  tieBetsStay: boolean;
  sideBets: string[];
  pays: string;
  perfectPairBothPays: string | null;
  betLimits: string;
  roundingMode: string;
  roundingUnit: number;
}

/** The pit's named state changes (pit.sql), typed by their parameters. */
export const PIT_SQL = loadQueries<{
  lockTable: { tableId: string };
  lockShoe: { shoeId: string };
  readShoe: { shoeId: string };
  openTable: TableRowParams;
  closeTable: { tableId: string; keyId: string };
  reopenTable: { tableId: string };
  openShoe: {
    id: string;
    tableId: string;
    propertyId: string;
    decks: number;
    burnCards: string[];
    cutCardPosition: number | null;
    shuffleRef: string | null;
    remaining: number[];
    cardsDealt: number;
  };
  changeLimits: { id: string; tableId: string; minBet: string; maxBet: string; betLimits: string; reason: string; keyId: string };
  closeShoe: { shoeId: string; closedAt: string };
  dealShoe: { shoeId: string; remaining: number[]; cardsDealt: number; coupCount: number; lastCoupNumber: number | null };
  openCoup: { shoeId: string; propertyId: string; coupId: string; coupNumber: number; carriedIds: string[]; placedAt: string } & OpenWagerParams;
  placeWagers: { shoeId: string; propertyId: string; coupId: string; placedAt: string } & OpenWagerParams;
  withdrawWager: { shoeId: string; wagerId: string };
  cancelOpenCoup: { shoeId: string; coupId: string };
  undoSettledCoup: { shoeId: string; wagerIds: string[]; remaining: number[] | null; cardsDealt: number | null };
  seat: { id: string; patronId: string; tableId: string; seat: number; gamingDay: string; startedAt: string; keyId: string };
  unseat: { seatingId: string; keyId: string; endedAt: string };
  openShoeOf: { tableId: string };
  seatedAt: { tableId: string };
}>(path.join(__dirname, 'pit.sql'));
