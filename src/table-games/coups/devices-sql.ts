import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** The device gateway's named queries (devices.sql). */
export const DEVICES_SQL = loadQueries<{
  ensureReading: { tableId: string; state: string };
  lockReading: { tableId: string };
  readReading: { tableId: string };
  saveReading: { tableId: string; state: string };
  lastSeq: { keyId: string };
  keptReport: { keyId: string; seq: number };
  keepReport: { id: string; keyId: string; tableId: string; seq: number | null; report: string; refused: string | null };
  hold: { id: string; tableId: string; reason: string; detail: string; reportId: string };
  holdsOf: { tableId: string };
  clearHold: { id: string; keyId: string };
  refusedOf: { tableId: string };
  openShoe: { tableId: string };
}>(path.join(__dirname, 'devices.sql'));
