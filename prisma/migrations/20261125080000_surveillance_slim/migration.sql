-- Surveillance writes less per coup (issue 18: the pit's cost within 5 %).
--
-- A coup's odds are stored as one row of doubles (src/domain/detectors.ts packOdds: 77 numbers,
-- 616 bytes) instead of JSON (about 1.5 kB, every number a numeric); rows written before keep their
-- JSON and are read as they are.
ALTER TABLE "coup_surveillance" ALTER COLUMN "odds" DROP NOT NULL;
ALTER TABLE "coup_surveillance" ADD COLUMN "odds_packed" DOUBLE PRECISION[];
ALTER TABLE "coup_surveillance" ADD CONSTRAINT "coup_surveillance_odds_check" CHECK (("odds" IS NULL) <> ("odds_packed" IS NULL));

-- The key to the coup goes: checking it share-locked each coup's row (a write to the coups table
-- for every coup surveyed). The surveyor writes only coups it has just read, and coups are never
-- deleted.
ALTER TABLE "coup_surveillance" DROP CONSTRAINT "coup_surveillance_coup_id_fkey";
