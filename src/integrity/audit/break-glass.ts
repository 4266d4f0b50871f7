import { BREAK_GLASS_ACTION } from '../../domain';
import type { Queryable } from './verification';

/** One break-glass, as its keyed entry recorded it (src/integrity/staff/break-glass.ts). */
export interface BreakGlassEvent {
  readonly stream: string;
  readonly seq: number;
  readonly at: string;
  readonly staffId: string;
  readonly reason: string;
  readonly present: string[];
  readonly lost: string[];
}

/**
 * Every break-glass in the admin stream: a change to the register made with the database and the
 * audit key, outside the API, the day fewer than two administrators could act (docs/operations.md).
 * Not a problem of the records (its entries are keyed and its rows sealed), but never silent: the
 * verification lists each for the auditor. One made without the audit key is a problem like any other.
 */
export async function breakGlassEvents(db: Queryable): Promise<BreakGlassEvent[]> {
  const { rows } = await db.query<{ stream: string; seq: string; at: Date; entity_id: string; payload: string }>(
    `SELECT stream, seq::text, at, entity_id, payload FROM audit_log WHERE stream = 'admin' AND action = $1 ORDER BY audit_log.seq`,
    [BREAK_GLASS_ACTION],
  );
  return rows.map((r) => {
    let data: { reason?: unknown; present?: unknown; lost?: unknown } = {};
    try {
      data = (JSON.parse(r.payload) as { data?: typeof data }).data ?? {};
    } catch {
      // An entry that is not JSON is a problem the chain's walk reports.
    }
    const texts = (x: unknown) => (Array.isArray(x) ? x.map(String) : []);
    return {
      stream: r.stream,
      seq: Number(r.seq),
      at: r.at.toISOString(),
      staffId: r.entity_id,
      reason: typeof data.reason === 'string' ? data.reason : '',
      present: texts(data.present),
      lost: texts(data.lost),
    };
  });
}
