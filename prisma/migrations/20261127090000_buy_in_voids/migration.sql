-- Voiding a mistaken buy-in (issue 19), under two-person control like coups and slips.
--
-- The buy-in, its marker and its cash transaction stay as they were written; the void is a new row.
-- A voided buy-in leaves the drop the count is reconciled against, its cash transaction leaves the
-- cash reports, and its marker (if any) is owed no more. A marker that has been paid on is not voided.
ALTER TYPE "VoidTarget" ADD VALUE IF NOT EXISTS 'BUY_IN';

CREATE TABLE "buy_in_voids" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "buy_in_id" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "voided_by_key_id" TEXT NOT NULL,
    "voided_by_role" "Role" NOT NULL,
    "approved_by_key_id" TEXT NOT NULL,
    "void_request_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "buy_in_voids_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "buy_in_voids_buy_in_id_fkey" FOREIGN KEY ("buy_in_id") REFERENCES "buy_ins"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
    CONSTRAINT "buy_in_voids_void_request_id_fkey" FOREIGN KEY ("void_request_id") REFERENCES "void_requests"("id") ON DELETE RESTRICT ON UPDATE RESTRICT
);
CREATE UNIQUE INDEX "buy_in_voids_buy_in_id_key" ON "buy_in_voids"("buy_in_id");
CREATE UNIQUE INDEX "buy_in_voids_void_request_id_key" ON "buy_in_voids"("void_request_id");

CREATE TRIGGER buy_in_voids_append_only BEFORE UPDATE OR DELETE ON "buy_in_voids" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER buy_in_voids_no_truncate BEFORE TRUNCATE ON "buy_in_voids" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();

GRANT SELECT, INSERT ON "buy_in_voids" TO sabot_app;

-- A marker's buy-in, to tell whether the marker was voided.
CREATE INDEX "buy_ins_marker_id_idx" ON "buy_ins"("marker_id") WHERE "marker_id" IS NOT NULL;
