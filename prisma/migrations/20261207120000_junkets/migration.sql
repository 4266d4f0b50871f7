-- Junkets (issue 38, docs/domain.md §16). A junket operator brings players to a property's VIP rooms
-- under a rolling-chip programme, on credit the casino extends to the operator (its markers); the
-- operator's own credit to its players is outside the casino's books but recorded as the junket
-- reports it. Each period (a month, usually) is settled by a statement: rolling, win/loss,
-- commission and allowances, markers issued and repaid, and the net due either way; once agreed, the
-- period is locked. Every table here is append-only and sealed by its audit entry (stream `junkets`).

CREATE TABLE "junket_operators" (
  "id" UUID NOT NULL,
  "property_id" UUID NOT NULL,
  "code" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  -- The operator's licence as the regulator numbers it (NULL: none recorded).
  "licence" TEXT,
  -- The currency of its account: its markers, repayments, statements, and the play they count.
  "currency" CHAR(3) NOT NULL,
  -- The most the operator may owe on markers (minor units of its currency).
  "credit_limit" BIGINT NOT NULL,
  "recorded_by_key_id" TEXT NOT NULL,
  "recorded_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "junket_operators_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "junket_operators_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "junket_operators_credit_limit" CHECK ("credit_limit" >= 0)
);
CREATE UNIQUE INDEX "junket_operators_code_key" ON "junket_operators" ("property_id", "code");

-- The operator's agents (who bring players); a player's membership may name one.
CREATE TABLE "junket_agents" (
  "id" UUID NOT NULL,
  "operator_id" UUID NOT NULL,
  "code" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "recorded_by_key_id" TEXT NOT NULL,
  "recorded_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "junket_agents_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "junket_agents_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "junket_operators"("id") ON DELETE RESTRICT ON UPDATE RESTRICT
);
CREATE UNIQUE INDEX "junket_agents_code_key" ON "junket_agents" ("operator_id", "code");

-- A patron's membership of a junket at a property, version by version: from a gaming day, the
-- patron plays for `operator_id` under its programme `programme_code` (through agent `agent_id`), or
-- (both NULL) for no junket. The version in force on a day is the latest effective on or before it.
CREATE TABLE "junket_memberships" (
  "id" UUID NOT NULL,
  "property_id" UUID NOT NULL,
  "patron_id" TEXT NOT NULL,
  "operator_id" UUID,
  "agent_id" UUID,
  "programme_code" TEXT,
  "effective_from" DATE NOT NULL,
  "recorded_by_key_id" TEXT NOT NULL,
  "recorded_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "junket_memberships_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "junket_memberships_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "junket_memberships_patron_id_fkey" FOREIGN KEY ("patron_id") REFERENCES "patrons"("card") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "junket_memberships_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "junket_operators"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "junket_memberships_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "junket_agents"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "junket_memberships_joined_or_left" CHECK (("operator_id" IS NULL) = ("programme_code" IS NULL) AND ("agent_id" IS NULL OR "operator_id" IS NOT NULL))
);
CREATE UNIQUE INDEX "junket_memberships_version_key" ON "junket_memberships" ("property_id", "patron_id", "effective_from");
CREATE INDEX "junket_memberships_operator_idx" ON "junket_memberships" ("operator_id");

-- The operator's account with the casino, entry by entry, in its currency. Positive balance: the
-- operator owes the casino.
--   MARKER      credit the casino extends (+)
--   REPAYMENT   the operator pays on its markers (−)
--   PAYOUT      the casino pays the operator what it is owed (+)
--   SETTLEMENT  a statement agreed: its commission and allowances credited (− their sum; a share of a
--               loss is a negative commission, so this entry may be either sign), written with the lock
CREATE TYPE "JunketEntryKind" AS ENUM ('MARKER', 'REPAYMENT', 'PAYOUT', 'SETTLEMENT');

