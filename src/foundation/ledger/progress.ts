import { createHmac } from 'node:crypto';
import type { AuditKeyring } from '../../platform/config/keyring';

/**
 * The progress of the service's two readers of the audit log, kept as records (issue 49): the
 * surveyor (src/integrity/surveillance/) and the event relay (src/operations/events/). Each keeps a
 * cursor per stream (how far it read, how far it published); a cursor moved by hand hid a false
 * shuffle from surveillance, or kept entries from ever reaching JetStream, while every backlog
 * metric said 0. So:
 *
 * - every cursor row carries a MAC under the audit key over its table, stream and position
 *   (`cursorMac`), written only by the reader that got there: a cursor moved past entries never read
 *   has no MAC that holds, and the backlog metrics count from the last position that does;
 * - each reader records its progress under the audit key as entries of its own (`survey.pass`,
 *   `relay.progress`), which the verification compares the cursors with: a cursor moved back, or
 *   deleted, is found too;
 * - the surveyor's working copies (coup_surveillance, shoe_runs) are recorded with its progress:
 *   for each shoe, how many rows it wrote and a keyed digest of them (`RowDigest`), so that a row
 *   changed, added or deleted no longer adds up.
 */

export type CursorTable = 'surveillance_cursors' | 'event_relay_cursors';

/** The MAC of a cursor: HMAC-SHA256 under the audit key of its table, stream and position, hex. */
export function cursorMac(secret: Buffer, table: CursorTable, stream: string, seq: string): string {
  return createHmac('sha256', secret).update(`${table}\n${stream}\n${seq}`, 'utf8').digest('hex');
}

/** Whether a cursor row's MAC holds under the keyring (false: no MAC, a key not given, or a MAC that does not match). */
export function cursorHolds(
  keyring: AuditKeyring,
  table: CursorTable,
  row: { stream: string; seq: string; mac: string | null; mac_key: string | null },
): boolean {
  const secret = row.mac_key === null ? undefined : keyring.keys.get(row.mac_key);
  return secret !== undefined && row.mac !== null && cursorMac(secret, table, row.stream, row.seq) === row.mac;
}

/** The MACs of cursors moved to `seqs`, under the current key. */
export function cursorMacs(keyring: AuditKeyring, table: CursorTable, streams: readonly string[], seqs: readonly string[]): { macs: string[]; macKey: string } {
  const secret = keyring.keys.get(keyring.currentId)!;
  return { macs: streams.map((s, i) => cursorMac(secret, table, s, seqs[i])), macKey: keyring.currentId };
}

/** The surveyor's working copies whose rows are recorded per shoe. */
export type SurveyedTable = 'coup_surveillance' | 'shoe_runs';

/**
 * How a surveyed row is digested: its image as PostgreSQL renders it, in UTC and with floats written
 * exactly (the surveyor's insert returns it; the verification selects it), so both read the same text.
 * `row` is the row's record expression (`t`, or the inserted row in a RETURNING list).
 */
export const surveyedImage = (row: string) => `jsonb_strip_nulls(to_jsonb(${row}))::text`;
/** The settings an image is rendered under, local to the caller's transaction. */
export const IMAGE_SETTINGS = "SELECT set_config('TimeZone', 'UTC', true), set_config('extra_float_digits', '1', true)";

/**
 * A set of rows, digested under the audit key: how many, and the XOR of each row's HMAC of its
 * table and image. Keyed, so that nobody without the key can make another set add up to it; an XOR,
 * so that the rows of several passes add up whatever order they were written in.
 */
export class RowDigest {
  count = 0;
  private readonly acc = Buffer.alloc(32);

  constructor(
    private readonly secret: Buffer,
    private readonly table: SurveyedTable,
  ) {}

  add(image: string): void {
    const mac = createHmac('sha256', this.secret).update(`${this.table}\n${image}`, 'utf8').digest();
    for (let i = 0; i < 32; i++) this.acc[i] ^= mac[i];
    this.count++;
  }

  /** Another digest's rows added (a recorded [count, hex]). */
  merge([count, hex]: readonly [number, string]): void {
    const other = Buffer.from(hex, 'hex');
    for (let i = 0; i < 32; i++) this.acc[i] ^= other[i];
    this.count += count;
  }

  /** As recorded: [count, hex]. */
  recorded(): [number, string] {
    return [this.count, this.acc.toString('hex')];
  }

  equals(other: RowDigest): boolean {
    return this.count === other.count && this.acc.equals(other.acc);
  }
}

/** What one shoe's rows were recorded as, per working copy: [count, digest]. */
export interface ShoeRecord {
  c?: [number, string];
  r?: [number, string];
}

/**
 * The surveyor's record of one pass (action `survey.pass`, or `survey.adopt` for the state it found
 * at its first start, or `survey.reset` for a cursor it found moved): per table stream, the position
 * it read from and to; per shoe, the rows it wrote; and the audit key the rows were digested under.
 */
export interface SurveyRecord {
  readonly k: string;
  readonly read?: Record<string, [string, string]>;
  readonly shoes?: Record<string, ShoeRecord>;
  /** A cursor found without a MAC that holds (`survey.reset`): where it stood, and where it was set back to. */
  readonly reset?: Record<string, [string, string]>;
}

/** The relay's record of its progress (action `relay.progress`, `relay.adopt` at its first start, `relay.reset` for a cursor it found moved): per stream, how far it has published. */
export interface RelayRecord {
  readonly published: Record<string, string>;
  /** A cursor found without a MAC that holds (`relay.reset`): where it stood, and where it was set back to. */
  readonly reset?: Record<string, [string, string]>;
}

/** The audit streams of these records: the surveyor's is its alerts' stream; the relay's is never published. */
export const SURVEYOR_ENTITY = 'surveyor';
export const RELAY_STREAM = 'relay';
export const RELAY_ENTITY = 'relay';
