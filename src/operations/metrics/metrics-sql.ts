import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** The scrape's named queries (metrics.sql). */
export const METRICS_SQL = loadQueries<{
  outboxBacklog: Record<string, never>;
  surveillanceBacklog: Record<string, never>;
}>(path.join(__dirname, 'metrics.sql'));
