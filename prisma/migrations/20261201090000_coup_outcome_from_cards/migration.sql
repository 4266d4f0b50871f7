-- A coup's outcome beyond its winner, totals and natural (the pairs, the perfect pairs, Dragon 7,
-- Panda 8, a Banker win on six) is a pure function of its cards (src/domain/tableau.ts outcomeOf).
-- The column kept it a second time, as JSON: about 340 bytes of a 550-byte coup row, 40 bytes a
-- wager at eight wagers a coup. The service now derives it from the cards it reads anyway.
--
-- On a partitioned table DROP COLUMN changes the catalog only: rows written before keep their bytes
-- until their month is rewritten (VACUUM FULL of the partition, or a detach and a restore); new rows
-- are written without them.
ALTER TABLE "coups" DROP COLUMN "outcome";
