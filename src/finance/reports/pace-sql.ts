import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** The pace report's named queries (pace.sql). */
export const PACE_SQL = loadQueries<{
  paceFigures: {
    from: string;
    to: string;
    asOf: string;
    allowanceSeconds: number;
    propertyId: string | null;
    tableId: string | null;
    pit: string | null;
    variant: string | null;
  };
  paceTargetEntries: { propertyIds: string[] };
}>(path.join(__dirname, 'pace.sql'));
