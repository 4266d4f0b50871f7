import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fs from 'node:fs';
import path from 'node:path';
import { BetType, Card, DeviceEvent, DeviceSlot, HOLD_REASONS, HoldReason, ReadingState, SpotBet } from '../../domain';

/**
 * Sabot's device protocol (issue 51): the JSON Schema every report a device sends is checked
 * against (device-protocol.schema.json, the one source the docs and the tests read too), and the
 * judge's memory as it is kept between reports (device_readings.state).
 */
export const PROTOCOL_SCHEMA = JSON.parse(fs.readFileSync(path.join(__dirname, 'device-protocol.schema.json'), 'utf8')) as object;

const ajv = new Ajv2020({ allErrors: false, strict: true });
addFormats(ajv);
const valid = ajv.compile(PROTOCOL_SCHEMA);

/** A report as the device sent it, once the schema has taken it. */
export type DeviceReport = DeviceEvent & { readonly seq: number; readonly at?: string };

/** A report checked against the protocol: the report, or why it is not one (said to the device). */
export function checkReport(raw: unknown): { report: DeviceReport } | { problem: string; seq: number | null } {
  const seq = typeof raw === 'object' && raw !== null && Number.isSafeInteger((raw as { seq?: unknown }).seq) ? (raw as { seq: number }).seq : null;
  if (!valid(raw)) {
    const e = valid.errors?.[0];
    return { problem: `Not a report of Sabot's device protocol: ${e ? `${e.instancePath || 'the report'} ${e.message ?? ''}`.trim() : 'unreadable'}`, seq };
  }
  const r = raw as Record<string, unknown>;
  if (r.type === 'BET_DETECTED') {
    const chips = (r.chips as { serial: string; denomination: number; chipSet: string }[]).map((c) => ({ ...c, denomination: BigInt(c.denomination) }));
    return { report: { ...(r as object), chips } as unknown as DeviceReport };
  }
  return { report: r as unknown as DeviceReport };
}

/** The judge's memory as kept in JSON (amounts as decimal strings). */
interface StoredReading {
  remaining: number[] | null;
  drawn: number;
  cards: Partial<Record<DeviceSlot, Card>>;
  bets: Record<string, { seat: number; betType: BetType; amount: string; chips: { serial: string; denomination: string; chipSet: string }[] }>;
  held: { reason: HoldReason; detail: string } | null;
}

export function storeReading(s: ReadingState): StoredReading {
  const bets: StoredReading['bets'] = {};
  for (const [k, b] of Object.entries(s.bets))
    bets[k] = { seat: b.seat, betType: b.betType, amount: b.amount.toString(), chips: b.chips.map((c) => ({ ...c, denomination: c.denomination.toString() })) };
  return { remaining: s.remaining ? [...s.remaining] : null, drawn: s.drawn, cards: { ...s.cards }, bets, held: s.held };
}

export function loadReading(j: StoredReading): ReadingState {
  const bets: Record<string, SpotBet> = {};
  for (const [k, b] of Object.entries(j.bets ?? {}))
    bets[k] = { seat: b.seat, betType: b.betType, amount: BigInt(b.amount), chips: b.chips.map((c) => ({ ...c, denomination: BigInt(c.denomination) })) };
  const held = j.held && HOLD_REASONS.includes(j.held.reason) ? j.held : null;
  return { remaining: j.remaining, drawn: j.drawn ?? 0, cards: j.cards ?? {}, bets, held };
}
