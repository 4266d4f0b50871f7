/**
 * An event as published (version 1): one per audit entry, i.e. one per change the service made, in
 * the order of its stream (a table's changes, or the admin stream's). Documented per type in
 * docs/events.md. `data` is the change's record as audited: amounts there are decimal strings.
 */
export interface SabotEvent {
  /** "<stream>:<seq>": unique, and the JetStream message id (a re-published event is dropped as a duplicate). */
  readonly id: string;
  /** The audit action: coup.settle, coup.void, commission.collect, bank.coup, slip.add, … */
  readonly type: string;
  readonly version: 1;
  /** The table's id, or "admin" for keys, properties and tables themselves. */
  readonly stream: string;
  /** Position in the stream, from 1, without gaps. */
  readonly seq: number;
  readonly at: string;
  readonly actor: { readonly keyId: string; readonly role: string };
  readonly correlationId: string;
  readonly entity: { readonly type: string; readonly id: string };
  readonly data: Record<string, unknown>;
}

/** The audit entry's payload, as canonical JSON. */
interface AuditPayload {
  at: string;
  keyId: string;
  role: string;
  correlationId: string;
  action: string;
  entityType: string;
  entityId: string;
  data: Record<string, unknown>;
}

export function eventOf(stream: string, seq: string, payload: string): SabotEvent {
  const p = JSON.parse(payload) as AuditPayload;
  return {
    id: `${stream}:${seq}`,
    type: p.action,
    version: 1,
    stream,
    seq: Number(seq),
    at: p.at,
    actor: { keyId: p.keyId, role: p.role },
    correlationId: p.correlationId,
    entity: { type: p.entityType, id: p.entityId },
    data: p.data,
  };
}

/** Streams that are not a table's: keys, properties and tables themselves; surveillance's alerts; the patron register and its reads; the cage; junkets. */
const OWN_STREAMS = new Set(['admin', 'surveillance', 'patrons', 'cage', 'junkets']);

/** The subject of an event: `<prefix>.table.<tableId>.<type>`, or `<prefix>.<stream>.<type>` for the streams above. */
export function subjectOf(prefix: string, e: SabotEvent): string {
  return OWN_STREAMS.has(e.stream) ? `${prefix}.${e.stream}.${e.type}` : `${prefix}.table.${e.stream}.${e.type}`;
}
