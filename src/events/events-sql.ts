import path from 'node:path';
import { loadQueries } from '../database/named-sql';

/** The event relay's named queries (events.sql). */
export const EVENTS_SQL = loadQueries<{
  pendingEntries: { perStream: number; batch: number };
  advanceCursors: { streams: string[]; seqs: string[] };
}>(path.join(__dirname, 'events.sql'));