CREATE TABLE "junket_account_entries" (
  "id" UUID NOT NULL,
  "operator_id" UUID NOT NULL,
  "kind" "JunketEntryKind" NOT NULL,
  -- Minor units, as a magnitude (the kind gives the direction) except SETTLEMENT (signed: the credit).
  "amount" BIGINT NOT NULL,
  "currency" CHAR(3) NOT NULL,
  -- How it was paid (CASH, CHIPS, CHECK, WIRE), for REPAYMENT and PAYOUT.
  "method" TEXT,
  -- The statement a SETTLEMENT entry credits.
  "statement_id" UUID,
  "gaming_day" DATE NOT NULL,
  "at" TIMESTAMPTZ(3) NOT NULL,
  "recorded_by_key_id" TEXT NOT NULL,
  CONSTRAINT "junket_account_entries_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "junket_account_entries_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "junket_operators"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "junket_account_entries_amount" CHECK ("kind" = 'SETTLEMENT' OR "amount" > 0),
  CONSTRAINT "junket_account_entries_method" CHECK (("method" IS NOT NULL) = ("kind" IN ('REPAYMENT', 'PAYOUT'))),
  CONSTRAINT "junket_account_entries_statement" CHECK (("statement_id" IS NOT NULL) = ("kind" = 'SETTLEMENT'))
);
CREATE INDEX "junket_account_entries_operator_day_idx" ON "junket_account_entries" ("operator_id", "gaming_day");
CREATE UNIQUE INDEX "junket_account_entries_statement_key" ON "junket_account_entries" ("statement_id");

-- Credit the operator gives its players and their repayments, as the junket reports them: outside the
-- casino's books, kept beside them (ADVANCE, REPAYMENT).
CREATE TABLE "junket_player_credit" (
  "id" UUID NOT NULL,
  "operator_id" UUID NOT NULL,
  "patron_id" TEXT NOT NULL,
  "kind" TEXT NOT NULL,
  "amount" BIGINT NOT NULL,
  "currency" CHAR(3) NOT NULL,
  "gaming_day" DATE NOT NULL,
  "recorded_by_key_id" TEXT NOT NULL,
  "recorded_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "junket_player_credit_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "junket_player_credit_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "junket_operators"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "junket_player_credit_patron_id_fkey" FOREIGN KEY ("patron_id") REFERENCES "patrons"("card") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "junket_player_credit_kind" CHECK ("kind" IN ('ADVANCE', 'REPAYMENT')),
  CONSTRAINT "junket_player_credit_amount" CHECK ("amount" > 0)
);
CREATE INDEX "junket_player_credit_operator_day_idx" ON "junket_player_credit" ("operator_id", "gaming_day");

-- A statement agreed: the period it covers (gaming days, both ends in), its figures as agreed (the
-- canonical JSON of the statement and its SHA-256), who agreed for the casino and who signed for the
-- junket. Periods of an operator never overlap and are agreed in order; nothing that would change
-- an agreed period's figures is accepted afterwards (docs/domain.md §16).
CREATE TABLE "junket_statements" (
  "id" UUID NOT NULL,
  "operator_id" UUID NOT NULL,
  "from_day" DATE NOT NULL,
  "to_day" DATE NOT NULL,
  "figures" JSONB NOT NULL,
  "digest" TEXT NOT NULL,
  "junket_signatory" TEXT NOT NULL,
  "agreed_by_key_id" TEXT NOT NULL,
  "agreed_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "junket_statements_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "junket_statements_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "junket_operators"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT "junket_statements_period" CHECK ("from_day" <= "to_day")
);
CREATE UNIQUE INDEX "junket_statements_period_key" ON "junket_statements" ("operator_id", "from_day");

DO $$
DECLARE
  t TEXT;
BEGIN
  FOREACH t IN ARRAY ARRAY['junket_operators', 'junket_agents', 'junket_memberships', 'junket_account_entries', 'junket_player_credit', 'junket_statements'] LOOP
    EXECUTE format('CREATE TRIGGER %I BEFORE UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change()', t || '_append_only', t);
    EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change()', t || '_no_truncate', t);
    EXECUTE format('GRANT SELECT, INSERT ON %I TO sabot_app', t);
  END LOOP;
END $$;
