import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** Who is calling (access.sql): every check of a key, with its one definition of a usable key. */
export const ACCESS_SQL = loadQueries<{
  authenticate: { keyHash: string };
  isValid: { keyId: string; keyHash: string | null };
  validHashes: { keyHashes: string[] };
  bootstrapRetired: Record<string, never>;
  administratorsWithKeys: { exceptKeyId: string | null };
}>(path.join(__dirname, 'access.sql'));
