import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** Dealer rotations' named queries (dealers.sql). */
export const DEALERS_SQL = loadQueries<{
  shiftsOfTable: { tableId: string };
  dealingNow: { tableId: string };
}>(path.join(__dirname, 'dealers.sql'));
