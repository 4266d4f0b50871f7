-- Least privilege. Migrations run as the database's owner; the service runs as a login role that
-- is a member of sabot_app, which may read everything, only append to the ledgers, change only the
-- state that legitimately changes, and owns nothing: no TRUNCATE, no DDL, no trigger control
-- (ALTER TABLE ... DISABLE TRIGGER needs the owner; session_replication_role needs a superuser).
-- Roles belong to the whole cluster: created once, whichever database migrates first.
DO $$ BEGIN
  CREATE ROLE sabot_app NOLOGIN;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;

GRANT USAGE ON SCHEMA public TO sabot_app;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO sabot_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO sabot_app;

-- The ledgers: appended to, never changed by the service (coups and wagers move from betting to
-- settled once, which their triggers enforce; every other change to them is refused there).
GRANT INSERT ON coups, wagers, coup_voids, commission_entries, table_slips, slip_voids, bank_coups, bank_coup_voids,
  void_requests, audit_log, audit_checkpoints, api_keys, properties, casino_tables, shoes, banks, table_sessions TO sabot_app;
GRANT UPDATE ON coups, wagers TO sabot_app;

-- State that changes: a void request is decided once, a key revoked once, tables and shoes open
-- and close, banks move coup by coup, counters and heads advance, rollups accumulate.
GRANT UPDATE (status, decided_by_key_id, decided_at, decision_note) ON void_requests TO sabot_app;
GRANT UPDATE (revoked_at) ON api_keys TO sabot_app;
GRANT UPDATE ON casino_tables, shoes, banks, table_sessions TO sabot_app;
GRANT INSERT, UPDATE ON audit_heads, slip_counters, wager_rollups, month_rollups, table_day_rollups TO sabot_app;
GRANT INSERT, UPDATE, DELETE ON idempotency_records TO sabot_app;

-- TRUNCATE skips row triggers: refuse it on every ledger, for the owner too.
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER audit_heads_no_truncate BEFORE TRUNCATE ON "audit_heads" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER audit_checkpoints_no_truncate BEFORE TRUNCATE ON "audit_checkpoints" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER audit_unkeyed_no_truncate BEFORE TRUNCATE ON "audit_unkeyed" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER coups_no_truncate BEFORE TRUNCATE ON "coups" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER wagers_no_truncate BEFORE TRUNCATE ON "wagers" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER coup_voids_no_truncate BEFORE TRUNCATE ON "coup_voids" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER commission_entries_no_truncate BEFORE TRUNCATE ON "commission_entries" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER table_slips_no_truncate BEFORE TRUNCATE ON "table_slips" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER slip_voids_no_truncate BEFORE TRUNCATE ON "slip_voids" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER bank_coups_no_truncate BEFORE TRUNCATE ON "bank_coups" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER bank_coup_voids_no_truncate BEFORE TRUNCATE ON "bank_coup_voids" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER void_requests_no_truncate BEFORE TRUNCATE ON "void_requests" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER api_keys_no_truncate BEFORE TRUNCATE ON "api_keys" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();

-- The two changes the service may make to these rows happen once: a key is revoked (never
-- un-revoked), a void request is decided (never re-decided); nothing else about them changes.
CREATE FUNCTION sabot_key_revoked_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.revoked_at IS NOT NULL OR NEW.revoked_at IS NULL
     OR (to_jsonb(NEW) - 'revoked_at') IS DISTINCT FROM (to_jsonb(OLD) - 'revoked_at') THEN
    RAISE EXCEPTION 'sabot: an API key is only ever revoked, once; nothing else about it changes' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER api_keys_revoked_once BEFORE UPDATE ON "api_keys" FOR EACH ROW EXECUTE FUNCTION sabot_key_revoked_once();
CREATE TRIGGER api_keys_never_deleted BEFORE DELETE ON "api_keys" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();

CREATE FUNCTION sabot_void_decided_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'PENDING' OR NEW.status = 'PENDING'
     OR (to_jsonb(NEW) - ARRAY['status', 'decided_by_key_id', 'decided_at', 'decision_note']) IS DISTINCT FROM (to_jsonb(OLD) - ARRAY['status', 'decided_by_key_id', 'decided_at', 'decision_note']) THEN
    RAISE EXCEPTION 'sabot: a void request is decided once; who asked, when and why never change' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER void_requests_decided_once BEFORE UPDATE ON "void_requests" FOR EACH ROW EXECUTE FUNCTION sabot_void_decided_once();
CREATE TRIGGER void_requests_never_deleted BEFORE DELETE ON "void_requests" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
