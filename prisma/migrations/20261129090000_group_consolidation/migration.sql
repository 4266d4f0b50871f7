-- A casino group (issue 20): each property's database publishes what the group's statements need
-- (src/group/group.sql), the group's database subscribes to every property's, and the group's
-- finance translates the figures into one currency at daily rates.

-- Daily exchange rates, kept as integers: units of `into_currency` one unit of `currency` is worth,
-- in billionths (domain/fx.ts). Never changed: a correction is a later entry for the same day, and
-- the latest entry of a day is the day's rate; the earlier ones stay readable.
CREATE TABLE "exchange_rates" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "rate_day" DATE NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "into_currency" CHAR(3) NOT NULL,
    "rate_e9" BIGINT NOT NULL,
    "entered_by_key_id" TEXT NOT NULL,
    "entered_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "exchange_rates_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "exchange_rates_rate_check" CHECK ("rate_e9" > 0 AND "rate_e9" <= 1000000000000000),
    CONSTRAINT "exchange_rates_currencies_check" CHECK ("currency" <> "into_currency")
);
-- The rate in force on a day: the latest entry of the latest day on or before it.
CREATE INDEX "exchange_rates_in_force_idx" ON "exchange_rates"("currency", "into_currency", "rate_day", "entered_at");

CREATE TRIGGER exchange_rates_append_only BEFORE UPDATE OR DELETE ON "exchange_rates" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER exchange_rates_no_truncate BEFORE TRUNCATE ON "exchange_rates" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
GRANT SELECT, INSERT ON "exchange_rates" TO sabot_app;

-- What was voided, per table and gaming day, kept with the day's other figures: the void summary of
-- a report reads the rollups it already reads, so a group database that receives only the rollups
-- answers it too. Kept by the void's transaction (src/void-requests/voids.ts).
ALTER TABLE "table_day_rollups"
    ADD COLUMN "voided_coups" BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN "voided_wagers" BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN "voided_handle" BIGINT NOT NULL DEFAULT 0;

-- The voids already made. A void's table-day row exists (its coup was settled into it), except in
-- databases older than the rollups; the deck count is set by the rollup's insert trigger.
INSERT INTO "table_day_rollups" AS r ("table_id", "gaming_day", "decks", "voided_coups", "voided_wagers", "voided_handle")
SELECT c.table_id, c.gaming_day, 0, count(DISTINCT c.id), count(w.id), coalesce(sum(w.amount), 0)
FROM coup_voids v JOIN coups c ON c.id = v.coup_id
LEFT JOIN wagers w ON w.coup_id = c.id AND w.status = 'SETTLED'
WHERE c.gaming_day IS NOT NULL
GROUP BY c.table_id, c.gaming_day
ON CONFLICT ("table_id", "gaming_day") DO UPDATE SET
    "voided_coups" = EXCLUDED."voided_coups", "voided_wagers" = EXCLUDED."voided_wagers", "voided_handle" = EXCLUDED."voided_handle";
