import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** Keys as administrators manage them (api-keys.sql). */
export const API_KEYS_SQL = loadQueries<{
  mint: {
    id: string;
    name: string;
    role: string;
    tableId: string | null;
    staffId: string | null;
    keyHash: string;
    keyPrefix: string;
    minter: string;
    minterHash: string | null;
    expiresAt: string | null;
  };
}>(path.join(__dirname, 'api-keys.sql'));
