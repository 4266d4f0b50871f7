-- Voiding a player-banked coup, under the same two-person rule as any void. A bank's state is a
-- chain of its coups, so only the shoe's last coup can be voided: the bank goes back to the state
-- it was in before that coup (kept with the coup), and the house's commission leaves the rollups.
ALTER TYPE "VoidTarget" ADD VALUE 'BANK_COUP';

-- The bank as it was before the coup: what a void restores.
ALTER TABLE "bank_coups" ADD COLUMN "bank_state_before" JSONB NOT NULL DEFAULT '{}';

CREATE TABLE "bank_coup_voids" (
    "id" UUID NOT NULL,
    "bank_coup_id" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "voided_by_key_id" TEXT NOT NULL,
    "voided_by_role" "Role" NOT NULL,
    "approved_by_key_id" TEXT NOT NULL,
    "void_request_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "bank_coup_voids_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "bank_coup_voids_two_people" CHECK ("approved_by_key_id" <> "voided_by_key_id")
);
CREATE UNIQUE INDEX "bank_coup_voids_bank_coup_id_key" ON "bank_coup_voids"("bank_coup_id");
ALTER TABLE "bank_coup_voids" ADD CONSTRAINT "bank_coup_voids_bank_coup_id_fkey" FOREIGN KEY ("bank_coup_id") REFERENCES "bank_coups"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE TRIGGER bank_coup_voids_append_only BEFORE UPDATE OR DELETE ON "bank_coup_voids" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();

-- A closed bank stays final, except that a void of the coup that closed it reopens it.
DROP TRIGGER banks_closed_final ON "banks";
CREATE FUNCTION sabot_bank_closed_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" = 'ACTIVE' AND EXISTS (
    SELECT 1 FROM "bank_coup_voids" v JOIN "bank_coups" c ON c."id" = v."bank_coup_id"
    WHERE c."bank_id" = OLD."id" AND c."settled_at" >= OLD."closed_at" AND v."created_at" >= OLD."closed_at"
  ) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'sabot: UPDATE on banks is not allowed: bank % is closed, and only a void of the coup that closed it reopens it', OLD."id"
    USING ERRCODE = 'P0001';
END $$;
CREATE TRIGGER banks_closed_final BEFORE UPDATE ON "banks" FOR EACH ROW WHEN (OLD."status" <> 'ACTIVE') EXECUTE FUNCTION sabot_bank_closed_final();
