import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

type Range = { patronId: string; from: string; to: string; propertyId: string | null };

/** The rolling room's named queries (rolling.sql). */
export const ROLLING_SQL = loadQueries<{
  exchangesOf: Range;
  deadPlayOf: Range;
  deadVarianceOf: Range & { wholePlay: string };
  exchangeList: { patronId: string; from: string; to: string; propertyId: string | null };
  deadHeld: { patronId: string; propertyId: string; currency: string };
  lockPatronChips: { patronId: string };
}>(path.join(__dirname, 'rolling.sql'));
