-- Buy-ins, markers and the cash-transaction log (issue 19).
--
-- Every row here is written once and never changed (a trigger refuses UPDATE, DELETE and TRUNCATE).
-- A buy-in is the table's record (it feeds the drop); a cash transaction is the patron's record for
-- the cash reports (US Title 31: the multiple-transaction log, currency-transaction-report
-- candidates, structuring). A cash buy-in writes both, in one transaction.
ALTER TYPE "Role" ADD VALUE IF NOT EXISTS 'CASHIER';
CREATE TYPE "BuyInKind" AS ENUM ('CASH', 'CHIPS', 'MARKER');
CREATE TYPE "CashDirection" AS ENUM ('IN', 'OUT');
CREATE TYPE "CashKind" AS ENUM ('BUY_IN', 'MARKER_PAYMENT', 'CHIP_REDEMPTION', 'DEPOSIT', 'WITHDRAWAL');

-- The property's cash-reporting settings: the currency its thresholds are in, the amount from which
-- a cash transaction goes in the multiple-transaction log, the aggregate from which a patron's day is
-- a currency-transaction-report candidate, and how close below that aggregate (basis points of it)
-- counts as "just under" for the structuring alert. US values by default (USD 3,000 and 10,000).
ALTER TABLE "properties" ADD COLUMN "cash_currency" CHAR(3) NOT NULL DEFAULT 'USD';
ALTER TABLE "properties" ADD COLUMN "mtl_threshold" BIGINT NOT NULL DEFAULT 300000;
ALTER TABLE "properties" ADD COLUMN "ctr_threshold" BIGINT NOT NULL DEFAULT 1000000;
ALTER TABLE "properties" ADD COLUMN "structuring_floor_bps" INTEGER NOT NULL DEFAULT 8000;
ALTER TABLE "properties" ADD CONSTRAINT "properties_cash_thresholds_check"
  CHECK ("mtl_threshold" > 0 AND "ctr_threshold" >= "mtl_threshold" AND "structuring_floor_bps" BETWEEN 1 AND 9999);

-- A marker: credit the casino extends to a patron at a table, as chips; paid back later.
CREATE TABLE "markers" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "property_id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "patron_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "gaming_day" DATE NOT NULL,
    "issued_at" TIMESTAMPTZ(3) NOT NULL,
    "issued_by_key_id" TEXT NOT NULL,
    CONSTRAINT "markers_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "markers_amount_check" CHECK ("amount" > 0),
    CONSTRAINT "markers_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "markers_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "markers_patron_id_fkey" FOREIGN KEY ("patron_id") REFERENCES "patrons"("card") ON DELETE RESTRICT ON UPDATE RESTRICT
);
CREATE INDEX "markers_patron_id_idx" ON "markers"("patron_id");

-- A payment on a marker (in part or whole), at the cage.
CREATE TABLE "marker_payments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "marker_id" UUID NOT NULL,
    "amount" BIGINT NOT NULL,
    "method" TEXT NOT NULL,
    "gaming_day" DATE NOT NULL,
    "paid_at" TIMESTAMPTZ(3) NOT NULL,
    "recorded_by_key_id" TEXT NOT NULL,
    CONSTRAINT "marker_payments_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "marker_payments_amount_check" CHECK ("amount" > 0),
    CONSTRAINT "marker_payments_method_check" CHECK ("method" IN ('CASH', 'CHIPS', 'CHECK', 'WIRE')),
    CONSTRAINT "marker_payments_marker_id_fkey" FOREIGN KEY ("marker_id") REFERENCES "markers"("id") ON DELETE RESTRICT ON UPDATE RESTRICT
);
CREATE INDEX "marker_payments_marker_id_idx" ON "marker_payments"("marker_id");

