import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** Patrons' named queries (patrons.sql). */
export const PATRONS_SQL = loadQueries<{
  ratedPlay: { card: string; from: string; to: string; propertyId: string | null };
  visitsPage: { card: string; from: string; to: string; propertyId: string | null; after: string | null; limit: number };
  openSeatingsOf: { card: string };
  seatingById: { id: string };
  seatingsOfTable: { tableId: string; gamingDay: string | null };
  lockPatron: { card: string };
  topPatrons: { from: string; to: string; propertyId: string | null; limit: number };
  patronsCoups: { cards: string[]; from: string; to: string; propertyId: string | null };
  patronsSeatings: { cards: string[]; from: string; to: string; propertyId: string | null };
}>(path.join(__dirname, 'patrons.sql'));
