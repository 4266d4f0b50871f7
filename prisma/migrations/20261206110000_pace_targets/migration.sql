-- The pace a property expects of each variant, in decisions per hour (docs/domain.md §13): what the
-- pace report compares tables with, beside the property's own median. A variant without an entry
-- takes the default derived from a coup's time budget (src/domain/pace.ts). Never changed: a new
-- entry replaces the one before it (the latest is in force), and the earlier ones stay readable.
CREATE TABLE "pace_targets" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "property_id" UUID NOT NULL,
    "variant" "Variant" NOT NULL,
    "decisions_per_hour" INTEGER NOT NULL,
    "entered_by_key_id" TEXT NOT NULL,
    "entered_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "pace_targets_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "pace_targets_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "pace_targets_decisions_per_hour_check" CHECK ("decisions_per_hour" BETWEEN 1 AND 400)
);
-- The entry in force: the latest of a property and variant.
CREATE INDEX "pace_targets_property_id_variant_entered_at_idx" ON "pace_targets"("property_id", "variant", "entered_at");

CREATE TRIGGER pace_targets_append_only BEFORE UPDATE OR DELETE ON "pace_targets" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER pace_targets_no_truncate BEFORE TRUNCATE ON "pace_targets" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
GRANT SELECT, INSERT ON "pace_targets" TO sabot_app;
