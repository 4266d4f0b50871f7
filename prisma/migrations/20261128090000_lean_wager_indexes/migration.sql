-- Bytes per wager (issue 20, docs/scaling.md): two of the wagers' indexes held an entry for every
-- wager ever written, though what they serve concerns a handful.
--
-- A shoe's carried bets (open wagers not yet on a coup) were found through (shoe_id, status): an
-- entry for every settled wager too, 10 bytes a wager. Only open wagers are ever looked for there.
DROP INDEX "wagers_shoe_id_status_idx";
CREATE INDEX "wagers_open_by_shoe_idx" ON "wagers"("shoe_id") WHERE "status" = 'OPEN';

-- A wager is carried at most once: unique among the wagers that carry one, without an entry for the
-- NULL of every other wager (6 bytes a wager).
DROP INDEX "wagers_carried_from_id_key";
CREATE UNIQUE INDEX "wagers_carried_from_id_key" ON "wagers"("carried_from_id") WHERE "carried_from_id" IS NOT NULL;
