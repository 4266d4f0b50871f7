-- A voided coup's cards stay out of its shoe: they were dealt, and lie in the discard rack (a
-- misdeal, a wrong settlement), so the shoe's cards left stay what is physically left. Only a coup
-- whose cards never came out of this shoe (keyed at the wrong table) puts them back, when the void
-- says so. NULL: a void recorded before this, which put them back.
-- Columns added to sealed tables are nullable and without a default, so that the rows sealed
-- before keep their seals (a seal's image leaves NULLs out: src/ledger/seals.ts).
ALTER TABLE "void_requests" ADD COLUMN "return_cards" BOOLEAN;
ALTER TABLE "coup_voids" ADD COLUMN "cards_returned" BOOLEAN;
