import { Finding, guarded, isFinding, Queryable } from './verification';

/**
 * The ledgers against what the audit chain says was written. The chain is keyed and anchored by
 * signed checkpoints; the ledgers are plain rows. Each check compares one ledger with the audit
 * entries that wrote it, both ways: a row the chain says was written and is gone or different, and
 * a row no entry wrote. Each query returns (ref, problem) pairs; none means the ledger agrees.
 */
interface LedgerCheck {
  readonly ledger: string;
  readonly sql: string;
}

/** Audit entries of one action, with their payload's data as jsonb. */
const entries = (action: string) =>
  `(SELECT a.stream, a.seq, a.entity_id, a.key_id, (a.payload::jsonb) -> 'data' AS data FROM audit_log a WHERE a.action = '${action}')`;

/** A void ledger against its audit entries (entity: the record voided): one void row per entry, both ways. */
function voidCheck(ledger: string, column: string, action: string, what: string): LedgerCheck {
  return {
    ledger,
    sql: `
      SELECT coalesce(e.entity_id, v.${column}::text) AS ref,
             CASE WHEN v.${column} IS NULL THEN 'voided in the audit log, missing from ${ledger}' ELSE '${what} void no audit entry wrote' END AS problem
      FROM ${entries(action)} e FULL JOIN ${ledger} v ON v.${column}::text = e.entity_id
      WHERE v.${column} IS NULL OR e.entity_id IS NULL`,
  };
}

/**
 * A ledger's rows against the property they belong to: each row carries its table's property (the
 * distribution key of a group's ledger, migration 20261202090000_property_on_ledgers), and the
 * write path sets it, so a row under another property was written around the service. `owner` is
 * what the row is checked against (a table, or the shoe, coup or bank coup the row belongs to, which
 * is itself checked), `ref` what names the row.
 */
function propertyCheck(ledger: string, ref: string, owner: Owner): LedgerCheck {
  return {
    ledger,
    sql: `
      SELECT (${ref})::text AS ref, 'carries another property than its ${owner.noun}' AS problem
      FROM ${ledger} x JOIN ${owner.table} o ON o.id = x.${owner.on}
      WHERE x.property_id <> o.property_id`,
  };
}

interface Owner {
  table: string;
  on: string;
  noun: string;
}
const TABLE: Owner = { table: 'casino_tables', on: 'table_id', noun: 'table' };
const SHOE: Owner = { table: 'shoes', on: 'shoe_id', noun: 'shoe' };
const PROPERTY_CHECKS: readonly LedgerCheck[] = [
  propertyCheck('shoes', 'x.id', TABLE),
  propertyCheck('coups', 'x.id', SHOE),
  propertyCheck('wagers', 'x.id', SHOE),
  propertyCheck('commission_entries', 'x.id', SHOE),
  propertyCheck('coup_voids', 'x.coup_id', { table: 'coups', on: 'coup_id', noun: 'coup' }),
  propertyCheck('banks', 'x.id', SHOE),
  propertyCheck('bank_coups', 'x.id', SHOE),
  propertyCheck('bank_coup_voids', 'x.bank_coup_id', { table: 'bank_coups', on: 'bank_coup_id', noun: 'bank coup' }),
  propertyCheck('wager_rollups', "x.table_id || ' ' || x.gaming_day || ' ' || x.bet_type", TABLE),
  propertyCheck('month_rollups', "x.table_id || ' ' || x.month || ' ' || x.bet_type", TABLE),
  propertyCheck('table_day_rollups', "x.table_id || ' ' || x.gaming_day", TABLE),
  propertyCheck('patron_rollups', "x.patron_id || ' ' || x.table_id || ' ' || x.gaming_day", TABLE),
  propertyCheck('patron_coup_rollups', "x.patron_id || ' ' || x.table_id || ' ' || x.gaming_day", TABLE),
];

/**
 * The coup's own records, rebuilt column by column from the keyed coup.settle entry that wrote them
 * (src/integrity/audit/proof.ts): settled coups, settled wagers, tie bets carried and still waiting, and the
 * commission each settled wager accrued. Entries written before 2026-12-03 carry fewer columns
 * (no settledAt): their rows are compared on the columns those entries hold. A month detached to
 * the archive is checked by its figures instead (below), row by row again once it is attached.
 */
