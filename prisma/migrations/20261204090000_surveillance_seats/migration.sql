-- Unrated play examined by seat (docs/domain.md §9): an alert about wagers with no player card
-- names the table and the seat instead of a patron. Nullable and without a default, so that the
-- alerts sealed before keep their seals (a seal's image leaves NULLs out: src/ledger/seals.ts).
ALTER TABLE "surveillance_alerts" ADD COLUMN "seat" INTEGER;
-- An alert stays open while its evidence grows: the detectors look up a subject's alerts at every
-- shoe close, by patron or by table and seat.
CREATE INDEX "surveillance_alerts_table_seat_idx" ON "surveillance_alerts"("table_id", "seat") WHERE "seat" IS NOT NULL;
