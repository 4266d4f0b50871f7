-- Integrity surveillance (docs/domain.md §9), computed off the pit's path by a worker that follows
-- the audit log (the outbox) with its own cursors, like the event relay.

-- The surveillance role: reads alerts and the records behind them.
ALTER TYPE "Role" ADD VALUE IF NOT EXISTS 'SURVEILLANCE';

-- How far the worker has read each stream.
CREATE TABLE "surveillance_cursors" (
    "stream" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "surveillance_cursors_pkey" PRIMARY KEY ("stream")
);

-- Each coup as surveillance saw it: the exact odds on the shoe before it (every offered bet's
-- chances, the odds given each first card: src/domain/detectors.ts CoupOdds), the first card's
-- point value, and the dealer who dealt it.
CREATE TABLE "coup_surveillance" (
    "coup_id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "shoe_id" UUID NOT NULL,
    "gaming_day" DATE NOT NULL,
    "dealer_id" TEXT,
    "first_value" INTEGER NOT NULL,
    "odds" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "coup_surveillance_pkey" PRIMARY KEY ("coup_id"),
    CONSTRAINT "coup_surveillance_coup_id_fkey" FOREIGN KEY ("coup_id") REFERENCES "coups"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "coup_surveillance_shoe_id_idx" ON "coup_surveillance"("shoe_id");

-- The run index: every window of 8 cards each shoe dealt (burns included), as one 48-bit integer.
CREATE TABLE "shoe_runs" (
    "key" BIGINT NOT NULL,
    "shoe_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    CONSTRAINT "shoe_runs_pkey" PRIMARY KEY ("key", "shoe_id", "position")
);

-- Alerts: raised by the worker, never edited; what people do with them are steps.
CREATE TABLE "surveillance_alerts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "kind" TEXT NOT NULL,
    "severity" TEXT NOT NULL CHECK ("severity" IN ('MEDIUM', 'HIGH')),
    "p_value" DOUBLE PRECISION NOT NULL,
    "threshold" DOUBLE PRECISION NOT NULL,
    "table_id" UUID NOT NULL,
    "shoe_id" UUID NOT NULL,
    "patron_id" TEXT,
    "dealer_id" TEXT,
    "gaming_day" DATE NOT NULL,
    "evidence" JSONB NOT NULL,
    "dedupe_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "surveillance_alerts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "surveillance_alerts_dedupe_key_key" UNIQUE ("dedupe_key")
);
CREATE INDEX "surveillance_alerts_created_at_idx" ON "surveillance_alerts"("created_at");
CREATE INDEX "surveillance_alerts_patron_id_idx" ON "surveillance_alerts"("patron_id");
CREATE INDEX "surveillance_alerts_gaming_day_idx" ON "surveillance_alerts"("gaming_day");

CREATE TABLE "surveillance_alert_steps" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "alert_id" UUID NOT NULL,
    "step" TEXT NOT NULL CHECK ("step" IN ('ACKNOWLEDGE', 'CLOSE')),
    "note" TEXT,
    "key_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "surveillance_alert_steps_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "surveillance_alert_steps_alert_step_key" UNIQUE ("alert_id", "step"),
    CONSTRAINT "surveillance_alert_steps_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "surveillance_alerts"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE TRIGGER coup_surveillance_append_only BEFORE UPDATE OR DELETE ON "coup_surveillance" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER shoe_runs_append_only BEFORE UPDATE OR DELETE ON "shoe_runs" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER surveillance_alerts_append_only BEFORE UPDATE OR DELETE ON "surveillance_alerts" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER surveillance_alert_steps_append_only BEFORE UPDATE OR DELETE ON "surveillance_alert_steps" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();

GRANT SELECT, INSERT, UPDATE ON "surveillance_cursors" TO sabot_app;
GRANT SELECT, INSERT ON "coup_surveillance", "shoe_runs", "surveillance_alerts", "surveillance_alert_steps" TO sabot_app;
