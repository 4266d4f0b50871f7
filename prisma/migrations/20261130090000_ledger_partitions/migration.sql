-- The ledgers partitioned by gaming month (issue 20, docs/scaling.md "Partitions by gaming month").
--
-- coups and wagers are split by their gaming day, one partition a month (coups_2026_11,
-- wagers_2026_11). A query for a quarter reads three partitions; a month that has aged out is
-- detached whole to archive and attached again for an audit (sabot_ledger_month_detach / _attach,
-- `npm run ledger`), while the rollups, which the statements read, stay untouched.
--
-- A row has no gaming day until its coup settles: a coup taking bets, a bet placed before the
-- cards, a tie bet carried to the next coup (and those cancelled or withdrawn before settling).
-- Those rows live in the DEFAULT partition, coups_open and wagers_open, which is small. Settling
-- them sets their gaming day, and PostgreSQL moves them to their month's partition in the same
-- statement. A row of a month whose partition does not exist yet also lands in the default
-- partition: nothing the pit does ever fails for want of a partition. The service creates the
-- months ahead (sabot_ledger_months) so that this does not happen.
--
-- What partitioning costs, and how it is paid:
-- * PostgreSQL enforces a unique key on a partitioned table only if it includes the partition
--   key, and a gaming day is not known for an open row. The ids are random UUIDs the service
--   draws; a coup's number on its shoe is kept unique by the shoe's guarded counter, in the same
--   statement as the coup. The reconciliation (src/audit/ledger-checks.ts) looks for duplicates.
-- * A foreign key can point at a partitioned table only through such a key: wagers.coup_id and
--   coup_voids.coup_id keep their coup by the coup path's single statement and by the void's
--   transaction, and the reconciliation checks them. The foreign keys from the ledgers to shoes,
--   patrons and seatings stay.

-- 1. The unpartitioned ledgers step aside.
ALTER TABLE "wagers" DROP CONSTRAINT "wagers_coup_id_fkey";
ALTER TABLE "coup_voids" DROP CONSTRAINT "coup_voids_coup_id_fkey";
ALTER TABLE "coups" RENAME TO "coups_unpartitioned";
ALTER TABLE "wagers" RENAME TO "wagers_unpartitioned";

-- 2. The partitioned ledgers. A wager carries its coup's gaming day, so that both split the same way.
CREATE TABLE "coups" (
    "id" UUID NOT NULL,
    "shoe_id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "status" "CoupStatus" NOT NULL,
    "player_cards" TEXT[],
    "banker_cards" TEXT[],
    "winner" "Winner",
    "player_total" INTEGER,
    "banker_total" INTEGER,
    "card_count" INTEGER,
    "natural" BOOLEAN,
    "outcome" JSONB,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),
    "gaming_day" DATE,
    CONSTRAINT "coups_number_check" CHECK ("number" > 0),
    CONSTRAINT "coups_settled_day_check" CHECK ("status" <> 'SETTLED' OR "gaming_day" IS NOT NULL)
) PARTITION BY RANGE ("gaming_day");

CREATE TABLE "wagers" (
    "id" UUID NOT NULL,
    "coup_id" UUID,
    "shoe_id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "seat" INTEGER NOT NULL,
    "bet_type" "BetType" NOT NULL,
    "amount" BIGINT NOT NULL,
    "patron_id" TEXT,
    "status" "WagerStatus" NOT NULL,
    "result" "WagerResult",
    "payout" BIGINT,
    "commission" BIGINT,
    "net" BIGINT,
    "carried_from_id" UUID,
    "placed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),
    "seating_id" UUID,
    "gaming_day" DATE,
    CONSTRAINT "wagers_amount_check" CHECK ("amount" > 0),
    CONSTRAINT "wagers_settled_check" CHECK ("status" <> 'SETTLED' OR ("result" IS NOT NULL AND "payout" IS NOT NULL AND "commission" IS NOT NULL
                                             AND "net" IS NOT NULL AND "coup_id" IS NOT NULL AND "gaming_day" IS NOT NULL))
) PARTITION BY RANGE ("gaming_day");

CREATE TABLE "coups_open" PARTITION OF "coups" DEFAULT;
CREATE TABLE "wagers_open" PARTITION OF "wagers" DEFAULT;
GRANT SELECT ON "coups_open", "wagers_open" TO sabot_app;

