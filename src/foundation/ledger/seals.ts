import { createHmac } from 'node:crypto';
import type { AuditKeyring } from '../../platform/config/keyring';
import type { SqlRunner } from '../../platform/database/sql';

/**
 * Keyed seals (issue 34): every regulated record outside the coup's hot path is sealed in the
 * transaction that writes it. A seal is an HMAC-SHA256, under the audit key (kept outside the
 * database), of the row's whole image as PostgreSQL renders it (`to_jsonb`, times in UTC), bound to
 * the audit entry that wrote it; the entry's payload names every row it sealed ("seals"). So a row
 * rewritten after it was sealed no longer matches its seal; a row written around the service has
 * none; a row deleted leaves its entry naming it; and a row put back as it was before a later
 * change (with its old seal) is sealed by an older entry than the latest that names it.
 *
 * The coup's own records (coups, wagers, the commission they accrue) are not sealed: they are
 * rebuilt column by column from the coup's keyed entry instead (src/integrity/audit/ledger-checks.ts), which
 * costs the hot path nothing. src/integrity/audit/proof.ts lists how every column of every table is proven.
 */
export interface SealSpec {
  /** The row's key as text (a column, or an expression over `t`). */
  readonly key: string;
  /** Columns never in the image: a concurrency token with no meaning of its own (a shoe's version). */
  readonly omit?: readonly string[];
  /** Columns left out of the image while `openWhen` holds: the pit's running state of an open shoe. */
  readonly volatile?: readonly string[];
  readonly openWhen?: string;
  /**
   * Only the rows this holds for are sealed (over `t`): the rest of the relation is rebuilt from the
   * coup's entry instead. A row sealed before it left this class (a bet placed, then settled) keeps
   * its last seal, no longer checked.
   */
  readonly where?: string;
  /**
   * The one way a sealed row may leave the sealed class (`where`): the entries whose seal it may
   * leave (a bet placed on a coup taking bets), and what it must be after (settled). A row sealed by
   * any other entry (a bet withdrawn or returned) never leaves; one that did was changed around the
   * service, even if what it became is then rebuilt from a later entry.
   */
  readonly leaves?: { readonly after: readonly string[]; readonly as: string };
}

export const SEALED = {
  // The coup's records as the pit writes them outside the hot path: a coup opened for betting, bets
  // placed on it, bets withdrawn or returned, commission collected or reversed by a void.
  coups: { key: 't.id::text', where: "t.status = 'BETTING'", leaves: { after: ['coup.open', 'seals.adopt'], as: "t.status = 'SETTLED'" } },
  wagers: {
    key: 't.id::text',
    where: "t.status <> 'SETTLED' AND NOT (t.status = 'OPEN' AND t.carried_from_id IS NOT NULL)",
    leaves: { after: ['coup.open', 'coup.wagers', 'seals.adopt'], as: "t.status = 'SETTLED'" },
  },
  commission_entries: { key: 't.id::text', where: "t.kind <> 'ACCRUAL'" },
  properties: { key: 't.id::text' },
  casino_tables: { key: 't.id::text' },
  table_limits: { key: 't.id::text' },
  shoes: {
    key: 't.id::text',
    // An open shoe's counters move with every coup; they are sealed when it closes (and rebuilt from its coups before).
    omit: ['version'],
    volatile: ['remaining', 'cards_dealt', 'coup_count', 'open_coup_id', 'last_coup_number'],
    openWhen: "t.status = 'OPEN'",
  },
  api_keys: { key: 't.id::text' },
  staff: { key: 't.staff_id' },
  staff_changes: { key: 't.id::text' },
  key_revocations: { key: 't.id::text' },
  patrons: { key: 't.card' },
  seatings: { key: 't.id::text' },
  dealer_shifts: { key: 't.id::text' },
  exchange_rates: { key: 't.id::text' },
  pace_targets: { key: 't.id::text' },
  buy_ins: { key: 't.id::text' },
  buy_in_voids: { key: 't.id::text' },
  markers: { key: 't.id::text' },
  marker_payments: { key: 't.id::text' },
  cash_transactions: { key: 't.id::text' },
  chip_exchanges: { key: 't.id::text' },
  rolling_programmes: { key: 't.id::text' },
  junket_operators: { key: 't.id::text' },
  junket_agents: { key: 't.id::text' },
  junket_memberships: { key: 't.id::text' },
  junket_account_entries: { key: 't.id::text' },
  junket_player_credit: { key: 't.id::text' },
  junket_statements: { key: 't.id::text' },
  credit_requests: { key: 't.id::text' },
  credit_decisions: { key: 't.id::text' },
  credit_lines: { key: 't.id::text' },
  marker_write_offs: { key: 't.id::text' },
  marker_deposits: { key: 't.id::text' },
  credit_policies: { key: 't.id::text' },
  table_sessions: { key: 't.id::text' },
  table_slips: { key: 't.id::text' },
  slip_voids: { key: 't.id::text' },
  coup_voids: { key: 't.id::text' },
  banks: { key: 't.id::text' },
  bank_coups: { key: 't.id::text' },
  bank_coup_voids: { key: 't.id::text' },
  void_requests: { key: 't.id::text' },
  surveillance_alerts: { key: 't.id::text' },
  surveillance_alert_steps: { key: 't.id::text' },
  device_holds: { key: 't.id::text' },
} as const satisfies Record<string, SealSpec>;

