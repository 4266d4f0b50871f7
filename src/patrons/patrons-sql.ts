import path from 'node:path';
import { loadQueries } from '../database/named-sql';

/** Patrons' named queries (patrons.sql). */
export const PATRONS_SQL = loadQueries<{
  ratedWagers: { card: string; from: string; to: string; propertyId: string | null };
  seatingsOf: { card: string; from: string; to: string; propertyId: string | null };
  openSeatingsOf: { card: string };
  seatingById: { id: string };
  seatingsOfTable: { tableId: string; gamingDay: string | null };
  lockPatron: { card: string };
  moveOpenShoe: { tableId: string };
}>(path.join(__dirname, 'patrons.sql'));