-- 3. Upkeep. One month's partitions of both ledgers; the service's role may not create tables, so
-- the service calls sabot_ledger_months, which runs as the owner and does only this. A month whose
-- rows already sit in the open partition (settled before the month was created) is left there and
-- reported: moving them would mean deleting ledger rows, which is refused.
CREATE FUNCTION sabot_ledger_month(month DATE) RETURNS TEXT
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  first DATE := date_trunc('month', month)::date;
  next DATE := (date_trunc('month', month) + interval '1 month')::date;
  suffix TEXT := to_char(date_trunc('month', month), 'YYYY_MM');
  ledger TEXT;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('sabot_ledger_month'));  -- two services at once create a month once
  IF to_regclass('coups_' || suffix) IS NOT NULL OR to_regclass('wagers_' || suffix) IS NOT NULL THEN
    RETURN 'exists';
  END IF;
  IF EXISTS (SELECT 1 FROM coups_open WHERE gaming_day >= first AND gaming_day < next)
     OR EXISTS (SELECT 1 FROM wagers_open WHERE gaming_day >= first AND gaming_day < next) THEN
    RETURN 'rows in the open partition';
  END IF;
  FOREACH ledger IN ARRAY ARRAY['coups', 'wagers'] LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', ledger || '_' || suffix, ledger, first, next);
    -- The service reads and writes through the ledger; it may read a month by name too, as any table.
    EXECUTE format('GRANT SELECT ON %I TO sabot_app', ledger || '_' || suffix);
    -- A statement trigger is not inherited: TRUNCATE of the partition itself is refused here.
    EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change()',
                   ledger || '_' || suffix || '_no_truncate', ledger || '_' || suffix);
  END LOOP;
  RETURN 'created';
END $$;

-- Every month from `since` through `through`, created where missing: (month, what happened).
-- Creating a partition locks the ledger for a moment; it waits at most 2 s for the lock (behind a
-- long report, say) rather than hold the pit queued behind it, and is tried again later.
CREATE FUNCTION sabot_ledger_months(since DATE, through DATE) RETURNS TABLE (month DATE, outcome TEXT)
LANGUAGE sql SECURITY DEFINER SET search_path = public SET lock_timeout = '2s' AS $$
  SELECT m::date, sabot_ledger_month(m::date)
  FROM generate_series(date_trunc('month', since), date_trunc('month', through), interval '1 month') m
$$;
REVOKE ALL ON FUNCTION sabot_ledger_month(DATE) FROM PUBLIC;
REVOKE ALL ON FUNCTION sabot_ledger_months(DATE, DATE) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sabot_ledger_months(DATE, DATE) TO sabot_app;

-- 4. The rows move in: months for every gaming day on record, and the months around today.
SELECT sabot_ledger_months(
  least((SELECT min(gaming_day) FROM coups_unpartitioned), current_date - 92),
  greatest((SELECT max(gaming_day) FROM coups_unpartitioned), current_date + 92));

INSERT INTO "coups" ("id", "shoe_id", "table_id", "number", "status", "player_cards", "banker_cards", "winner", "player_total", "banker_total",
                     "card_count", "natural", "outcome", "opened_at", "settled_at", "gaming_day")
SELECT "id", "shoe_id", "table_id", "number", "status", "player_cards", "banker_cards", "winner", "player_total", "banker_total",
       "card_count", "natural", "outcome", "opened_at", "settled_at", "gaming_day"
FROM "coups_unpartitioned";

INSERT INTO "wagers" ("id", "coup_id", "shoe_id", "table_id", "seat", "bet_type", "amount", "patron_id", "status", "result", "payout",
                      "commission", "net", "carried_from_id", "placed_at", "settled_at", "seating_id", "gaming_day")
SELECT w."id", w."coup_id", w."shoe_id", w."table_id", w."seat", w."bet_type", w."amount", w."patron_id", w."status", w."result", w."payout",
       w."commission", w."net", w."carried_from_id", w."placed_at", w."settled_at", w."seating_id",
       CASE WHEN w."status" = 'SETTLED' THEN c."gaming_day" END
FROM "wagers_unpartitioned" w LEFT JOIN "coups_unpartitioned" c ON c."id" = w."coup_id";

DROP TABLE "wagers_unpartitioned";
DROP TABLE "coups_unpartitioned";

