-- Reports of a range of gaming days read that range alone, however many years are kept
-- (test/e2e/years.spec.ts explains each statement the range reports send). These tables had no
-- index leading with the gaming day, so a quarter's report read every slip, every commission
-- collection, every bank coup and every patron's coup rollup ever written.
CREATE INDEX "table_slips_gaming_day_idx" ON "table_slips" ("gaming_day");
-- Collections are one row a seat a shoe; accruals, one a winning Banker bet, are never read by day.
CREATE INDEX "commission_entries_collections_by_day_idx" ON "commission_entries" ("gaming_day") WHERE "kind" = 'COLLECTION';
CREATE INDEX "bank_coups_gaming_day_idx" ON "bank_coups" ("gaming_day");
CREATE INDEX "patron_coup_rollups_gaming_day_idx" ON "patron_coup_rollups" ("gaming_day");
