import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** The staff register's SQL (staff.sql): break-glass. */
export const STAFF_SQL = loadQueries<{
  breakGlassPerson: { staffId: string };
  breakGlassKeyedEntries: Record<string, never>;
  breakGlassLostKeys: { staffIds: string[] };
  breakGlassChange: { id: string; staffId: string; name: string; roles: string[]; reason: string; by: string; note: string };
  breakGlassRegister: { staffId: string; name: string; roles: string[]; changeId: string };
  breakGlassMint: { id: string; name: string; staffId: string; keyHash: string; keyPrefix: string; by: string };
}>(path.join(__dirname, 'staff.sql'));
