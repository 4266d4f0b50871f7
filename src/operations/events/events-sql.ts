import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** The event relay's and the live feeds' named queries (events.sql). */
export const EVENTS_SQL = loadQueries<{
  pendingEntries: { perStream: number; batch: number };
  advanceCursors: { streams: string[]; seqs: string[]; macs: string[]; macKey: string };
  relayCursors: Record<string, never>;
  resetRelayCursor: { stream: string; seq: string; mac: string; macKey: string };
  relayAdopted: Record<string, never>;
  keyRelayCursors: { streams: string[]; macs: string[]; macKey: string };
  relayPublishedTo: { stream: string; quoted: string };
  streamHeads: { streams: string[] };
  streamEntries: { stream: string; after: string; limit: number };
}>(path.join(__dirname, 'events.sql'));
