import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** The yield advisor's named queries (yield.sql). */
type Window = { propertyId: string; from: string; to: string; asOf: string };
export const YIELD_SQL = loadQueries<{
  yieldProperty: { propertyId: string };
  yieldSlots: Window;
  yieldCells: Window;
}>(path.join(__dirname, 'yield.sql'));