const settles = (detached: 'without' | 'with') => `(SELECT e.stream, e.seq, e.entity_id::uuid AS coup_id, e.key_id, e.data, e.data ? 'settledAt' AS full,
         date_trunc('month', (e.data->>'gamingDay')::date)::date IN (SELECT month FROM ledger_months_detached) AS archived
  FROM ${entries('coup.settle')} e
  ${detached === 'without' ? "WHERE date_trunc('month', (e.data->>'gamingDay')::date)::date NOT IN (SELECT month FROM ledger_months_detached)" : ''})`;
/** The coup.settle entries of the months in the ledgers (the archived months' rows are not there to compare). */
const SETTLES = settles('without');
/** Every coup.settle entry, for what outlives its month in the ledgers: commission entries, tie bets still waiting. */
const ALL_SETTLES = settles('with');

const COUP_REBUILDS: readonly LedgerCheck[] = [
  {
    ledger: 'coups',
    sql: `
      WITH s AS MATERIALIZED ${SETTLES},
      opened AS MATERIALIZED (SELECT e.entity_id::uuid AS id, (e.data->>'openedAt')::timestamptz AS opened_at FROM ${entries('coup.open')} e),
      written AS MATERIALIZED (
        SELECT s.coup_id AS id, (s.data->>'shoeId')::uuid AS shoe_id, s.stream::uuid AS table_id, (s.data->>'number')::int AS number,
               ARRAY(SELECT jsonb_array_elements_text(s.data->'cards'->'player')) AS player_cards,
               ARRAY(SELECT jsonb_array_elements_text(s.data->'cards'->'banker')) AS banker_cards,
               s.data->>'winner' AS winner, (s.data->>'playerTotal')::int AS player_total, (s.data->>'bankerTotal')::int AS banker_total,
               (s.data->>'gamingDay')::date AS gaming_day, (s.data->>'settledAt')::timestamptz AS settled_at, (s.data->>'limitsId')::uuid AS limits_id,
               coalesce(o.opened_at, (s.data->>'settledAt')::timestamptz) AS opened_at, (s.data->>'recordedOfflineAt')::timestamptz AS recorded_offline_at, s.full
        FROM s LEFT JOIN opened o ON o.id = s.coup_id)
      SELECT coalesce(w.id, c.id)::text AS ref,
             CASE WHEN c.id IS NULL THEN 'settled in the audit log, missing from coups'
                  WHEN w.id IS NULL THEN 'a settled coup no audit entry settled'
                  ELSE 'differs from what the audit log says was dealt and settled' END AS problem
      FROM written w FULL JOIN (SELECT * FROM coups WHERE status = 'SETTLED') c ON c.id = w.id
      WHERE c.id IS NULL OR w.id IS NULL
         OR (c.shoe_id, c.table_id, c.number, c.player_cards, c.banker_cards, c.winner::text, c.player_total, c.banker_total, c.gaming_day, c.limits_id, c.recorded_offline_at)
            IS DISTINCT FROM (w.shoe_id, w.table_id, w.number, w.player_cards, w.banker_cards, w.winner, w.player_total, w.banker_total, w.gaming_day, w.limits_id, w.recorded_offline_at)
         OR c.card_count IS DISTINCT FROM cardinality(c.player_cards) + cardinality(c.banker_cards)
         OR c."natural" IS DISTINCT FROM (c.card_count = 4 AND greatest(c.player_total, c.banker_total) >= 8)
         OR (w.full AND (c.settled_at, c.opened_at) IS DISTINCT FROM (w.settled_at, w.opened_at))`,
  },
  {
    ledger: 'coups',
    // The limits a coup was dealt under are its table's in force: the change named by the latest
    // keyed table.limits entry of the table's stream before the coup opened for betting (its
    // coup.open entry), else before it was settled; none before the first change (the opening
    // limits). A stream's entries are in the order of the writes to the table (a change holds the
    // table's and its shoe's locks), so a change's row forged, or a shoe pointed at another change,
    // is named by the coups dealt under it, even after the row is put back or deleted.
    sql: `
      WITH s AS MATERIALIZED ${SETTLES},
      changes AS MATERIALIZED (SELECT e.stream, e.seq, e.data->>'changeId' AS change_id FROM ${entries('table.limits')} e),
      opened AS MATERIALIZED (SELECT e.stream, e.seq, e.entity_id::uuid AS coup_id FROM ${entries('coup.open')} e)
      SELECT s.coup_id::text AS ref, 'was dealt under other limits than those in force at its table' AS problem
      FROM s LEFT JOIN opened o ON o.coup_id = s.coup_id AND o.stream = s.stream
      WHERE (s.data->>'limitsId') IS DISTINCT FROM (
        SELECT c.change_id FROM changes c WHERE c.stream = s.stream AND c.seq < coalesce(o.seq, s.seq) ORDER BY c.seq DESC LIMIT 1)`,
  },
  {
    ledger: 'wagers',
    // Every wager settled by a coup.settle entry, as settled; every settled wager, settled by one.
    sql: `
      WITH s AS MATERIALIZED ${SETTLES},
      placed AS MATERIALIZED (
        SELECT (w->>'id')::uuid AS id, coalesce(e.data->>'placedAt', e.data->>'openedAt')::timestamptz AS placed_at
        FROM audit_log a CROSS JOIN LATERAL (SELECT (a.payload::jsonb) -> 'data' AS data) e CROSS JOIN LATERAL jsonb_array_elements(e.data -> 'wagers') w
        WHERE a.action IN ('coup.open', 'coup.wagers')
      ), written AS MATERIALIZED (
        SELECT (w->>'id')::uuid AS id, s.coup_id, (s.data->>'shoeId')::uuid AS shoe_id, (w->>'seat')::int AS seat, w->>'betType' AS bet_type,
               (w->>'amount')::bigint AS amount, w->>'result' AS result, (w->>'payout')::bigint AS payout, (w->>'commission')::bigint AS commission,
               (w->>'net')::bigint AS net, w->>'patronId' AS patron_id, (w->>'seatingId')::uuid AS seating_id, (w->>'carriedFromId')::uuid AS carried_from_id,
               (s.data->>'settledAt')::timestamptz AS settled_at, (s.data->>'gamingDay')::date AS gaming_day, (w->>'dead')::bool AS dead_chips, s.full
        FROM s CROSS JOIN LATERAL jsonb_array_elements(s.data -> 'wagers') w
      ), settled AS (SELECT * FROM wagers WHERE status = 'SETTLED')
      SELECT coalesce(w.id, x.id)::text AS ref,
             CASE WHEN x.id IS NULL THEN 'settled in the audit log, missing from wagers'
                  WHEN w.id IS NULL THEN 'settled in wagers, but no audit entry settled it'
                  ELSE 'differs from what the audit log says was settled' END AS problem
      FROM written w FULL JOIN settled x ON x.id = w.id
      LEFT JOIN placed p ON p.id = x.id
      LEFT JOIN wagers origin ON x.carried_from_id IS NOT NULL AND origin.id = x.carried_from_id
      LEFT JOIN coups oc ON oc.id = origin.coup_id
      WHERE x.id IS NULL OR w.id IS NULL
         OR (x.seat, x.bet_type::text, x.amount, x.result::text, x.payout, x.commission, x.net, x.dead_chips)
            IS DISTINCT FROM (w.seat, w.bet_type, w.amount, w.result, w.payout, w.commission, w.net, w.dead_chips)
         OR (w.full AND (
              (x.coup_id, x.shoe_id, x.patron_id, x.seating_id, x.carried_from_id, x.settled_at, x.gaming_day)
                IS DISTINCT FROM (w.coup_id, w.shoe_id, w.patron_id, w.seating_id, w.carried_from_id, w.settled_at, w.gaming_day)
              OR x.placed_at IS DISTINCT FROM coalesce(p.placed_at, oc.settled_at, w.settled_at)))`,
  },
  {
    ledger: 'wagers',
    // Tie bets carried and still waiting: each carried by the coup.settle entry of the coup it tied
    // in, as the bet it was carried from (seat, bet, amount, patron, visit), at that coup's time; on
    // the coup taking bets that last took it up (coup.open), unless that coup was cancelled.
    sql: `
      WITH s AS MATERIALIZED ${ALL_SETTLES},
      carried AS MATERIALIZED (
        SELECT c::uuid AS id, s.coup_id, (s.data->>'settledAt')::timestamptz AS at, s.full, s.archived
        FROM s CROSS JOIN LATERAL jsonb_array_elements_text(s.data -> 'carriedForward') c
      ), taken AS MATERIALIZED (
        SELECT DISTINCT ON (c::uuid) c::uuid AS id, e.entity_id::uuid AS coup_id
        FROM ${entries('coup.open')} e CROSS JOIN LATERAL jsonb_array_elements_text(e.data -> 'carried') c ORDER BY c::uuid, e.seq DESC
      )
      SELECT x.id::text AS ref,
             CASE WHEN c.id IS NULL THEN 'a waiting tie bet no coup carried' ELSE 'differs from the bet it was carried from, or from the coup that took it up' END AS problem
      FROM (SELECT * FROM wagers WHERE status = 'OPEN' AND carried_from_id IS NOT NULL) x
      LEFT JOIN carried c ON c.id = x.id
      LEFT JOIN wagers o ON o.id = x.carried_from_id
      LEFT JOIN taken t ON t.id = x.id
      LEFT JOIN coup_voids cv ON cv.coup_id = t.coup_id
      WHERE c.id IS NULL
         -- the bet it was carried from is compared while its month is in the ledgers
         OR (NOT (c.archived AND o.id IS NULL) AND (o.coup_id IS DISTINCT FROM c.coup_id
             OR (x.shoe_id, x.seat, x.bet_type, x.amount, x.patron_id, x.seating_id, x.dead_chips)
                IS DISTINCT FROM (o.shoe_id, o.seat, o.bet_type, o.amount, o.patron_id, o.seating_id, o.dead_chips)))
         OR (c.full AND x.placed_at IS DISTINCT FROM c.at)
         OR x.coup_id IS DISTINCT FROM (CASE WHEN cv.coup_id IS NULL THEN t.coup_id END)
         OR num_nonnulls(x.result, x.payout, x.commission, x.net, x.settled_at, x.gaming_day) > 0`,
  },
  {
    ledger: 'commission_entries',
    // Accruals: one per settled wager that owes commission, of that amount, against its seat and patron, as the coup wrote it.
    sql: `
      WITH s AS MATERIALIZED ${ALL_SETTLES},
      owed AS MATERIALIZED (
        SELECT (w->>'id')::uuid AS wager_id, (w->>'commission')::bigint AS amount, (w->>'seat')::int AS seat, w->>'patronId' AS patron_id,
               s.coup_id, (s.data->>'shoeId')::uuid AS shoe_id, s.stream::uuid AS table_id, s.key_id, (s.data->>'settledAt')::timestamptz AS at, s.full
        FROM s CROSS JOIN LATERAL jsonb_array_elements(s.data -> 'wagers') w
        WHERE (w->>'commission')::bigint > 0
      ), accrued AS (SELECT * FROM commission_entries WHERE kind = 'ACCRUAL')
      SELECT coalesce(o.wager_id, a.wager_id)::text AS ref,
             CASE WHEN a.id IS NULL THEN 'commission accrued in the audit log, missing from commission_entries'
                  WHEN o.wager_id IS NULL THEN 'a commission accrual no audit entry wrote'
                  ELSE 'a commission accrual differs from the audit log' END AS problem
      FROM owed o FULL JOIN accrued a ON a.wager_id = o.wager_id
      WHERE a.id IS NULL OR o.wager_id IS NULL OR a.amount <> o.amount
         OR (o.full AND ((a.id, a.seat, a.patron_id, a.coup_id, a.shoe_id, a.table_id, a.created_by_key_id, a.created_at)
                           IS DISTINCT FROM (o.wager_id, o.seat, o.patron_id, o.coup_id, o.shoe_id, o.table_id, o.key_id, o.at)
                         OR a.gaming_day IS NOT NULL))`,
  },
];

