-- Rated play summed as it is settled (issue 19: a patron's year answered from a few thousand rows,
-- not from every wager). Kept by the settlement statement and the void in the same transaction as
-- the wagers, like the finance rollups (src/domain/rating.ts coupPlayDeltas says what a coup adds).
--
-- patron_rollups: per patron, gaming day, table, visit (its seating; 00000000-… for wagers in no
-- visit) and bet type: wagers, handle, the patron's net, and theo (Σ stake × the bet's exact edge,
-- × 10^12).
CREATE TABLE "patron_rollups" (
    "patron_id" TEXT NOT NULL,
    "gaming_day" DATE NOT NULL,
    "table_id" UUID NOT NULL,
    "seating_key" UUID NOT NULL,
    "bet_type" "BetType" NOT NULL,
    "wagers" BIGINT NOT NULL DEFAULT 0,
    "handle" BIGINT NOT NULL DEFAULT 0,
    "customer_net" BIGINT NOT NULL DEFAULT 0,
    "theo_e12" DECIMAL(40,0) NOT NULL DEFAULT 0,
    CONSTRAINT "patron_rollups_pkey" PRIMARY KEY ("patron_id", "gaming_day", "table_id", "seating_key", "bet_type")
);
-- patron_coup_rollups: coups played and their variance, per visit (the visit's own stakes on each
-- coup) and, under ffffffff-…, per patron, gaming day and table (each coup once, with all the
-- patron's stakes on it: one patron on two seats of one coup is one decision).
CREATE TABLE "patron_coup_rollups" (
    "patron_id" TEXT NOT NULL,
    "gaming_day" DATE NOT NULL,
    "table_id" UUID NOT NULL,
    "seating_key" UUID NOT NULL,
    "coups" BIGINT NOT NULL DEFAULT 0,
    "var_e12" DECIMAL(50,0) NOT NULL DEFAULT 0,
    CONSTRAINT "patron_coup_rollups_pkey" PRIMARY KEY ("patron_id", "gaming_day", "table_id", "seating_key")
);
CREATE INDEX "patron_rollups_gaming_day_idx" ON "patron_rollups"("gaming_day");
CREATE INDEX "patron_rollups_seating_key_idx" ON "patron_rollups"("seating_key");
CREATE INDEX "patron_coup_rollups_seating_key_idx" ON "patron_coup_rollups"("seating_key");

-- Wagers named a patron before this (a card on the wager, no seating): their sums. Theo from the
-- edge each table's finance rollups were kept with (theo_e12 ÷ handle: exact, the edge is one per
-- table and bet). Coups counted once per patron; their variance is not known here (0): a band for
-- play before this migration is not given.
WITH edges AS (
  SELECT table_id, bet_type, max(theo_e12 / handle) AS edge_e12 FROM wager_rollups WHERE handle > 0 GROUP BY table_id, bet_type
), played AS (
  SELECT w.patron_id, c.gaming_day, w.table_id, coalesce(w.seating_id, '00000000-0000-0000-0000-000000000000'::uuid) AS seating_key, w.bet_type, w.amount, w.net, w.coup_id
  FROM wagers w JOIN coups c ON c.id = w.coup_id
  WHERE w.patron_id IS NOT NULL AND w.status = 'SETTLED' AND c.gaming_day IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = w.coup_id)
)
INSERT INTO "patron_rollups" ("patron_id", "gaming_day", "table_id", "seating_key", "bet_type", "wagers", "handle", "customer_net", "theo_e12")
SELECT p.patron_id, p.gaming_day, p.table_id, p.seating_key, p.bet_type, count(*), sum(p.amount), sum(p.net), coalesce(round(sum(p.amount) * max(e.edge_e12)), 0)
FROM played p LEFT JOIN edges e ON e.table_id = p.table_id AND e.bet_type = p.bet_type
GROUP BY p.patron_id, p.gaming_day, p.table_id, p.seating_key, p.bet_type;
INSERT INTO "patron_coup_rollups" ("patron_id", "gaming_day", "table_id", "seating_key", "coups")
SELECT w.patron_id, c.gaming_day, w.table_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid, count(DISTINCT w.coup_id)
FROM wagers w JOIN coups c ON c.id = w.coup_id
WHERE w.patron_id IS NOT NULL AND w.status = 'SETTLED' AND c.gaming_day IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = w.coup_id)
GROUP BY w.patron_id, c.gaming_day, w.table_id;

GRANT SELECT, INSERT, UPDATE ON "patron_rollups", "patron_coup_rollups" TO sabot_app;
