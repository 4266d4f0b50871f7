-- Rolling-chip play (issue 38). A wager is placed in cash chips or in non-negotiable ("dead")
-- chips: `dead_chips` is true for dead chips and NULL for cash, so that the wagers sealed before
-- this migration keep their image (a seal's image leaves out NULLs: src/ledger/seals.ts). A losing
-- dead-chip wager is rolled (the house takes the chips); a winning one is paid in cash chips and its
-- dead chips stay with the player; the money is the same as a cash wager's.
ALTER TABLE "wagers" ADD COLUMN "dead_chips" BOOLEAN;
ALTER TABLE "wagers" ADD CONSTRAINT "wagers_dead_chips_true_or_null" CHECK ("dead_chips" IS NULL OR "dead_chips");
-- A patron's dead-chip wagers by gaming day (the rolling account, src/rolling/rolling.sql): only the
-- dead-chip wagers are in it, so a cash wager costs it nothing.
CREATE INDEX "wagers_dead_patron_idx" ON "wagers" ("patron_id", "gaming_day") WHERE "dead_chips";

DO $$
DECLARE
  m RECORD;
BEGIN
  FOR m IN SELECT month FROM ledger_months_detached LOOP
    EXECUTE format('ALTER TABLE %I ADD COLUMN "dead_chips" BOOLEAN', 'wagers_' || to_char(m.month, 'YYYY_MM'));
    -- The ledgers' check too, by its name: a month is attached only with every constraint of the ledger.
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT "wagers_dead_chips_true_or_null" CHECK ("dead_chips" IS NULL OR "dead_chips")',
                   'wagers_' || to_char(m.month, 'YYYY_MM'));
  END LOOP;
END $$;

-- Every exchange of dead chips, at the cage or a table: bought (against front money, a marker,
-- or cash chips the player converts to keep rolling) or returned (exchanged back, at the end of a
-- trip). Never edited or deleted; sealed by its audit entry (`chips.exchange`). A patron's dead chips
-- in hand are those bought, less those returned, less those lost on wagers.
CREATE TYPE "ChipExchangeKind" AS ENUM ('PURCHASE', 'RETURN');

CREATE TABLE "chip_exchanges" (
  "id" UUID NOT NULL,
  "property_id" UUID NOT NULL,
  "patron_id" TEXT NOT NULL,
  "kind" "ChipExchangeKind" NOT NULL,
  "amount" BIGINT NOT NULL,
  "currency" CHAR(3) NOT NULL,
  -- What the dead chips were bought with: FRONT_MONEY, MARKER or CASH_CHIPS (cash goes to front money
  -- first, at the cage, where the cash reports see it); a return: into CASH_CHIPS or FRONT_MONEY.
  "settled_in" TEXT NOT NULL,
  -- The table where it happened (NULL: the cage).
  "table_id" UUID,
  "gaming_day" DATE NOT NULL,
  "at" TIMESTAMPTZ(3) NOT NULL,
  "recorded_by_key_id" TEXT NOT NULL,
  CONSTRAINT "chip_exchanges_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "chip_exchanges_patron_id_fkey" FOREIGN KEY ("patron_id") REFERENCES "patrons"("card") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "chip_exchanges_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "chip_exchanges_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "chip_exchanges_amount" CHECK ("amount" > 0),
  CONSTRAINT "chip_exchanges_settled_in" CHECK (
    ("kind" = 'PURCHASE' AND "settled_in" IN ('FRONT_MONEY', 'MARKER', 'CASH_CHIPS')) OR
    ("kind" = 'RETURN' AND "settled_in" IN ('FRONT_MONEY', 'CASH_CHIPS')))
);
CREATE INDEX "chip_exchanges_patron_day_idx" ON "chip_exchanges" ("patron_id", "gaming_day");
CREATE TRIGGER chip_exchanges_append_only BEFORE UPDATE OR DELETE ON "chip_exchanges" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER chip_exchanges_no_truncate BEFORE TRUNCATE ON "chip_exchanges" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
GRANT SELECT, INSERT ON "chip_exchanges" TO sabot_app;

-- Rolling-chip programmes as data: the commission a patron (or a junket) earns, as a share of the
-- rolling (ROLLING) or of the house's win or loss (WIN_LOSS), and a trip allowance as a share of the
-- rolling, each version effective from a gaming day. A programme is changed by a new version under
-- the same code, never by an edit, and never from a day already begun (what was due stays due).
CREATE TYPE "ProgrammeBasis" AS ENUM ('ROLLING', 'WIN_LOSS');

CREATE TABLE "rolling_programmes" (
  "id" UUID NOT NULL,
  "property_id" UUID NOT NULL,
  "code" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "basis" "ProgrammeBasis" NOT NULL,
  "commission_bps" INTEGER NOT NULL,
  "allowance_bps" INTEGER NOT NULL,
  "effective_from" DATE NOT NULL,
  "recorded_by_key_id" TEXT NOT NULL,
  "recorded_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "rolling_programmes_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "rolling_programmes_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "rolling_programmes_rates" CHECK ("commission_bps" BETWEEN 0 AND 10000 AND "allowance_bps" BETWEEN 0 AND 10000)
);
CREATE UNIQUE INDEX "rolling_programmes_version_key" ON "rolling_programmes" ("property_id", "code", "effective_from");
CREATE TRIGGER rolling_programmes_append_only BEFORE UPDATE OR DELETE ON "rolling_programmes" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER rolling_programmes_no_truncate BEFORE TRUNCATE ON "rolling_programmes" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
GRANT SELECT, INSERT ON "rolling_programmes" TO sabot_app;
