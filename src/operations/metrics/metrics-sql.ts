import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** The scrape's named queries (metrics.sql). */
export const METRICS_SQL = loadQueries<{
  outboxCursors: Record<string, never>;
  surveillanceCursors: Record<string, never>;
  keyedPublishedTo: { stream: string; quoted: string };
  keyedSurveyedTo: { stream: string; quoted: string };
  oldestAfter: { streams: string[]; seqs: string[] };
}>(path.join(__dirname, 'metrics.sql'));
