-- Who deals each table, and since when (integrity surveillance: results of a dealer and a patron
-- together). A row says "this dealer took this table at this moment"; nothing is edited. A shift
-- ends at the table's next row, or when the same dealer takes another table, whichever comes
-- first (a dealer is in one place at a time); dealers.sql derives it.
CREATE TABLE "dealer_shifts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "table_id" UUID NOT NULL,
    "dealer_id" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(6) NOT NULL DEFAULT clock_timestamp(),
    "recorded_by_key_id" TEXT NOT NULL,
    CONSTRAINT "dealer_shifts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "dealer_shifts_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "dealer_shifts_table_id_started_at_idx" ON "dealer_shifts"("table_id", "started_at");
CREATE INDEX "dealer_shifts_dealer_id_started_at_idx" ON "dealer_shifts"("dealer_id", "started_at");
CREATE TRIGGER dealer_shifts_append_only BEFORE UPDATE OR DELETE ON "dealer_shifts" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
GRANT SELECT, INSERT ON "dealer_shifts" TO sabot_app;
