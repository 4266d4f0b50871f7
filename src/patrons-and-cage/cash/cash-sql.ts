import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** The cash room's named queries (cash.sql). */
export const CASH_SQL = loadQueries<{
  markersOf: { patronId: string | null; markerId: string | null };
  cashLog: { propertyId: string; from: string; to: string; lookBackDays: number };
  dropLines: { propertyId: string; from: string; to: string };
}>(path.join(__dirname, 'cash.sql'));
