-- Finance: rollups maintained in the settlement transaction, and table accounting.

-- Per table, gaming day and bet type: the wager-level figures of settled, unvoided wagers.
CREATE TABLE "wager_rollups" (
    "table_id" UUID NOT NULL,
    "gaming_day" DATE NOT NULL,
    "bet_type" "BetType" NOT NULL,
    "wagers" BIGINT NOT NULL DEFAULT 0,
    "handle" BIGINT NOT NULL DEFAULT 0,
    "payouts" BIGINT NOT NULL DEFAULT 0,
    "commission" BIGINT NOT NULL DEFAULT 0,
    "commission_collected" BIGINT NOT NULL DEFAULT 0,
    "customer_net" BIGINT NOT NULL DEFAULT 0,
    "wins" BIGINT NOT NULL DEFAULT 0,
    "losses" BIGINT NOT NULL DEFAULT 0,
    "pushes" BIGINT NOT NULL DEFAULT 0,
    -- Σ stake × house edge × 10^12 (the engine's exact edge, quantised to 10^-12)
    "theo_e12" NUMERIC(40, 0) NOT NULL DEFAULT 0,
    CONSTRAINT "wager_rollups_pkey" PRIMARY KEY ("table_id", "gaming_day", "bet_type")
);
CREATE INDEX "wager_rollups_gaming_day_idx" ON "wager_rollups"("gaming_day");
ALTER TABLE "wager_rollups" ADD CONSTRAINT "wager_rollups_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Per table and gaming day: coups, outcomes and the money of every bet type together.
CREATE TABLE "table_day_rollups" (
    "table_id" UUID NOT NULL,
    "gaming_day" DATE NOT NULL,
    "coups" BIGINT NOT NULL DEFAULT 0,
    "banker_wins" BIGINT NOT NULL DEFAULT 0,
    "player_wins" BIGINT NOT NULL DEFAULT 0,
    "ties" BIGINT NOT NULL DEFAULT 0,
    "naturals" BIGINT NOT NULL DEFAULT 0,
    "wagers" BIGINT NOT NULL DEFAULT 0,
    "handle" BIGINT NOT NULL DEFAULT 0,
    "payouts" BIGINT NOT NULL DEFAULT 0,
    "commission" BIGINT NOT NULL DEFAULT 0,
    "commission_collected" BIGINT NOT NULL DEFAULT 0,
    "customer_net" BIGINT NOT NULL DEFAULT 0,
    "theo_e12" NUMERIC(40, 0) NOT NULL DEFAULT 0,
    CONSTRAINT "table_day_rollups_pkey" PRIMARY KEY ("table_id", "gaming_day")
);
CREATE INDEX "table_day_rollups_gaming_day_idx" ON "table_day_rollups"("gaming_day");
ALTER TABLE "table_day_rollups" ADD CONSTRAINT "table_day_rollups_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Per table, month (its first gaming day) and bet type: for bet-type reports over whole months.
CREATE TABLE "month_rollups" (
    "table_id" UUID NOT NULL,
    "month" DATE NOT NULL,
    "bet_type" "BetType" NOT NULL,
    "wagers" BIGINT NOT NULL DEFAULT 0,
    "handle" BIGINT NOT NULL DEFAULT 0,
    "payouts" BIGINT NOT NULL DEFAULT 0,
    "commission" BIGINT NOT NULL DEFAULT 0,
    "commission_collected" BIGINT NOT NULL DEFAULT 0,
    "customer_net" BIGINT NOT NULL DEFAULT 0,
    "wins" BIGINT NOT NULL DEFAULT 0,
    "losses" BIGINT NOT NULL DEFAULT 0,
    "pushes" BIGINT NOT NULL DEFAULT 0,
    "theo_e12" NUMERIC(40, 0) NOT NULL DEFAULT 0,
    CONSTRAINT "month_rollups_pkey" PRIMARY KEY ("table_id", "month", "bet_type")
);
CREATE INDEX "month_rollups_month_idx" ON "month_rollups"("month");
ALTER TABLE "month_rollups" ADD CONSTRAINT "month_rollups_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- When a commission collection happened, for its gaming day.
ALTER TABLE "commission_entries" ADD COLUMN "gaming_day" DATE;

CREATE TYPE "SessionStatus" AS ENUM ('OPEN', 'CLOSED');
CREATE TYPE "SlipKind" AS ENUM ('FILL', 'CREDIT');

-- A table's session (a gaming day or a shift): opener and closer inventory, drop.
CREATE TABLE "table_sessions" (
    "id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "gaming_day" DATE NOT NULL,
    "shift" TEXT NOT NULL DEFAULT '',
    "status" "SessionStatus" NOT NULL DEFAULT 'OPEN',
    "opener" JSONB NOT NULL,
    "opener_total" BIGINT NOT NULL CHECK ("opener_total" >= 0),
    "closer" JSONB,
    "closer_total" BIGINT CHECK ("closer_total" >= 0),
    "drop_amount" BIGINT CHECK ("drop_amount" >= 0),
    "opened_by_key_id" TEXT NOT NULL,
    "closed_by_key_id" TEXT,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),
    CONSTRAINT "table_sessions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "table_sessions_table_day_shift_key" ON "table_sessions"("table_id", "gaming_day", "shift");
CREATE UNIQUE INDEX "table_sessions_one_open_per_table" ON "table_sessions"("table_id") WHERE "status" = 'OPEN';
CREATE INDEX "table_sessions_gaming_day_idx" ON "table_sessions"("gaming_day");
ALTER TABLE "table_sessions" ADD CONSTRAINT "table_sessions_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Fills and credits, numbered in sequence per property, year and kind.
CREATE TABLE "table_slips" (
    "id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "kind" "SlipKind" NOT NULL,
    "year" INTEGER NOT NULL,
    "number" INTEGER NOT NULL CHECK ("number" > 0),
    "chips" JSONB NOT NULL,
    "amount" BIGINT NOT NULL CHECK ("amount" > 0),
    "gaming_day" DATE NOT NULL,
    "created_by_key_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "table_slips_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "table_slips_property_year_kind_number_key" ON "table_slips"("property_id", "year", "kind", "number");
CREATE INDEX "table_slips_session_id_idx" ON "table_slips"("session_id");
ALTER TABLE "table_slips" ADD CONSTRAINT "table_slips_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "table_sessions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "slip_voids" (
    "id" UUID NOT NULL,
    "slip_id" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "voided_by_key_id" TEXT NOT NULL,
    "voided_by_role" "Role" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "slip_voids_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "slip_voids_slip_id_key" ON "slip_voids"("slip_id");
ALTER TABLE "slip_voids" ADD CONSTRAINT "slip_voids_slip_id_fkey" FOREIGN KEY ("slip_id") REFERENCES "table_slips"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The last slip number given per property, year and kind.
CREATE TABLE "slip_counters" (
    "property_id" UUID NOT NULL,
    "year" INTEGER NOT NULL,
    "kind" "SlipKind" NOT NULL,
    "last_number" INTEGER NOT NULL,
    CONSTRAINT "slip_counters_pkey" PRIMARY KEY ("property_id", "year", "kind")
);
