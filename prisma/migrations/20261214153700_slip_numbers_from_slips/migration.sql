-- Issue 49, finding 6: a slip's number follows the slips themselves. The counter of the last number
-- issued (per property, year and kind) was a table outside every proof: lowered, it refused new
-- slips; raised, it skipped numbers. The next number is now one past the highest of the sealed slips
-- (src/table-games/table-accounting/table-accounting.service.ts), read under a lock per property,
-- year and kind; the counter, always equal to that highest number, goes.
DROP TABLE "slip_counters";
