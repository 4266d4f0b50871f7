-- Every ledger row carries its property (docs/scaling.md, "Ready for a distributed PostgreSQL").
--
-- A group's consolidated ledger, spread over several machines by Citus, is distributed by one
-- column, and a row can only be placed, and joined on its own node, if it carries that column.
-- So the shoes, the coups and their voids, the wagers, the commission ledger, the player-banked
-- banks, their coups and voids, and the five rollups now carry `property_id`, written by the
-- service with each row (the table's property). Sabot does not need Citus to run; the schema is
-- only made ready for it. (Citus would also need the property in every unique key: step 3 says
-- why the keys stay as they are.)
--
-- The write path keeps a row's property equal to its table's; the verification checks it
-- (src/audit/ledger-checks.ts, "property").

-- 1. The column, everywhere (no default: a writer that forgets it fails at once).
ALTER TABLE "shoes" ADD COLUMN "property_id" UUID;
ALTER TABLE "coups" ADD COLUMN "property_id" UUID;
ALTER TABLE "wagers" ADD COLUMN "property_id" UUID;
ALTER TABLE "commission_entries" ADD COLUMN "property_id" UUID;
ALTER TABLE "coup_voids" ADD COLUMN "property_id" UUID;
ALTER TABLE "banks" ADD COLUMN "property_id" UUID;
ALTER TABLE "bank_coups" ADD COLUMN "property_id" UUID;
ALTER TABLE "bank_coup_voids" ADD COLUMN "property_id" UUID;
ALTER TABLE "wager_rollups" ADD COLUMN "property_id" UUID;
ALTER TABLE "month_rollups" ADD COLUMN "property_id" UUID;
ALTER TABLE "table_day_rollups" ADD COLUMN "property_id" UUID;
ALTER TABLE "patron_rollups" ADD COLUMN "property_id" UUID;
ALTER TABLE "patron_coup_rollups" ADD COLUMN "property_id" UUID;

-- 2. The rows written before: each gets its table's property. Settled rows refuse change (their
-- triggers), so those triggers are set aside for this statement alone, by the tables' owner.
ALTER TABLE "coups" DISABLE TRIGGER "coups_settled_final";
ALTER TABLE "wagers" DISABLE TRIGGER "wagers_settled_final";
ALTER TABLE "commission_entries" DISABLE TRIGGER "commission_entries_append_only";
ALTER TABLE "coup_voids" DISABLE TRIGGER "coup_voids_append_only";
ALTER TABLE "bank_coups" DISABLE TRIGGER "bank_coups_append_only";
ALTER TABLE "bank_coup_voids" DISABLE TRIGGER "bank_coup_voids_append_only";
ALTER TABLE "banks" DISABLE TRIGGER "banks_closed_final";
UPDATE "shoes" s SET "property_id" = t."property_id" FROM "casino_tables" t WHERE t."id" = s."table_id";
UPDATE "coups" c SET "property_id" = s."property_id" FROM "shoes" s WHERE s."id" = c."shoe_id";
UPDATE "wagers" w SET "property_id" = s."property_id" FROM "shoes" s WHERE s."id" = w."shoe_id";
UPDATE "commission_entries" e SET "property_id" = s."property_id" FROM "shoes" s WHERE s."id" = e."shoe_id";
UPDATE "coup_voids" v SET "property_id" = c."property_id" FROM "coups" c WHERE c."id" = v."coup_id";
UPDATE "banks" b SET "property_id" = s."property_id" FROM "shoes" s WHERE s."id" = b."shoe_id";
UPDATE "bank_coups" c SET "property_id" = s."property_id" FROM "shoes" s WHERE s."id" = c."shoe_id";
UPDATE "bank_coup_voids" v SET "property_id" = c."property_id" FROM "bank_coups" c WHERE c."id" = v."bank_coup_id";
ALTER TABLE "coups" ENABLE TRIGGER "coups_settled_final";
ALTER TABLE "wagers" ENABLE TRIGGER "wagers_settled_final";
ALTER TABLE "commission_entries" ENABLE TRIGGER "commission_entries_append_only";
ALTER TABLE "coup_voids" ENABLE TRIGGER "coup_voids_append_only";
ALTER TABLE "bank_coups" ENABLE TRIGGER "bank_coups_append_only";
ALTER TABLE "bank_coup_voids" ENABLE TRIGGER "bank_coup_voids_append_only";
ALTER TABLE "banks" ENABLE TRIGGER "banks_closed_final";
UPDATE "wager_rollups" r SET "property_id" = t."property_id" FROM "casino_tables" t WHERE t."id" = r."table_id";
UPDATE "month_rollups" r SET "property_id" = t."property_id" FROM "casino_tables" t WHERE t."id" = r."table_id";
UPDATE "table_day_rollups" r SET "property_id" = t."property_id" FROM "casino_tables" t WHERE t."id" = r."table_id";
UPDATE "patron_rollups" r SET "property_id" = t."property_id" FROM "casino_tables" t WHERE t."id" = r."table_id";
UPDATE "patron_coup_rollups" r SET "property_id" = t."property_id" FROM "casino_tables" t WHERE t."id" = r."table_id";

