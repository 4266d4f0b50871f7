-- The player-banked games (chemin de fer, baccarat banque): banks held by a seat, their coups, and
-- the house's commission in the table-day rollups as its own revenue line.

-- A bank: who holds it, from which seat, and its running state. The state changes coup after coup
-- (under the shoe's lock); every coup's before/after is kept, unchangeable, in bank_coups.
CREATE TABLE "banks" (
    "id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "shoe_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "game" "Variant" NOT NULL,
    "banker_seat" INTEGER NOT NULL,
    "rotation" INTEGER[] NOT NULL,
    "how" TEXT NOT NULL,
    "opened_with" BIGINT NOT NULL,
    "stake" BIGINT NOT NULL,
    "set_aside" BIGINT NOT NULL DEFAULT 0,
    "commission" BIGINT NOT NULL DEFAULT 0,
    "banco_suivi" INTEGER,
    "standing" JSONB,
    "stakes_accepted" BOOLEAN NOT NULL DEFAULT false,
    "coups" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'ACTIVE',
    "offer" BIGINT,
    "next_banker" INTEGER,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),
    "opened_by_key_id" TEXT NOT NULL,
    CONSTRAINT "banks_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "banks_game_check" CHECK ("game" IN ('CHEMIN_DE_FER', 'BANQUE')),
    CONSTRAINT "banks_status_check" CHECK ("status" IN ('ACTIVE', 'PASSED', 'RETIRED', 'BROKE', 'SHOE_CLOSED')),
    -- "stake" goes below zero only in banque with the stakes accepted: the banker paid the rest himself.
    CONSTRAINT "banks_money_check" CHECK ("opened_with" > 0 AND "set_aside" >= 0 AND "commission" >= 0)
);
CREATE UNIQUE INDEX "banks_shoe_id_number_key" ON "banks"("shoe_id", "number");
CREATE UNIQUE INDEX "banks_one_active_per_shoe" ON "banks"("shoe_id") WHERE "status" = 'ACTIVE';
ALTER TABLE "banks" ADD CONSTRAINT "banks_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "banks" ADD CONSTRAINT "banks_shoe_id_fkey" FOREIGN KEY ("shoe_id") REFERENCES "shoes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A coup against a bank, as settled: never changed nor deleted.
CREATE TABLE "bank_coups" (
    "id" UUID NOT NULL,
    "bank_id" UUID NOT NULL,
    "shoe_id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "gaming_day" DATE NOT NULL,
    "cards" JSONB NOT NULL,
    "outcome" JSONB NOT NULL,
    "banker_seat" INTEGER NOT NULL,
    "bank_before" BIGINT NOT NULL,
    "covered" BIGINT NOT NULL,
    "set_aside" BIGINT NOT NULL,
    "commission" BIGINT NOT NULL,
    "bank_after" BIGINT,
    "next_banker" INTEGER,
    "punters" JSONB NOT NULL,
    "settled_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by_key_id" TEXT NOT NULL,
    CONSTRAINT "bank_coups_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "bank_coups_commission_check" CHECK ("commission" >= 0)
);
CREATE UNIQUE INDEX "bank_coups_shoe_id_number_key" ON "bank_coups"("shoe_id", "number");
CREATE INDEX "bank_coups_table_id_gaming_day_idx" ON "bank_coups"("table_id", "gaming_day");
CREATE INDEX "bank_coups_bank_id_idx" ON "bank_coups"("bank_id");
ALTER TABLE "bank_coups" ADD CONSTRAINT "bank_coups_bank_id_fkey" FOREIGN KEY ("bank_id") REFERENCES "banks"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "bank_coups" ADD CONSTRAINT "bank_coups_shoe_id_fkey" FOREIGN KEY ("shoe_id") REFERENCES "shoes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "bank_coups" ADD CONSTRAINT "bank_coups_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "casino_tables"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE TRIGGER bank_coups_append_only BEFORE UPDATE OR DELETE ON "bank_coups" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
-- A closed bank is final.
CREATE TRIGGER banks_closed_final BEFORE UPDATE ON "banks" FOR EACH ROW WHEN (OLD."status" <> 'ACTIVE') EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER banks_no_delete BEFORE DELETE ON "banks" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();

-- The house's commission from the player-banked games, per table and gaming day.
ALTER TABLE "table_day_rollups" ADD COLUMN "banked_coups" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "table_day_rollups" ADD COLUMN "house_commission" BIGINT NOT NULL DEFAULT 0;
