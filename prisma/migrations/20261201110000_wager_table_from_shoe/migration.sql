-- A wager's table is its shoe's (and, once settled, its coup's): the column kept it a second time,
-- 16 bytes a wager. The reconciliation reads the table from the coup it joins anyway.
--
-- As with any DROP COLUMN on a partitioned table, rows written before keep their bytes until their
-- month is rewritten; new rows are written without them.
ALTER TABLE "wagers" DROP COLUMN "table_id";
