-- Issue 51: coups the table's devices report. A DEVICE key is a table's, like a terminal's: one for
-- each device (a card-reading shoe, a chip reader, the dealer's button), minted by an administrator.
ALTER TYPE "Role" ADD VALUE IF NOT EXISTS 'DEVICE';

-- What the devices reported, as it came, each report once by its device's sequence number (the gateway,
-- src/table-games/coups/device-gateway.ts, keeps a report and what the judge made of it in one
-- transaction before it acknowledges it). A report refused (not the protocol's, out of sequence) is kept
-- too, for the supervisor, with why. Never changed.
CREATE TABLE "device_reports" (
  "id" UUID NOT NULL,
  "key_id" UUID NOT NULL,
  "table_id" UUID NOT NULL,
  -- The device's sequence number (NULL: a report too broken to carry one).
  "seq" BIGINT,
  "received_at" TIMESTAMPTZ(3) NOT NULL,
  "report" JSONB NOT NULL,
  -- Why it was refused (NULL: taken).
  "refused" TEXT,
  CONSTRAINT "device_reports_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "device_reports_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "device_reports_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE RESTRICT
);
CREATE UNIQUE INDEX "device_reports_seq_key" ON "device_reports" ("key_id", "seq") WHERE "refused" IS NULL;
CREATE INDEX "device_reports_table_idx" ON "device_reports" ("table_id", "received_at");
CREATE TRIGGER device_reports_append_only BEFORE UPDATE OR DELETE ON "device_reports" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER device_reports_no_truncate BEFORE TRUNCATE ON "device_reports" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
GRANT SELECT, INSERT ON "device_reports" TO sabot_app;

-- The judge's memory of each table (src/domain/game/device-reading.ts ReadingState: the shoe's
-- composition and count, the coup in progress), written with every report it takes; replaying the
-- table's reports gives it again.
CREATE TABLE "device_readings" (
  "table_id" UUID NOT NULL,
  "state" JSONB NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "device_readings_pkey" PRIMARY KEY ("table_id"),
  CONSTRAINT "device_readings_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE RESTRICT
);
GRANT SELECT, INSERT, UPDATE ON "device_readings" TO sabot_app;

-- A coup the devices reported that Sabot did not settle: the reason and what was wrong, for the
-- supervisor; cleared when the supervisor cancels the coup. Sealed; never deleted.
CREATE TABLE "device_holds" (
  "id" UUID NOT NULL,
  "table_id" UUID NOT NULL,
  "reason" TEXT NOT NULL,
  "detail" TEXT NOT NULL,
  "report_id" UUID NOT NULL,
  "held_at" TIMESTAMPTZ(3) NOT NULL,
  "cleared_at" TIMESTAMPTZ(3),
  "cleared_by_key_id" TEXT,
  CONSTRAINT "device_holds_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "device_holds_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "device_holds_report_id_fkey" FOREIGN KEY ("report_id") REFERENCES "device_reports"("id") ON DELETE RESTRICT ON UPDATE RESTRICT
);
CREATE INDEX "device_holds_table_idx" ON "device_holds" ("table_id", "held_at");
-- One hold open at a table at a time: the coup in progress is held until it is cancelled.
CREATE UNIQUE INDEX "device_holds_one_open" ON "device_holds" ("table_id") WHERE "cleared_at" IS NULL;
CREATE FUNCTION sabot_device_hold_cleared_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.cleared_at IS NOT NULL OR NEW.cleared_at IS NULL
     OR (to_jsonb(NEW) - ARRAY['cleared_at', 'cleared_by_key_id']) IS DISTINCT FROM (to_jsonb(OLD) - ARRAY['cleared_at', 'cleared_by_key_id']) THEN
    RAISE EXCEPTION 'sabot: a device hold is cleared once; why and when it was held never change' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER device_holds_cleared_once BEFORE UPDATE ON "device_holds" FOR EACH ROW EXECUTE FUNCTION sabot_device_hold_cleared_once();
CREATE TRIGGER device_holds_never_deleted BEFORE DELETE ON "device_holds" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER device_holds_no_truncate BEFORE TRUNCATE ON "device_holds" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
GRANT SELECT, INSERT ON "device_holds" TO sabot_app;
GRANT UPDATE ("cleared_at", "cleared_by_key_id") ON "device_holds" TO sabot_app;