-- A buy-in at a table: cash or a marker into the drop box, or chips from another table (no drop).
CREATE TABLE "buy_ins" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "table_id" UUID NOT NULL,
    "patron_id" TEXT,
    "seating_id" UUID,
    "kind" "BuyInKind" NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "gaming_day" DATE NOT NULL,
    "marker_id" UUID,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL,
    "recorded_by_key_id" TEXT NOT NULL,
    CONSTRAINT "buy_ins_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "buy_ins_amount_check" CHECK ("amount" > 0),
    CONSTRAINT "buy_ins_marker_check" CHECK (("kind" = 'MARKER') = ("marker_id" IS NOT NULL)),
    CONSTRAINT "buy_ins_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "buy_ins_patron_id_fkey" FOREIGN KEY ("patron_id") REFERENCES "patrons"("card") ON DELETE RESTRICT ON UPDATE RESTRICT,
    CONSTRAINT "buy_ins_seating_id_fkey" FOREIGN KEY ("seating_id") REFERENCES "seatings"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
    CONSTRAINT "buy_ins_marker_id_fkey" FOREIGN KEY ("marker_id") REFERENCES "markers"("id") ON DELETE RESTRICT ON UPDATE RESTRICT
);
CREATE INDEX "buy_ins_table_id_gaming_day_idx" ON "buy_ins"("table_id", "gaming_day");
CREATE INDEX "buy_ins_patron_id_idx" ON "buy_ins"("patron_id") WHERE "patron_id" IS NOT NULL;

-- The cash-transaction log: every cash in or out of a patron (or of someone unnamed) at the property.
CREATE TABLE "cash_transactions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "property_id" UUID NOT NULL,
    "patron_id" TEXT,
    "direction" "CashDirection" NOT NULL,
    "kind" "CashKind" NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "gaming_day" DATE NOT NULL,
    "table_id" UUID,
    "buy_in_id" UUID,
    "marker_payment_id" UUID,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "recorded_by_key_id" TEXT NOT NULL,
    CONSTRAINT "cash_transactions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cash_transactions_amount_check" CHECK ("amount" > 0),
    CONSTRAINT "cash_transactions_direction_check" CHECK (("direction" = 'IN') = ("kind" IN ('BUY_IN', 'MARKER_PAYMENT', 'DEPOSIT'))),
    CONSTRAINT "cash_transactions_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "cash_transactions_patron_id_fkey" FOREIGN KEY ("patron_id") REFERENCES "patrons"("card") ON DELETE RESTRICT ON UPDATE RESTRICT,
    CONSTRAINT "cash_transactions_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "cash_transactions_buy_in_id_fkey" FOREIGN KEY ("buy_in_id") REFERENCES "buy_ins"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
    CONSTRAINT "cash_transactions_marker_payment_id_fkey" FOREIGN KEY ("marker_payment_id") REFERENCES "marker_payments"("id") ON DELETE RESTRICT ON UPDATE RESTRICT
);
CREATE INDEX "cash_transactions_property_id_gaming_day_idx" ON "cash_transactions"("property_id", "gaming_day");
CREATE INDEX "cash_transactions_patron_id_gaming_day_idx" ON "cash_transactions"("patron_id", "gaming_day") WHERE "patron_id" IS NOT NULL;

CREATE TRIGGER markers_append_only BEFORE UPDATE OR DELETE ON "markers" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER marker_payments_append_only BEFORE UPDATE OR DELETE ON "marker_payments" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER buy_ins_append_only BEFORE UPDATE OR DELETE ON "buy_ins" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER cash_transactions_append_only BEFORE UPDATE OR DELETE ON "cash_transactions" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER markers_no_truncate BEFORE TRUNCATE ON "markers" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER marker_payments_no_truncate BEFORE TRUNCATE ON "marker_payments" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER buy_ins_no_truncate BEFORE TRUNCATE ON "buy_ins" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER cash_transactions_no_truncate BEFORE TRUNCATE ON "cash_transactions" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();

GRANT SELECT, INSERT ON "markers", "marker_payments", "buy_ins", "cash_transactions" TO sabot_app;
