-- Sabot: initial schema (tables, shoes, coups, wagers, commission ledger, API keys, idempotency).

CREATE TYPE "Variant" AS ENUM ('COMMISSION', 'SUPER_6', 'EZ', 'CHEMIN_DE_FER', 'BANQUE');
CREATE TYPE "TableStatus" AS ENUM ('OPEN', 'CLOSED');
CREATE TYPE "ShoeStatus" AS ENUM ('OPEN', 'CLOSED');
CREATE TYPE "CoupStatus" AS ENUM ('BETTING', 'SETTLED');
CREATE TYPE "Winner" AS ENUM ('PLAYER', 'BANKER', 'TIE');
CREATE TYPE "BetType" AS ENUM ('PLAYER', 'BANKER', 'TIE', 'PLAYER_PAIR', 'BANKER_PAIR', 'EITHER_PAIR', 'PERFECT_PAIR', 'BIG', 'SMALL', 'SUPER_6', 'DRAGON_7', 'PANDA_8');
CREATE TYPE "WagerStatus" AS ENUM ('OPEN', 'SETTLED', 'WITHDRAWN');
CREATE TYPE "WagerResult" AS ENUM ('WIN', 'LOSE', 'PUSH');
CREATE TYPE "Role" AS ENUM ('TERMINAL', 'SUPERVISOR', 'FINANCE', 'AUDITOR', 'ADMIN');
CREATE TYPE "CommissionEntryKind" AS ENUM ('ACCRUAL', 'COLLECTION', 'VOID');

CREATE TABLE "properties" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "time_zone" TEXT NOT NULL,
    "gaming_day_start_hour" INTEGER NOT NULL CHECK ("gaming_day_start_hour" BETWEEN 0 AND 23),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "properties_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "properties_name_key" ON "properties"("name");

CREATE TABLE "casino_tables" (
    "id" UUID NOT NULL,
    "property_id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "pit" TEXT NOT NULL DEFAULT '',
    "variant" "Variant" NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "min_bet" BIGINT NOT NULL CHECK ("min_bet" > 0),
    "max_bet" BIGINT NOT NULL,
    "decks" INTEGER NOT NULL CHECK ("decks" BETWEEN 1 AND 8),
    "commission_bps" INTEGER NOT NULL CHECK ("commission_bps" BETWEEN 0 AND 10000),
    "tie_bets_stay" BOOLEAN NOT NULL,
    "side_bets" "BetType"[],
    "pays" JSONB NOT NULL DEFAULT '{}',
    "perfect_pair_both_pays" TEXT,
    "bet_limits" JSONB NOT NULL DEFAULT '{}',
    "rounding_mode" TEXT NOT NULL,
    "rounding_unit" INTEGER NOT NULL CHECK ("rounding_unit" > 0),
    "status" "TableStatus" NOT NULL DEFAULT 'OPEN',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "casino_tables_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "casino_tables_bets_check" CHECK ("max_bet" >= "min_bet")
);
CREATE UNIQUE INDEX "casino_tables_property_id_code_key" ON "casino_tables"("property_id", "code");
ALTER TABLE "casino_tables" ADD CONSTRAINT "casino_tables_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "shoes" (
    "id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "decks" INTEGER NOT NULL CHECK ("decks" BETWEEN 1 AND 8),
    "status" "ShoeStatus" NOT NULL DEFAULT 'OPEN',
    "burn_cards" TEXT[],
    "cut_card_position" INTEGER,
    "shuffle_ref" TEXT,
    "remaining" INTEGER[],
    "cards_dealt" INTEGER NOT NULL DEFAULT 0,
    "coup_count" INTEGER NOT NULL DEFAULT 0,
    "open_coup_id" UUID,
    "last_coup_number" INTEGER,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),
    CONSTRAINT "shoes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "shoes_table_id_number_key" ON "shoes"("table_id", "number");