export type SealedRelation = keyof typeof SEALED;
export const SEALED_RELATIONS = Object.keys(SEALED) as SealedRelation[];

/** A row to seal: its relation and key (as SEALED renders it). */
export interface SealRef {
  readonly relation: SealedRelation;
  readonly key: string;
}
export const seal = (relation: SealedRelation, key: string): SealRef => ({ relation, key });
/** How an entry's payload names a sealed row. */
export const refText = (r: SealRef) => `${r.relation}/${r.key}`;

/** The image the seal covers: the row as jsonb text, its running state left out while it is open. */
export function imageExpression(relation: SealedRelation): string {
  const spec: SealSpec = SEALED[relation];
  const list = (columns: readonly string[]) => `ARRAY[${columns.map((c) => `'${c}'`).join(', ')}]::text[]`;
  // NULLs are left out of the image, so that a column a later migration adds (nullable, without a
  // default, as migrations add them to sealed tables) leaves the rows sealed before it as they were.
  const row = 'jsonb_strip_nulls(to_jsonb(t))';
  const whole = spec.omit ? `(${row} - ${list(spec.omit)})` : row;
  if (!spec.volatile) return `${whole}::text`;
  return `(CASE WHEN ${spec.openWhen} THEN ${whole} - ${list(spec.volatile)} ELSE ${whole} END)::text`;
}

/**
 * The rows of one relation (those keyed `keys`, or all when null) with their images, in one
 * statement: the image's times are rendered in UTC by a setting local to that statement, whatever
 * the session's. Statement text comes from the fixed registry above; values go in as parameters.
 */
export function imagesSql(relation: SealedRelation, which: 'keys' | 'all'): string {
  const spec: SealSpec = SEALED[relation];
  const where = [...(spec.where ? [spec.where] : []), ...(which === 'keys' ? [`${spec.key} = ANY ($1::text[])`] : [])];
  return `SELECT ${spec.key} AS key, ${imageExpression(relation)} AS image
          FROM (SELECT set_config('TimeZone', 'UTC', true) AS tz) utc, LATERAL (SELECT * FROM ${relation} r WHERE utc.tz IS NOT NULL) t
          ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`;
}

/**
 * Which of `keys` name rows of the relation at all, sealed or not (for rows that left the sealed
 * class), and whether each left it the one way it may (`leaves.as`).
 */
export function existingSql(relation: SealedRelation, table: string = relation): string {
  const spec: SealSpec = SEALED[relation];
  return `SELECT ${spec.key} AS key, ${spec.leaves ? `(${spec.leaves.as})` : 'true'} AS left_as_it_may FROM ${table} t WHERE ${spec.key} = ANY ($1::text[])`;
}

/** The seal of one row's image, written by the audit entry stream#seq. */
export function sealMac(secret: Buffer, ref: SealRef, stream: string, seq: string, image: string): string {
  return createHmac('sha256', secret).update(`${ref.relation}\n${ref.key}\n${stream}\n${seq}\n${image}`, 'utf8').digest('hex');
}

/**
 * Seals `refs` as the audit entry stream#seq wrote them, in the caller's transaction (after the
 * rows were written and the entry appended): their images are read back and keyed here, outside
 * the database.
 */
export async function writeSeals(runner: SqlRunner, keyring: AuditKeyring, stream: string, seq: string, refs: readonly SealRef[]): Promise<void> {
  const secret = keyring.keys.get(keyring.currentId)!;
  const rows: { relation: string; key: string; mac: string }[] = [];
  for (const relation of [...new Set(refs.map((r) => r.relation))]) {
    const keys = refs.filter((r) => r.relation === relation).map((r) => r.key);
    const found = await runner.query<{ key: string; image: string }>({ text: imagesSql(relation, 'keys'), values: [keys] });
    for (const key of keys) {
      const row = found.find((f) => f.key === key);
      if (!row) throw new Error(`sealing ${relation}/${key}: the row is not there`);
      rows.push({ relation, key, mac: sealMac(secret, { relation, key }, stream, seq, row.image) });
    }
  }
  await runner.run({
    name: 'sabot-write-seals',
    text: `INSERT INTO row_seals (relation, row_key, stream, seq, mac, mac_key)
           SELECT u.relation, u.key, $1, $2::bigint, u.mac, $3 FROM unnest($4::text[], $5::text[], $6::text[]) AS u(relation, key, mac)
           ON CONFLICT (relation, row_key) DO UPDATE SET stream = EXCLUDED.stream, seq = EXCLUDED.seq, mac = EXCLUDED.mac, mac_key = EXCLUDED.mac_key`,
    values: [stream, seq, keyring.currentId, rows.map((r) => r.relation), rows.map((r) => r.key), rows.map((r) => r.mac)],
  });
}
