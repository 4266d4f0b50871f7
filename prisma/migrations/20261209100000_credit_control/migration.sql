-- The casino's credit under two-person control (issue 49, docs/domain/credit.md).
--
-- A credit act (a credit line set for a patron or a junket, a repayment over the property's
-- threshold, a marker written off, the property's credit policy) is requested by one person and
-- takes effect only when the approvals it needs are given by others: each a different person from
-- the requester and from every approver before, the last of a credit line over the threshold a
-- casino manager. Requests and decisions are written once; a request's state is read from its
-- decisions. What an approved act writes (a credit line, a write-off, a policy) names its request.

CREATE TYPE "CreditAct" AS ENUM ('LIMIT', 'REPAYMENT', 'WRITE_OFF', 'POLICY');

CREATE TABLE "credit_requests" (
  "id" UUID NOT NULL,
  "property_id" UUID NOT NULL,
  "act" "CreditAct" NOT NULL,
  -- What the act is about: a patron's card, a junket's id, a marker's id, or the property's id.
  "subject" TEXT NOT NULL,
  -- The act's terms as requested (amounts as decimal strings of minor units).
  "terms" JSONB NOT NULL,
  "reason" TEXT NOT NULL,
  -- How many approvals it needs, and the role the last one's key must hold (NULL: any allowed).
  "approvals_needed" INTEGER NOT NULL,
  "final_role" "Role",
  "requested_by_key_id" TEXT NOT NULL,
  "requested_by_role" "Role" NOT NULL,
  -- Who could hold the requesting key when it requested.
  "requester_persons" TEXT[] NOT NULL,
  "requested_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "credit_requests_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "credit_requests_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "credit_requests_approvals" CHECK ("approvals_needed" BETWEEN 1 AND 2)
);
CREATE INDEX "credit_requests_property_idx" ON "credit_requests" ("property_id", "requested_at");
CREATE INDEX "credit_requests_subject_idx" ON "credit_requests" ("subject");

-- A decision on a request: an approval or a rejection, step by step (1, 2); a rejection ends it.
CREATE TABLE "credit_decisions" (
  "id" UUID NOT NULL,
  "request_id" UUID NOT NULL,
  "step" INTEGER NOT NULL,
  "approve" BOOLEAN NOT NULL,
  "key_id" TEXT NOT NULL,
  "role" "Role" NOT NULL,
  -- Who could hold the deciding key when it decided.
  "persons" TEXT[] NOT NULL,
  "note" TEXT,
  "decided_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "credit_decisions_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "credit_decisions_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "credit_requests"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "credit_decisions_step" CHECK ("step" BETWEEN 1 AND 2)
);
CREATE UNIQUE INDEX "credit_decisions_step_key" ON "credit_decisions" ("request_id", "step");

-- A credit line in force from its approval: the most a patron (at a property, in a currency) or a
-- junket may owe the casino. The line in force is the latest approved; a patron with none has no credit.
CREATE TABLE "credit_lines" (
  "id" UUID NOT NULL,
  "property_id" UUID NOT NULL,
  "patron_id" TEXT,
  "operator_id" UUID,
  "currency" CHAR(3) NOT NULL,
  "credit_limit" BIGINT NOT NULL,
  "request_id" UUID NOT NULL,
  "approved_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "credit_lines_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "credit_lines_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "credit_lines_patron_id_fkey" FOREIGN KEY ("patron_id") REFERENCES "patrons"("card") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "credit_lines_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "junket_operators"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "credit_lines_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "credit_requests"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "credit_lines_holder" CHECK (("patron_id" IS NULL) <> ("operator_id" IS NULL)),
  CONSTRAINT "credit_lines_limit" CHECK ("credit_limit" >= 0)
);
CREATE UNIQUE INDEX "credit_lines_request_key" ON "credit_lines" ("request_id");
CREATE INDEX "credit_lines_patron_idx" ON "credit_lines" ("patron_id", "property_id", "currency");
CREATE INDEX "credit_lines_operator_idx" ON "credit_lines" ("operator_id");

-- A marker written off as uncollectable: what it still owed, no longer owed.
CREATE TABLE "marker_write_offs" (
  "id" UUID NOT NULL,
  "marker_id" UUID NOT NULL,
  "amount" BIGINT NOT NULL,
  "request_id" UUID NOT NULL,
  "written_off_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "marker_write_offs_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "marker_write_offs_marker_id_fkey" FOREIGN KEY ("marker_id") REFERENCES "markers"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "marker_write_offs_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "credit_requests"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "marker_write_offs_amount" CHECK ("amount" > 0)
);
CREATE UNIQUE INDEX "marker_write_offs_marker_key" ON "marker_write_offs" ("marker_id");
CREATE UNIQUE INDEX "marker_write_offs_request_key" ON "marker_write_offs" ("request_id");

-- The property's credit policy, version by version (the latest approved in force; none: the
-- engine's defaults): the credit line over which a casino manager signs last, the repayment over
-- which a second person approves, in the property's cash currency; and the most a rolling-chip
-- programme may pay in commission, on rolling and on win/loss.
CREATE TABLE "credit_policies" (
  "id" UUID NOT NULL,
  "property_id" UUID NOT NULL,
  "currency" CHAR(3) NOT NULL,
  "senior_limit_threshold" BIGINT NOT NULL,
  "repayment_threshold" BIGINT NOT NULL,
  "rolling_commission_cap_bps" INTEGER NOT NULL,
  "win_loss_commission_cap_bps" INTEGER NOT NULL,
  "request_id" UUID NOT NULL,
  "approved_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "credit_policies_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "credit_policies_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "credit_policies_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "credit_requests"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "credit_policies_amounts" CHECK ("senior_limit_threshold" >= 0 AND "repayment_threshold" >= 0),
  CONSTRAINT "credit_policies_caps" CHECK ("rolling_commission_cap_bps" BETWEEN 0 AND 10000 AND "win_loss_commission_cap_bps" BETWEEN 0 AND 10000)
);
CREATE UNIQUE INDEX "credit_policies_request_key" ON "credit_policies" ("request_id");
CREATE INDEX "credit_policies_property_idx" ON "credit_policies" ("property_id", "approved_at");

-- What a repayment repays: a cheque's or a wire's reference (NULL: cash, or recorded before this).
ALTER TABLE "marker_payments" ADD COLUMN "reference" TEXT;
ALTER TABLE "junket_account_entries" ADD COLUMN "reference" TEXT;
-- The request a repayment over the threshold was approved under (NULL: under the threshold).
ALTER TABLE "marker_payments" ADD COLUMN "request_id" UUID REFERENCES "credit_requests"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE "junket_account_entries" ADD COLUMN "request_id" UUID REFERENCES "credit_requests"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;
-- An approved repayment is recorded once.
CREATE UNIQUE INDEX "marker_payments_request_key" ON "marker_payments" ("request_id");
CREATE UNIQUE INDEX "junket_account_entries_request_key" ON "junket_account_entries" ("request_id");
-- Dead chips bought against a marker name it: a patron's marker written with them, within the
-- patron's credit line; or, for a junket's member, the junket whose markers they are drawn on.
ALTER TABLE "chip_exchanges" ADD COLUMN "marker_id" UUID REFERENCES "markers"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE "chip_exchanges" ADD COLUMN "junket_id" UUID REFERENCES "junket_operators"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;
CREATE INDEX "chip_exchanges_junket_idx" ON "chip_exchanges" ("junket_id") WHERE "junket_id" IS NOT NULL;
-- A marker signed at the cage (for dead chips) is at no table.
ALTER TABLE "markers" ALTER COLUMN "table_id" DROP NOT NULL;

DO $$
DECLARE
  t TEXT;
BEGIN
  FOREACH t IN ARRAY ARRAY['credit_requests', 'credit_decisions', 'credit_lines', 'marker_write_offs', 'credit_policies'] LOOP
    EXECUTE format('CREATE TRIGGER %I BEFORE UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change()', t || '_append_only', t);
    EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change()', t || '_no_truncate', t);
    EXECUTE format('GRANT SELECT, INSERT ON %I TO sabot_app', t);
  END LOOP;
END $$;