-- One open shoe per table.
CREATE UNIQUE INDEX "shoes_one_open_per_table" ON "shoes"("table_id") WHERE "status" = 'OPEN';
ALTER TABLE "shoes" ADD CONSTRAINT "shoes_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "coups" (
    "id" UUID NOT NULL,
    "shoe_id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "number" INTEGER NOT NULL CHECK ("number" > 0),
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
    CONSTRAINT "coups_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "coups_shoe_id_number_key" ON "coups"("shoe_id", "number");
CREATE INDEX "coups_table_id_gaming_day_idx" ON "coups"("table_id", "gaming_day");
ALTER TABLE "coups" ADD CONSTRAINT "coups_shoe_id_fkey" FOREIGN KEY ("shoe_id") REFERENCES "shoes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "coup_voids" (
    "id" UUID NOT NULL,
    "coup_id" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "voided_by_key_id" TEXT NOT NULL,
    "voided_by_role" "Role" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "coup_voids_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "coup_voids_coup_id_key" ON "coup_voids"("coup_id");
ALTER TABLE "coup_voids" ADD CONSTRAINT "coup_voids_coup_id_fkey" FOREIGN KEY ("coup_id") REFERENCES "coups"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "wagers" (
    "id" UUID NOT NULL,
    "coup_id" UUID,
    "shoe_id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "seat" INTEGER NOT NULL,
    "bet_type" "BetType" NOT NULL,
    "amount" BIGINT NOT NULL CHECK ("amount" > 0),
    "patron_id" TEXT,
    "status" "WagerStatus" NOT NULL,
    "result" "WagerResult",
    "payout" BIGINT,
    "commission" BIGINT,
    "net" BIGINT,
    "carried_from_id" UUID,
    "placed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),
    CONSTRAINT "wagers_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "wagers_settled_check" CHECK ("status" <> 'SETTLED' OR ("result" IS NOT NULL AND "payout" IS NOT NULL AND "commission" IS NOT NULL AND "net" IS NOT NULL AND "coup_id" IS NOT NULL))
);
CREATE UNIQUE INDEX "wagers_carried_from_id_key" ON "wagers"("carried_from_id");
CREATE INDEX "wagers_coup_id_idx" ON "wagers"("coup_id");
CREATE INDEX "wagers_shoe_id_status_idx" ON "wagers"("shoe_id", "status");
ALTER TABLE "wagers" ADD CONSTRAINT "wagers_coup_id_fkey" FOREIGN KEY ("coup_id") REFERENCES "coups"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "wagers" ADD CONSTRAINT "wagers_shoe_id_fkey" FOREIGN KEY ("shoe_id") REFERENCES "shoes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "commission_entries" (
    "id" UUID NOT NULL,
    "shoe_id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "seat" INTEGER NOT NULL,
    "patron_id" TEXT,
    "kind" "CommissionEntryKind" NOT NULL,
    "amount" BIGINT NOT NULL,
    "coup_id" UUID,
    "wager_id" UUID,
    "created_by_key_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "commission_entries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "commission_entries_sign_check" CHECK (("kind" = 'ACCRUAL') = ("amount" > 0))
);
CREATE INDEX "commission_entries_shoe_id_seat_idx" ON "commission_entries"("shoe_id", "seat");
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_shoe_id_fkey" FOREIGN KEY ("shoe_id") REFERENCES "shoes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "table_id" UUID,
    "key_hash" TEXT NOT NULL,
    "key_prefix" TEXT NOT NULL,
    "created_by_key_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

CREATE TABLE "idempotency_records" (
    "id" UUID NOT NULL,
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status_code" INTEGER,
    "response_body" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "idempotency_records_scope_key_key" ON "idempotency_records"("scope", "key");

-- The default property: every table belongs to one, and a fresh install has this one.
INSERT INTO "properties" ("id", "name", "time_zone", "gaming_day_start_hour")
VALUES ('00000000-0000-4000-8000-000000000001', 'Default property', 'UTC', 6);