const CHECKS: readonly LedgerCheck[] = [
  ...PROPERTY_CHECKS,
  ...COUP_REBUILDS,
  {
    ledger: 'ledger_archive_steps',
    // A month detached to the archive held, when it left, the settled wagers the chain says were settled in it.
    sql: `
      WITH written AS MATERIALIZED (
        SELECT date_trunc('month', (e.data->>'gamingDay')::date)::date AS month, count(*) AS wagers, sum((w->>'amount')::bigint) AS handle
        FROM ${entries('coup.settle')} e CROSS JOIN LATERAL jsonb_array_elements(e.data -> 'wagers') w
        GROUP BY 1)
      SELECT to_char(d.month, 'YYYY-MM') AS ref, 'the month detached to the archive holds other wagers than the audit log settled in it' AS problem
      FROM ledger_months_detached d LEFT JOIN written w ON w.month = d.month
      WHERE (d.wagers, d.handle) IS DISTINCT FROM (coalesce(w.wagers, 0), coalesce(w.handle, 0))`,
  },
  {
    ledger: 'coups',
    // No key across partitions but the partition key is PostgreSQL's to keep: a coup or a wager
    // twice under one id, or two coups under one number of a shoe, would be found here.
    sql: `
      SELECT id::text AS ref, 'a coup id held twice' AS problem FROM coups GROUP BY id HAVING count(*) > 1
      UNION ALL
      SELECT shoe_id::text || ' #' || number, 'a coup number held twice on its shoe' FROM coups GROUP BY shoe_id, number HAVING count(*) > 1
      UNION ALL
      SELECT id::text, 'a wager id held twice' FROM wagers GROUP BY id HAVING count(*) > 1`,
  },
  {
    ledger: 'commission_entries',
    // Collections: one per commission.collect entry, of minus the amount collected.
    sql: `
      WITH collected AS (SELECT (e.data->>'entryId')::uuid AS id, (e.data->>'amount')::bigint AS amount, (e.data->>'seat')::int AS seat FROM ${entries('commission.collect')} e),
           rows AS (SELECT * FROM commission_entries WHERE kind = 'COLLECTION')
      SELECT coalesce(c.id, r.id)::text AS ref,
             CASE WHEN r.id IS NULL THEN 'a collection in the audit log, missing from commission_entries'
                  WHEN c.id IS NULL THEN 'a commission collection no audit entry wrote'
                  ELSE 'a commission collection differs from the audit log' END AS problem
      FROM collected c FULL JOIN rows r ON r.id = c.id
      WHERE r.id IS NULL OR c.id IS NULL OR r.amount <> -c.amount OR r.seat <> c.seat`,
  },
  {
    ledger: 'commission_entries',
    // Reversals: exactly the accruals of voided coups, negated.
    sql: `
      WITH due AS (SELECT a.coup_id, -sum(a.amount) AS amount FROM commission_entries a JOIN coup_voids v ON v.coup_id = a.coup_id WHERE a.kind = 'ACCRUAL' GROUP BY a.coup_id),
           done AS (SELECT coup_id, sum(amount) AS amount FROM commission_entries WHERE kind = 'VOID' GROUP BY coup_id)
      SELECT coalesce(due.coup_id, done.coup_id)::text AS ref, 'the commission reversed for a voided coup does not match what it accrued' AS problem
      FROM due FULL JOIN done ON done.coup_id = due.coup_id
      WHERE due.amount IS DISTINCT FROM done.amount`,
  },
  {
    ledger: 'bank_coups',
    // Every player-banked coup as the bank.coup entry settled it: the bank, what was covered, the house's commission.
    sql: `
      WITH written AS MATERIALIZED (
        SELECT (e.data->>'id')::uuid AS id, (e.data->>'bankBefore')::bigint AS bank_before, (e.data->>'covered')::bigint AS covered,
               (e.data->>'commission')::bigint AS commission, (e.data->>'bankAfter')::bigint AS bank_after
        FROM ${entries('bank.coup')} e)
      SELECT coalesce(w.id, b.id)::text AS ref,
             CASE WHEN b.id IS NULL THEN 'played in the audit log, missing from bank_coups'
                  WHEN w.id IS NULL THEN 'a bank coup no audit entry wrote'
                  ELSE 'differs from what the audit log says was played' END AS problem
      FROM written w FULL JOIN bank_coups b ON b.id = w.id
      WHERE b.id IS NULL OR w.id IS NULL OR (b.bank_before, b.covered, b.commission, b.bank_after) IS DISTINCT FROM (w.bank_before, w.covered, w.commission, w.bank_after)`,
  },
  voidCheck('coup_voids', 'coup_id', 'coup.void', 'a coup'),
  voidCheck('slip_voids', 'slip_id', 'slip.void', 'a slip'),
  voidCheck('buy_in_voids', 'buy_in_id', 'buyIn.void', 'a buy-in'),
  {
    ledger: 'bank_coup_voids',
    sql: `
      SELECT coalesce(e.data->>'bankCoupId', v.bank_coup_id::text) AS ref,
             CASE WHEN v.bank_coup_id IS NULL THEN 'voided in the audit log, missing from bank_coup_voids' ELSE 'a bank coup void no audit entry wrote' END AS problem
      FROM ${entries('bank.coup.void')} e FULL JOIN bank_coup_voids v ON v.bank_coup_id::text = e.data->>'bankCoupId'
      WHERE v.bank_coup_id IS NULL OR e.data IS NULL`,
  },
  {
    ledger: 'void_requests',
    // Who asked, and who decided, as the audit log recorded them.
    sql: `
      WITH asked AS (SELECT (e.data->>'voidRequestId')::uuid AS id, e.key_id FROM ${entries('void.request')} e),
           decided AS (
             SELECT (e.data->>'voidRequestId')::uuid AS id, e.key_id, 'APPROVED' AS status FROM ${entries('void.approve')} e
             UNION ALL SELECT (e.data->>'voidRequestId')::uuid, e.key_id, 'REJECTED' FROM ${entries('void.reject')} e)
      SELECT coalesce(a.id, r.id)::text AS ref,
             CASE WHEN r.id IS NULL THEN 'asked for in the audit log, missing from void_requests'
                  WHEN a.id IS NULL THEN 'a void request no audit entry wrote'
                  WHEN r.requested_by_key_id <> a.key_id THEN 'who asked for the void differs from the audit log'
                  ELSE 'the decision differs from the audit log' END AS problem
      FROM asked a FULL JOIN void_requests r ON r.id = a.id LEFT JOIN decided d ON d.id = coalesce(a.id, r.id)
      WHERE r.id IS NULL OR a.id IS NULL OR r.requested_by_key_id <> a.key_id
         OR r.status::text IS DISTINCT FROM coalesce(d.status, 'PENDING')
         OR (d.id IS NOT NULL AND r.decided_by_key_id IS NOT NULL AND r.decided_by_key_id <> d.key_id)`,
  },
  {
    ledger: 'api_keys',
    // A key's role, table and revocation, as the admin stream recorded them.
    sql: `
      WITH created AS (SELECT e.entity_id AS id, e.data->>'role' AS role, e.data->>'tableId' AS table_id, e.data->>'staffId' AS staff_id FROM ${entries('apiKey.create')} e),
           revoked AS (SELECT DISTINCT e.entity_id AS id FROM ${entries('apiKey.revoke')} e)
      SELECT coalesce(c.id, k.id::text) AS ref,
             CASE WHEN k.id IS NULL THEN 'created in the audit log, missing from api_keys'
                  WHEN c.id IS NULL THEN 'a key no audit entry created'
                  WHEN k.role::text <> c.role OR k.table_id::text IS DISTINCT FROM c.table_id OR k.staff_id IS DISTINCT FROM c.staff_id THEN 'its role, table or owner differs from the audit log'
                  ELSE 'its revocation differs from the audit log' END AS problem
      FROM created c FULL JOIN api_keys k ON k.id::text = c.id LEFT JOIN revoked r ON r.id = coalesce(c.id, k.id::text)
      WHERE k.id IS NULL OR c.id IS NULL OR k.role::text <> c.role OR k.table_id::text IS DISTINCT FROM c.table_id OR k.staff_id IS DISTINCT FROM c.staff_id
         OR (k.revoked_at IS NULL) <> (r.id IS NULL)`,
  },
  {
    ledger: 'staff',
    // Each person as the last approved change to their record left them (persons the register's
    // migration took from keys made before it have no entry).
    sql: `
      WITH approved AS (
        SELECT DISTINCT ON (e.entity_id) e.entity_id AS staff_id, e.data->>'name' AS name,
               ARRAY(SELECT jsonb_array_elements_text(e.data->'roles')) AS roles, (e.data->>'active')::bool AS active
        FROM ${entries('staff.approve')} e ORDER BY e.entity_id, e.seq DESC),
      kept AS (SELECT * FROM staff WHERE last_change_id NOT IN (SELECT id FROM staff_changes WHERE proposed_by_key_id = 'migration'))
      SELECT coalesce(a.staff_id, k.staff_id) AS ref,
             CASE WHEN k.staff_id IS NULL THEN 'registered in the audit log, missing from staff'
                  WHEN a.staff_id IS NULL THEN 'a person no approved change registered'
                  ELSE 'their name, roles or standing differ from the last approved change' END AS problem
      FROM approved a FULL JOIN kept k ON k.staff_id = a.staff_id
      WHERE k.staff_id IS NULL OR a.staff_id IS NULL OR (k.name, k.roles::text[], k.active) IS DISTINCT FROM (a.name, a.roles, a.active)`,
  },
  {
    ledger: 'patrons',
    // Every card registered by a patron.register entry (cards the migration took from wagers written before the register had none).
    sql: `
      WITH registered AS (SELECT e.entity_id AS card FROM ${entries('patron.register')} e),
           kept AS (SELECT card FROM patrons WHERE registered_by_key_id <> 'migration')
      SELECT coalesce(r.card, p.card) AS ref,
             CASE WHEN p.card IS NULL THEN 'registered in the audit log, missing from patrons' ELSE 'a patron no audit entry registered' END AS problem
      FROM registered r FULL JOIN kept p ON p.card = r.card
      WHERE p.card IS NULL OR r.card IS NULL`,
  },
  {
    ledger: 'seatings',
    // Who sat where, as seating.start recorded it; ended exactly when a seating.end says so.
    sql: `
      WITH started AS (SELECT e.entity_id::uuid AS id, e.data->>'patronId' AS patron_id, (e.data->>'seat')::int AS seat FROM ${entries('seating.start')} e),
           ended AS (SELECT DISTINCT e.entity_id::uuid AS id FROM ${entries('seating.end')} e)
      SELECT coalesce(st.id, s.id)::text AS ref,
             CASE WHEN s.id IS NULL THEN 'seated in the audit log, missing from seatings'
                  WHEN st.id IS NULL THEN 'a seating no audit entry recorded'
                  WHEN (s.patron_id, s.seat) IS DISTINCT FROM (st.patron_id, st.seat) THEN 'who sat where differs from the audit log'
                  ELSE 'its end differs from the audit log' END AS problem
      FROM started st FULL JOIN seatings s ON s.id = st.id LEFT JOIN ended en ON en.id = coalesce(st.id, s.id)
      WHERE s.id IS NULL OR st.id IS NULL OR (s.patron_id, s.seat) IS DISTINCT FROM (st.patron_id, st.seat) OR (s.ended_at IS NULL) <> (en.id IS NULL)`,
  },
  {
    ledger: 'buy_ins',
    sql: `
      WITH written AS MATERIALIZED (
        SELECT (e.data->>'id')::uuid AS id, e.data->>'kind' AS kind, (e.data->>'amount')::bigint AS amount, e.data->>'patronId' AS patron_id,
               (e.data->>'markerId')::uuid AS marker_id
        FROM ${entries('buyIn.record')} e)
      SELECT coalesce(w.id, b.id)::text AS ref,
             CASE WHEN b.id IS NULL THEN 'bought in in the audit log, missing from buy_ins'
                  WHEN w.id IS NULL THEN 'a buy-in no audit entry recorded'
                  ELSE 'differs from what the audit log says was bought in' END AS problem
      FROM written w FULL JOIN buy_ins b ON b.id = w.id
      WHERE b.id IS NULL OR w.id IS NULL OR (b.kind::text, b.amount, b.patron_id, b.marker_id) IS DISTINCT FROM (w.kind, w.amount, w.patron_id, w.marker_id)`,
  },
  {
    ledger: 'markers',
    // Every marker issued by a MARKER buy-in, or with dead chips bought against it, of its amount, to its patron.
    sql: `
      WITH written AS MATERIALIZED (
        SELECT (e.data->>'markerId')::uuid AS id, (e.data->>'amount')::bigint AS amount, e.data->>'patronId' AS patron_id
        FROM ${entries('buyIn.record')} e WHERE e.data->>'kind' = 'MARKER'
        UNION ALL
        SELECT (e.data->>'markerId')::uuid, (e.data->>'amount')::bigint, e.data->>'patronId'
        FROM ${entries('chips.exchange')} e WHERE e.data->>'markerId' IS NOT NULL)
      SELECT coalesce(w.id, m.id)::text AS ref,
             CASE WHEN m.id IS NULL THEN 'issued in the audit log, missing from markers'
                  WHEN w.id IS NULL THEN 'a marker no audit entry issued'
                  ELSE 'differs from what the audit log says was issued' END AS problem
      FROM written w FULL JOIN markers m ON m.id = w.id
      WHERE m.id IS NULL OR w.id IS NULL OR (m.amount, m.patron_id) IS DISTINCT FROM (w.amount, w.patron_id)`,
  },
  {
    ledger: 'marker_payments',
    sql: `
      WITH written AS MATERIALIZED (
        SELECT (e.data->>'paymentId')::uuid AS id, e.entity_id::uuid AS marker_id, (e.data->>'amount')::bigint AS amount, e.data->>'method' AS method
        FROM ${entries('marker.payment')} e)
      SELECT coalesce(w.id, p.id)::text AS ref,
             CASE WHEN p.id IS NULL THEN 'paid in the audit log, missing from marker_payments'
                  WHEN w.id IS NULL THEN 'a marker payment no audit entry recorded'
                  ELSE 'differs from what the audit log says was paid' END AS problem
      FROM written w FULL JOIN marker_payments p ON p.id = w.id
      WHERE p.id IS NULL OR w.id IS NULL OR (p.marker_id, p.amount, p.method) IS DISTINCT FROM (w.marker_id, w.amount, w.method)`,
  },
  {
    ledger: 'cash_transactions',
    // The cash log: each cash buy-in, each cash marker payment and each cage transaction, as recorded.
    sql: `
      WITH written AS MATERIALIZED (
        SELECT 'buy-in ' || (e.data->>'id') AS source, 'IN' AS direction, 'BUY_IN' AS kind, (e.data->>'amount')::bigint AS amount, e.data->>'patronId' AS patron_id
        FROM ${entries('buyIn.record')} e WHERE e.data->>'kind' = 'CASH'
        UNION ALL
        SELECT 'marker payment ' || (e.data->>'paymentId'), 'IN', 'MARKER_PAYMENT', (e.data->>'amount')::bigint, e.data->>'patronId'
        FROM ${entries('marker.payment')} e WHERE e.data->>'method' = 'CASH'
        UNION ALL
        SELECT 'cage ' || e.entity_id, e.data->>'direction', e.data->>'kind', (e.data->>'amount')::bigint, e.data->>'patronId' FROM ${entries('cash.record')} e
      ), kept AS (
        SELECT CASE WHEN c.buy_in_id IS NOT NULL THEN 'buy-in ' || c.buy_in_id WHEN c.marker_payment_id IS NOT NULL THEN 'marker payment ' || c.marker_payment_id
                    ELSE 'cage ' || c.id END AS source,
               c.direction::text AS direction, c.kind::text AS kind, c.amount, c.patron_id
        FROM cash_transactions c)
      SELECT coalesce(w.source, k.source) AS ref,
             CASE WHEN k.source IS NULL THEN 'recorded in the audit log, missing from cash_transactions'
                  WHEN w.source IS NULL THEN 'a cash transaction no audit entry recorded'
                  ELSE 'differs from what the audit log says was recorded' END AS problem
      FROM written w FULL JOIN kept k ON k.source = w.source
      WHERE k.source IS NULL OR w.source IS NULL OR (k.direction, k.kind, k.amount, k.patron_id) IS DISTINCT FROM (w.direction, w.kind, w.amount, w.patron_id)`,
  },
];

/** Every disagreement between a ledger and the audit log (the first few of each check). */
export async function checkLedgers(db: Queryable, perCheck = 5): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const c of CHECKS) {
    const found = await guarded(db, c.ledger, () =>
      db.query<{ ref: string; problem: string }>(`SELECT ref, problem FROM (${c.sql}) found ORDER BY ref LIMIT ${perCheck}`),
    );
    if (isFinding(found)) out.push(found);
    else for (const r of found.rows) out.push({ stream: null, seq: null, id: r.ref, reason: `${c.ledger} ${r.ref}: ${r.problem}` });
  }
  return out;
}