-- 5. Indexes, on every partition (each month's are its own, and leave with it).
CREATE INDEX "coups_id_idx" ON "coups"("id");
CREATE INDEX "coups_shoe_id_number_idx" ON "coups"("shoe_id", "number");
CREATE INDEX "coups_table_id_gaming_day_idx" ON "coups"("table_id", "gaming_day");
CREATE INDEX "wagers_id_idx" ON "wagers"("id");
CREATE INDEX "wagers_coup_id_idx" ON "wagers"("coup_id");
CREATE INDEX "wagers_open_by_shoe_idx" ON "wagers"("shoe_id") WHERE "status" = 'OPEN';
CREATE INDEX "wagers_carried_from_id_idx" ON "wagers"("carried_from_id") WHERE "carried_from_id" IS NOT NULL;
CREATE INDEX "wagers_patron_id_idx" ON "wagers"("patron_id", "coup_id") WHERE "patron_id" IS NOT NULL;
CREATE INDEX "wagers_seating_id_idx" ON "wagers"("seating_id") WHERE "seating_id" IS NOT NULL;

ALTER TABLE "coups" ADD CONSTRAINT "coups_shoe_id_fkey" FOREIGN KEY ("shoe_id") REFERENCES "shoes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "wagers" ADD CONSTRAINT "wagers_shoe_id_fkey" FOREIGN KEY ("shoe_id") REFERENCES "shoes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "wagers" ADD CONSTRAINT "wagers_patron_id_fkey" FOREIGN KEY ("patron_id") REFERENCES "patrons"("card") ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE "wagers" ADD CONSTRAINT "wagers_seating_id_fkey" FOREIGN KEY ("seating_id") REFERENCES "seatings"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- 6. History stays refused. A row leaves a partition only when PostgreSQL moves it to its month as
-- its coup settles, which it does as a delete and an insert: the delete of a row still open (a coup
-- taking bets, a bet not yet settled) is that move; any other delete is refused.
CREATE FUNCTION sabot_ledger_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."status"::text IN ('OPEN', 'BETTING') AND OLD."gaming_day" IS NULL THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'sabot: % on % is not allowed: recorded history is never edited or deleted', TG_OP, TG_ARGV[0]
    USING ERRCODE = 'P0001';
END $$;
CREATE TRIGGER coups_no_delete BEFORE DELETE ON "coups" FOR EACH ROW EXECUTE FUNCTION sabot_ledger_kept('coups');
CREATE TRIGGER wagers_no_delete BEFORE DELETE ON "wagers" FOR EACH ROW EXECUTE FUNCTION sabot_ledger_kept('wagers');
CREATE TRIGGER coups_settled_final BEFORE UPDATE ON "coups" FOR EACH ROW WHEN (OLD."status" = 'SETTLED') EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER wagers_settled_final BEFORE UPDATE ON "wagers" FOR EACH ROW WHEN (OLD."status" <> 'OPEN') EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER coups_no_truncate BEFORE TRUNCATE ON "coups" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER wagers_no_truncate BEFORE TRUNCATE ON "wagers" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER coups_open_no_truncate BEFORE TRUNCATE ON "coups_open" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER wagers_open_no_truncate BEFORE TRUNCATE ON "wagers_open" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();

GRANT SELECT, INSERT, UPDATE ON "coups", "wagers" TO sabot_app;

-- 7. Archive. A month detached from the ledgers (to be dumped, moved to cheaper storage, or kept
-- aside) and attached again for an audit. Each step is a row here, never changed: the month, the
-- settled coups, wagers and handle it held. The reconciliation checks a detached month against
-- the audit chain by these figures, and row by row once it is attached again.
CREATE TABLE "ledger_archive_steps" (
    "id" BIGSERIAL PRIMARY KEY,
    "month" DATE NOT NULL,
    "step" TEXT NOT NULL,
    "coups" BIGINT NOT NULL,
    "wagers" BIGINT NOT NULL,
    "handle" BIGINT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "by_role" TEXT NOT NULL DEFAULT current_user,
    CONSTRAINT "ledger_archive_steps_step_check" CHECK ("step" IN ('DETACH', 'ATTACH')),
    CONSTRAINT "ledger_archive_steps_month_check" CHECK ("month" = date_trunc('month', "month")::date)
);
CREATE TRIGGER ledger_archive_steps_append_only BEFORE UPDATE OR DELETE ON "ledger_archive_steps" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER ledger_archive_steps_no_truncate BEFORE TRUNCATE ON "ledger_archive_steps" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
GRANT SELECT ON "ledger_archive_steps" TO sabot_app;

-- Months detached now: the latest step of each is DETACH.
CREATE VIEW "ledger_months_detached" AS
SELECT s."month", s."coups", s."wagers", s."handle", s."at"
FROM (SELECT DISTINCT ON ("month") * FROM "ledger_archive_steps" ORDER BY "month", "id" DESC) s
WHERE s."step" = 'DETACH';
GRANT SELECT ON "ledger_months_detached" TO sabot_app;

-- A step of the archive, recorded with the settled coups, wagers and handle the month's partitions hold.
CREATE FUNCTION sabot_ledger_archive_step(month DATE, step TEXT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  suffix TEXT := to_char(month, 'YYYY_MM');
BEGIN
  EXECUTE format($q$INSERT INTO ledger_archive_steps (month, step, coups, wagers, handle)
                   SELECT %L, %L, (SELECT count(*) FROM %I WHERE status = 'SETTLED'), count(*), coalesce(sum(amount), 0)
                   FROM %I WHERE status = 'SETTLED'$q$, month, step, 'coups_' || suffix, 'wagers_' || suffix);
END $$;

-- Detach: the month's figures are recorded, both partitions leave the ledgers in one transaction,
-- and the detached tables refuse change as the ledgers do (the ledgers' triggers leave with them).
-- Detach and attach lock the ledgers for a moment: each waits at most 2 s for the lock (behind a
-- long report, say) rather than hold the pit queued behind it, and fails saying so: run it again.
CREATE FUNCTION sabot_ledger_month_detach(month DATE) RETURNS void LANGUAGE plpgsql SET lock_timeout = '2s' AS $$
DECLARE
  suffix TEXT := to_char(date_trunc('month', month), 'YYYY_MM');
  ledger TEXT;
BEGIN
  IF month <> date_trunc('month', month)::date THEN
    RAISE EXCEPTION 'sabot: a month is given by its first day, not %', month USING ERRCODE = '22023';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_inherits WHERE inhrelid = to_regclass('coups_' || suffix) AND inhparent = 'coups'::regclass) THEN
    RAISE EXCEPTION 'sabot: the ledgers hold no partition for %', to_char(month, 'YYYY-MM') USING ERRCODE = '22023';
  END IF;
  PERFORM sabot_ledger_archive_step(month, 'DETACH');
  FOREACH ledger IN ARRAY ARRAY['coups', 'wagers'] LOOP
    EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', ledger, ledger || '_' || suffix);
    EXECUTE format('CREATE TRIGGER %I BEFORE UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change()',
                   ledger || '_' || suffix || '_archived', ledger || '_' || suffix);
  END LOOP;
END $$;

-- Attach: the archived month's partitions return, PostgreSQL checks every row belongs to the month,
-- and the step is recorded with the figures the month holds now.
CREATE FUNCTION sabot_ledger_month_attach(month DATE) RETURNS void LANGUAGE plpgsql SET lock_timeout = '2s' AS $$
DECLARE
  first DATE := date_trunc('month', month)::date;
  next DATE := (date_trunc('month', month) + interval '1 month')::date;
  suffix TEXT := to_char(date_trunc('month', month), 'YYYY_MM');
  ledger TEXT;
BEGIN
  IF month <> first THEN
    RAISE EXCEPTION 'sabot: a month is given by its first day, not %', month USING ERRCODE = '22023';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM ledger_months_detached d WHERE d.month = first) THEN
    RAISE EXCEPTION 'sabot: % is not a detached month', to_char(month, 'YYYY-MM') USING ERRCODE = '22023';
  END IF;
  FOREACH ledger IN ARRAY ARRAY['coups', 'wagers'] LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', ledger || '_' || suffix || '_archived', ledger || '_' || suffix);
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', ledger, ledger || '_' || suffix, first, next);
  END LOOP;
  PERFORM sabot_ledger_archive_step(first, 'ATTACH');
END $$;
REVOKE ALL ON FUNCTION sabot_ledger_archive_step(DATE, TEXT) FROM PUBLIC;
REVOKE ALL ON FUNCTION sabot_ledger_month_detach(DATE) FROM PUBLIC;
REVOKE ALL ON FUNCTION sabot_ledger_month_attach(DATE) FROM PUBLIC;
