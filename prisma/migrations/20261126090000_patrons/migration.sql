-- Patrons and rated play (issue 19).
--
-- A patron is the casino's player-card number; a name and a tier only where the casino keeps them.
-- Cards written on wagers before this register existed become patrons here, so that every wager's
-- patron is a registered one from now on (a foreign key: an unknown card is refused).
ALTER TYPE "Role" ADD VALUE IF NOT EXISTS 'HOST';
ALTER TYPE "Role" ADD VALUE IF NOT EXISTS 'COMPLIANCE';

CREATE TABLE "patrons" (
    "card" TEXT NOT NULL,
    "name" TEXT,
    "tier" TEXT,
    "registered_by_key_id" TEXT NOT NULL,
    "registered_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "patrons_pkey" PRIMARY KEY ("card")
);
INSERT INTO "patrons" ("card", "registered_by_key_id")
SELECT DISTINCT p, 'migration' FROM (
  SELECT "patron_id" AS p FROM "wagers" WHERE "patron_id" IS NOT NULL
  UNION SELECT "patron_id" FROM "commission_entries" WHERE "patron_id" IS NOT NULL
) known;
ALTER TABLE "wagers" ADD CONSTRAINT "wagers_patron_id_fkey" FOREIGN KEY ("patron_id") REFERENCES "patrons"("card") ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_patron_id_fkey" FOREIGN KEY ("patron_id") REFERENCES "patrons"("card") ON DELETE RESTRICT ON UPDATE RESTRICT;
-- A patron's wagers, for their rating (most wagers carry no patron: the index holds only those that do).
CREATE INDEX "wagers_patron_id_idx" ON "wagers"("patron_id", "coup_id") WHERE "patron_id" IS NOT NULL;

-- Comps: the share of theoretical win a property gives back, in basis points (2000 = 20 %).
ALTER TABLE "properties" ADD COLUMN "comp_share_bps" INTEGER NOT NULL DEFAULT 2000;
ALTER TABLE "properties" ADD CONSTRAINT "properties_comp_share_bps_check" CHECK ("comp_share_bps" BETWEEN 0 AND 10000);

-- A seating: a patron's card in at a table and seat, and out again. Written once at card-in; the
-- only change it ever takes is its end, once (a trigger holds it to that). Several patrons may sit
-- on one seat (back-betting) and one patron on several seats of a table, never at two tables at once.
CREATE TABLE "seatings" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "patron_id" TEXT NOT NULL,
    "table_id" UUID NOT NULL,
    "seat" INTEGER NOT NULL,
    "gaming_day" DATE NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "started_by_key_id" TEXT NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "ended_by_key_id" TEXT,
    CONSTRAINT "seatings_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "seatings_patron_id_fkey" FOREIGN KEY ("patron_id") REFERENCES "patrons"("card") ON DELETE RESTRICT ON UPDATE RESTRICT,
    CONSTRAINT "seatings_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "seatings_seat_check" CHECK ("seat" >= 1),
    CONSTRAINT "seatings_end_check" CHECK (("ended_at" IS NULL) = ("ended_by_key_id" IS NULL) AND ("ended_at" IS NULL OR "ended_at" >= "started_at"))
);
-- The seatings open at a table (read with every coup) and a patron's, by day.
CREATE INDEX "seatings_open_idx" ON "seatings"("table_id") WHERE "ended_at" IS NULL;
CREATE INDEX "seatings_patron_id_gaming_day_idx" ON "seatings"("patron_id", "gaming_day");
-- One open seating per patron and seat.
CREATE UNIQUE INDEX "seatings_one_open_per_seat" ON "seatings"("patron_id", "table_id", "seat") WHERE "ended_at" IS NULL;

CREATE FUNCTION sabot_seating_ended_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.ended_at IS NOT NULL OR NEW.ended_at IS NULL
     OR (to_jsonb(NEW) - ARRAY['ended_at', 'ended_by_key_id']) IS DISTINCT FROM (to_jsonb(OLD) - ARRAY['ended_at', 'ended_by_key_id']) THEN
    RAISE EXCEPTION 'sabot: a seating ends once; who sat where and when never changes' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER seatings_ended_once BEFORE UPDATE ON "seatings" FOR EACH ROW EXECUTE FUNCTION sabot_seating_ended_once();
CREATE TRIGGER seatings_never_deleted BEFORE DELETE ON "seatings" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER seatings_no_truncate BEFORE TRUNCATE ON "seatings" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER patrons_no_delete BEFORE DELETE ON "patrons" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER patrons_no_truncate BEFORE TRUNCATE ON "patrons" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();

-- The visit a wager was played in (null: no seating, or a patron named without a card in).
ALTER TABLE "wagers" ADD COLUMN "seating_id" UUID;
ALTER TABLE "wagers" ADD CONSTRAINT "wagers_seating_id_fkey" FOREIGN KEY ("seating_id") REFERENCES "seatings"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;
CREATE INDEX "wagers_seating_id_idx" ON "wagers"("seating_id") WHERE "seating_id" IS NOT NULL;

GRANT SELECT, INSERT ON "patrons" TO sabot_app;
GRANT SELECT, INSERT, UPDATE ON "seatings" TO sabot_app;
