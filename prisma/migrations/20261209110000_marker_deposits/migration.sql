-- Markers deposited (issue 49, docs/domain/credit.md): a marker not paid at the cage is presented to
-- the patron's bank for collection, like a cheque, under two-person approval (a credit act DEPOSIT).
-- What it owed when deposited is recorded; the bank's payment is then the cage's payment on the
-- marker (method CHECK, its reference the deposit's), and a marker the bank returns stays owed.
--
-- The enum value is added here and used only by later transactions (PostgreSQL refuses a value added
-- in the same transaction that uses it; nothing below uses it).
ALTER TYPE "CreditAct" ADD VALUE IF NOT EXISTS 'DEPOSIT';

CREATE TABLE "marker_deposits" (
  "id" UUID NOT NULL,
  "marker_id" UUID NOT NULL,
  "amount" BIGINT NOT NULL,
  "request_id" UUID NOT NULL,
  "deposited_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "marker_deposits_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "marker_deposits_marker_id_fkey" FOREIGN KEY ("marker_id") REFERENCES "markers"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "marker_deposits_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "credit_requests"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "marker_deposits_amount" CHECK ("amount" > 0)
);
CREATE UNIQUE INDEX "marker_deposits_marker_key" ON "marker_deposits" ("marker_id");
CREATE UNIQUE INDEX "marker_deposits_request_key" ON "marker_deposits" ("request_id");

CREATE TRIGGER marker_deposits_append_only BEFORE UPDATE OR DELETE ON "marker_deposits" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER marker_deposits_no_truncate BEFORE TRUNCATE ON "marker_deposits" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
GRANT SELECT, INSERT ON "marker_deposits" TO sabot_app;
