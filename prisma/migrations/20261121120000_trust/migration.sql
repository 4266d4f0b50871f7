-- Trust: two-person voids, an append-only hash-chained audit log, and history the database itself
-- refuses to rewrite.

CREATE TYPE "VoidTarget" AS ENUM ('COUP', 'SLIP');
CREATE TYPE "VoidRequestStatus" AS ENUM ('PENDING', 'APPROVED', 'REJECTED');

CREATE TABLE "void_requests" (
    "id" UUID NOT NULL,
    "target" "VoidTarget" NOT NULL,
    "target_id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "status" "VoidRequestStatus" NOT NULL DEFAULT 'PENDING',
    "requested_by_key_id" TEXT NOT NULL,
    "requested_by_role" "Role" NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_by_key_id" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "decision_note" TEXT,
    CONSTRAINT "void_requests_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "void_requests_two_people" CHECK ("decided_by_key_id" IS NULL OR "decided_by_key_id" <> "requested_by_key_id")
);
-- At most one pending request per coup or slip.
CREATE UNIQUE INDEX "void_requests_one_pending" ON "void_requests"("target", "target_id") WHERE "status" = 'PENDING';
CREATE INDEX "void_requests_status_idx" ON "void_requests"("status", "requested_at");

ALTER TABLE "coup_voids" ADD COLUMN "approved_by_key_id" TEXT;
ALTER TABLE "coup_voids" ADD COLUMN "void_request_id" UUID;
ALTER TABLE "slip_voids" ADD COLUMN "approved_by_key_id" TEXT;
ALTER TABLE "slip_voids" ADD COLUMN "void_request_id" UUID;

-- The audit log: one hash chain per stream (a table's id, or 'admin'), so writes on different
-- tables never wait for each other. hash(n) = sha256(hash(n-1) || payload(n)), hex.
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "stream" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "key_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "entity_type" TEXT NOT NULL,
    "entity_id" TEXT NOT NULL,
    "correlation_id" TEXT NOT NULL,
    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "audit_log_stream_seq_key" ON "audit_log"("stream", "seq");
CREATE INDEX "audit_log_at_idx" ON "audit_log"("at");
CREATE INDEX "audit_log_entity_idx" ON "audit_log"("entity_type", "entity_id");

CREATE TABLE "audit_heads" (
    "stream" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    CONSTRAINT "audit_heads_pkey" PRIMARY KEY ("stream")
);

-- History the database refuses to rewrite, whatever the service does.
CREATE FUNCTION sabot_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'sabot: % on % is not allowed: recorded history is never edited or deleted', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'P0001';
END $$;

CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER coup_voids_append_only BEFORE UPDATE OR DELETE ON "coup_voids" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER slip_voids_append_only BEFORE UPDATE OR DELETE ON "slip_voids" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER commission_entries_append_only BEFORE UPDATE OR DELETE ON "commission_entries" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER table_slips_append_only BEFORE UPDATE OR DELETE ON "table_slips" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER coups_no_delete BEFORE DELETE ON "coups" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER wagers_no_delete BEFORE DELETE ON "wagers" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
-- A settled coup and a settled or withdrawn wager are final.
CREATE TRIGGER coups_settled_final BEFORE UPDATE ON "coups" FOR EACH ROW WHEN (OLD."status" = 'SETTLED') EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER wagers_settled_final BEFORE UPDATE ON "wagers" FOR EACH ROW WHEN (OLD."status" <> 'OPEN') EXECUTE FUNCTION sabot_refuse_change();
