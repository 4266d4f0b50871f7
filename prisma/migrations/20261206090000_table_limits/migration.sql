-- Table limits over time (issue 38). A table's opening limits stay on its row, as they always were
-- (its rules and opening limits are never edited); every later change of its minimum and maximum is
-- a row here, with who made it, when and why, never edited or deleted, and sealed by its audit
-- entry (`table.limits`). The limits in force at a table are its latest change, else its opening
-- limits.
--
-- The open shoe carries the change in force (`shoes.limits_id`, NULL: the opening limits): a change
-- updates the open shoe's row, which moves its version, so a whole coup computed before the change
-- (from a read, or from an instance's memory) is never written after it. Each coup keeps the change
-- its wagers were placed and checked under (`coups.limits_id`, NULL: the opening limits, as every coup
-- before this migration was), which the reports by limit level group by, and which its coup.settle
-- entry names (the ledger check compares them).
CREATE TABLE "table_limits" (
  "id" UUID NOT NULL,
  "table_id" UUID NOT NULL,
  "property_id" UUID NOT NULL,
  -- 1 for a table's first change, then 2, 3…: the order of the changes, kept by the table's lock.
  "seq" INTEGER NOT NULL,
  "min_bet" BIGINT NOT NULL,
  "max_bet" BIGINT NOT NULL,
  -- Per-bet limits, bet type → {min, max} in minor units, as casino_tables.bet_limits.
  "bet_limits" JSONB NOT NULL DEFAULT '{}',
  "reason" TEXT NOT NULL,
  "changed_by_key_id" TEXT NOT NULL,
  -- When it took effect: taken after the table's and its shoe's locks, so after every coup written
  -- under the limits before.
  "effective_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "table_limits_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "table_limits_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "table_limits_limits" CHECK ("min_bet" > 0 AND "max_bet" >= "min_bet" AND "seq" > 0)
);
CREATE UNIQUE INDEX "table_limits_table_id_seq_key" ON "table_limits" ("table_id", "seq");

CREATE TRIGGER table_limits_append_only BEFORE UPDATE OR DELETE ON "table_limits" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER table_limits_no_truncate BEFORE TRUNCATE ON "table_limits" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
GRANT SELECT, INSERT ON "table_limits" TO sabot_app;

ALTER TABLE "shoes" ADD COLUMN "limits_id" UUID;
ALTER TABLE "shoes" ADD CONSTRAINT "shoes_limits_id_fkey" FOREIGN KEY ("limits_id") REFERENCES "table_limits"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;
-- No foreign key on the partitioned coups (every coup would pay for its check): the coup.settle
-- entry names the change, and the ledger check compares the two.
ALTER TABLE "coups" ADD COLUMN "limits_id" UUID;

-- Months detached to the archive are tables of their own (20261202090000_property_on_ledgers, step
-- 4): they get the column too, so that they can be attached again. Their coups are all before any
-- change of limits: NULL, the opening limits.
DO $$
DECLARE
  m RECORD;
BEGIN
  FOR m IN SELECT month FROM ledger_months_detached LOOP
    EXECUTE format('ALTER TABLE %I ADD COLUMN "limits_id" UUID', 'coups_' || to_char(m.month, 'YYYY_MM'));
  END LOOP;
END $$;

-- The figures by limit level: each settled coup not voided, per table, gaming day and the limits
-- its wagers were placed under (limits_seq: 0 the opening limits, else the change's seq), kept by
-- the settlement statement and by voids like the other rollups (src/ledger/ledger.sql rollups).
-- `players` counts the seats with a wager on each coup (every player, rated or not), summed over
-- the coups: players ÷ coups is the table's occupancy at that level.
CREATE TABLE "limit_rollups" (
  "table_id" UUID NOT NULL,
  "property_id" UUID NOT NULL,
  "gaming_day" DATE NOT NULL,
  "limits_seq" INTEGER NOT NULL,
  "coups" BIGINT NOT NULL DEFAULT 0,
  "players" BIGINT NOT NULL DEFAULT 0,
  "wagers" BIGINT NOT NULL DEFAULT 0,
  "handle" BIGINT NOT NULL DEFAULT 0,
  "customer_net" BIGINT NOT NULL DEFAULT 0,
  "commission" BIGINT NOT NULL DEFAULT 0,
  "theo_e12" DECIMAL(40, 0) NOT NULL DEFAULT 0,
  CONSTRAINT "limit_rollups_pkey" PRIMARY KEY ("table_id", "gaming_day", "limits_seq")
);
CREATE INDEX "limit_rollups_gaming_day_idx" ON "limit_rollups" ("gaming_day");
GRANT SELECT, INSERT, UPDATE ON "limit_rollups" TO sabot_app;

-- Every coup settled before this migration was under its table's opening limits: the day's figures
-- as the table-day rollups hold them (voids taken out), and the players counted from its wagers.
INSERT INTO "limit_rollups" (table_id, property_id, gaming_day, limits_seq, coups, players, wagers, handle, customer_net, commission, theo_e12)
SELECT r.table_id, r.property_id, r.gaming_day, 0, r.coups, coalesce(p.players, 0), r.wagers, r.handle, r.customer_net, r.commission, r.theo_e12
FROM "table_day_rollups" r
LEFT JOIN (
  SELECT c.table_id, c.gaming_day, count(DISTINCT (w.coup_id, w.seat)) AS players
  FROM "wagers" w JOIN "coups" c ON c.id = w.coup_id AND c.gaming_day = w.gaming_day
  WHERE w.status = 'SETTLED' AND c.status = 'SETTLED' AND NOT EXISTS (SELECT 1 FROM "coup_voids" v WHERE v.coup_id = c.id)
  GROUP BY c.table_id, c.gaming_day
) p ON p.table_id = r.table_id AND p.gaming_day = r.gaming_day
WHERE r.coups <> 0 OR r.wagers <> 0;
