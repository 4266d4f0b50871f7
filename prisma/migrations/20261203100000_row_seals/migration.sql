-- Keyed seals (issue 34, src/ledger/seals.ts): each regulated row outside the coup's hot path is
-- sealed in the transaction that writes it, by an HMAC under the audit key (never in the database)
-- of its whole image, naming the audit entry that wrote it. One seal per row: a later change
-- re-seals it, naming the later entry. The service adds and replaces seals, never removes one.
CREATE TABLE "row_seals" (
  "relation" TEXT NOT NULL,
  "row_key" TEXT NOT NULL,
  "stream" TEXT NOT NULL,
  "seq" BIGINT NOT NULL,
  "mac" TEXT NOT NULL,
  "mac_key" TEXT NOT NULL,
  CONSTRAINT "row_seals_pkey" PRIMARY KEY ("relation", "row_key")
);
CREATE TRIGGER row_seals_never_deleted BEFORE DELETE ON "row_seals" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER row_seals_no_truncate BEFORE TRUNCATE ON "row_seals" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
GRANT SELECT, INSERT, UPDATE ON "row_seals" TO sabot_app;

-- Rows recorded before the seals existed cannot be sealed by a migration (it has no audit key):
-- they are listed here once, and the verification reports them as recorded before the seals rather
-- than as written around the service. The list never changes.
CREATE TABLE "seal_baseline" (
  "relation" TEXT NOT NULL,
  "row_key" TEXT NOT NULL,
  CONSTRAINT "seal_baseline_pkey" PRIMARY KEY ("relation", "row_key")
);
INSERT INTO "seal_baseline" (relation, row_key)
SELECT 'coups', id::text FROM coups WHERE status = 'BETTING' UNION ALL
SELECT 'wagers', id::text FROM wagers WHERE status <> 'SETTLED' AND NOT (status = 'OPEN' AND carried_from_id IS NOT NULL) UNION ALL
SELECT 'commission_entries', id::text FROM commission_entries WHERE kind <> 'ACCRUAL' UNION ALL
SELECT 'properties', id::text FROM properties UNION ALL
SELECT 'casino_tables', id::text FROM casino_tables UNION ALL
SELECT 'shoes', id::text FROM shoes UNION ALL
SELECT 'api_keys', id::text FROM api_keys UNION ALL
SELECT 'staff', staff_id FROM staff UNION ALL
SELECT 'staff_changes', id::text FROM staff_changes UNION ALL
SELECT 'patrons', card FROM patrons UNION ALL
SELECT 'seatings', id::text FROM seatings UNION ALL
SELECT 'dealer_shifts', id::text FROM dealer_shifts UNION ALL
SELECT 'exchange_rates', id::text FROM exchange_rates UNION ALL
SELECT 'buy_ins', id::text FROM buy_ins UNION ALL
SELECT 'buy_in_voids', id::text FROM buy_in_voids UNION ALL
SELECT 'markers', id::text FROM markers UNION ALL
SELECT 'marker_payments', id::text FROM marker_payments UNION ALL
SELECT 'cash_transactions', id::text FROM cash_transactions UNION ALL
SELECT 'table_sessions', id::text FROM table_sessions UNION ALL
SELECT 'table_slips', id::text FROM table_slips UNION ALL
SELECT 'slip_voids', id::text FROM slip_voids UNION ALL
SELECT 'coup_voids', id::text FROM coup_voids UNION ALL
SELECT 'banks', id::text FROM banks UNION ALL
SELECT 'bank_coups', id::text FROM bank_coups UNION ALL
SELECT 'bank_coup_voids', id::text FROM bank_coup_voids UNION ALL
SELECT 'void_requests', id::text FROM void_requests UNION ALL
SELECT 'surveillance_alerts', id::text FROM surveillance_alerts UNION ALL
SELECT 'surveillance_alert_steps', id::text FROM surveillance_alert_steps;
CREATE TRIGGER seal_baseline_never_changed BEFORE INSERT OR UPDATE OR DELETE ON "seal_baseline" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER seal_baseline_no_truncate BEFORE TRUNCATE ON "seal_baseline" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
GRANT SELECT ON "seal_baseline" TO sabot_app;