ALTER TABLE "shoes" ALTER COLUMN "property_id" SET NOT NULL;
ALTER TABLE "coups" ALTER COLUMN "property_id" SET NOT NULL;
ALTER TABLE "wagers" ALTER COLUMN "property_id" SET NOT NULL;
ALTER TABLE "commission_entries" ALTER COLUMN "property_id" SET NOT NULL;
ALTER TABLE "coup_voids" ALTER COLUMN "property_id" SET NOT NULL;
ALTER TABLE "banks" ALTER COLUMN "property_id" SET NOT NULL;
ALTER TABLE "bank_coups" ALTER COLUMN "property_id" SET NOT NULL;
ALTER TABLE "bank_coup_voids" ALTER COLUMN "property_id" SET NOT NULL;
ALTER TABLE "wager_rollups" ALTER COLUMN "property_id" SET NOT NULL;
ALTER TABLE "month_rollups" ALTER COLUMN "property_id" SET NOT NULL;
ALTER TABLE "table_day_rollups" ALTER COLUMN "property_id" SET NOT NULL;
ALTER TABLE "patron_rollups" ALTER COLUMN "property_id" SET NOT NULL;
ALTER TABLE "patron_coup_rollups" ALTER COLUMN "property_id" SET NOT NULL;

-- 3. A group's database receives the rollups of each property by logical replication, and a
-- property upgraded after its group still sends rows without the property for a while (and rows
-- changed before its upgrade, not yet applied, are sent as they were written). There the property
-- is filled in from the table, as the row is applied. The trigger fires only where rows are applied
-- from a publication (ENABLE REPLICA): the pit's own writes always give it and never call it.
--
-- The keys stay as they were. Citus would need the property in them, but a subscriber whose key
-- holds a column its publisher's key did not hold refuses every change made before the publisher's
-- upgrade ("publisher did not send replica identity column"), and the group's link would stop for
-- good (test/e2e/group-upgrade.spec.ts found it). Widening the keys belongs to the move to Citus
-- (docs/scaling.md).
-- (A subscription applies rows with an empty search_path: the table is named with its schema.)
CREATE FUNCTION sabot_rollup_property() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."property_id" IS NULL THEN
    SELECT t."property_id" INTO NEW."property_id" FROM public."casino_tables" t WHERE t."id" = NEW."table_id";
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER wager_rollups_property BEFORE INSERT ON "wager_rollups" FOR EACH ROW EXECUTE FUNCTION sabot_rollup_property();
CREATE TRIGGER month_rollups_property BEFORE INSERT ON "month_rollups" FOR EACH ROW EXECUTE FUNCTION sabot_rollup_property();
CREATE TRIGGER table_day_rollups_property BEFORE INSERT ON "table_day_rollups" FOR EACH ROW EXECUTE FUNCTION sabot_rollup_property();
ALTER TABLE "wager_rollups" ENABLE REPLICA TRIGGER "wager_rollups_property";
ALTER TABLE "month_rollups" ENABLE REPLICA TRIGGER "month_rollups_property";
ALTER TABLE "table_day_rollups" ENABLE REPLICA TRIGGER "table_day_rollups_property";

-- 4. Months detached to the archive are tables of their own, outside the ledgers: a change to the
-- ledgers' columns does not reach them, and a month whose columns differ cannot be attached again.
-- Each is brought to the ledgers' shape here, with the two columns dropped since the partitioning
-- (20261201090000_coup_outcome_from_cards, 20261201110000_wager_table_from_shoe). A later migration
-- that changes the ledgers' columns does the same.
DO $$
DECLARE
  m RECORD;
  suffix TEXT;
BEGIN
  FOR m IN SELECT month FROM ledger_months_detached LOOP
    suffix := to_char(m.month, 'YYYY_MM');
    EXECUTE format('ALTER TABLE %I DISABLE TRIGGER %I', 'coups_' || suffix, 'coups_' || suffix || '_archived');
    EXECUTE format('ALTER TABLE %I DISABLE TRIGGER %I', 'wagers_' || suffix, 'wagers_' || suffix || '_archived');
    EXECUTE format('ALTER TABLE %I DROP COLUMN IF EXISTS "outcome"', 'coups_' || suffix);
    EXECUTE format('ALTER TABLE %I DROP COLUMN IF EXISTS "table_id"', 'wagers_' || suffix);
    EXECUTE format('ALTER TABLE %I ADD COLUMN "property_id" UUID', 'coups_' || suffix);
    EXECUTE format('ALTER TABLE %I ADD COLUMN "property_id" UUID', 'wagers_' || suffix);
    EXECUTE format('UPDATE %I c SET "property_id" = s."property_id" FROM "shoes" s WHERE s."id" = c."shoe_id"', 'coups_' || suffix);
    EXECUTE format('UPDATE %I w SET "property_id" = s."property_id" FROM "shoes" s WHERE s."id" = w."shoe_id"', 'wagers_' || suffix);
    EXECUTE format('ALTER TABLE %I ALTER COLUMN "property_id" SET NOT NULL', 'coups_' || suffix);
    EXECUTE format('ALTER TABLE %I ALTER COLUMN "property_id" SET NOT NULL', 'wagers_' || suffix);
    EXECUTE format('ALTER TABLE %I ENABLE TRIGGER %I', 'coups_' || suffix, 'coups_' || suffix || '_archived');
    EXECUTE format('ALTER TABLE %I ENABLE TRIGGER %I', 'wagers_' || suffix, 'wagers_' || suffix || '_archived');
  END LOOP;
END $$;
