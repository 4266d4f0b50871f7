-- Dealer rotations. Parameters are named (:name); src/platform/database/named-sql.ts turns them into $1….

-- When a shift `s` (a dealer_shifts row) ended: the table's next shift, or the moment the same dealer
-- took another table, whichever came first (null: still dealing here). The one statement of the rule,
-- included wherever a shift's end is read (the rotation below; the pace report, src/finance/reports/pace.sql).
-- fragment: shiftEnd begin
  least(
    (SELECT min(n.started_at) FROM dealer_shifts n WHERE n.table_id = s.table_id AND (n.started_at, n.id) > (s.started_at, s.id)),
    (SELECT min(o.started_at) FROM dealer_shifts o WHERE o.dealer_id = s.dealer_id AND o.table_id <> s.table_id AND o.started_at >= s.started_at)
  )
-- fragment: shiftEnd end

-- name: shiftsOfTable
-- A table's shifts, oldest first, each with its end (shiftEnd).
SELECT s.id, s.table_id, s.dealer_id, s.started_at, s.recorded_by_key_id,
-- include: dealers.sql shiftEnd
  AS ended_at
FROM dealer_shifts s
WHERE s.table_id = :tableId::uuid
ORDER BY s.started_at, s.id;

-- name: dealingNow
-- Who deals the table now: its latest shift, unless that dealer has since taken another table.
SELECT s.dealer_id
FROM dealer_shifts s
WHERE s.table_id = :tableId::uuid
  AND NOT EXISTS (SELECT 1 FROM dealer_shifts o WHERE o.dealer_id = s.dealer_id AND o.table_id <> s.table_id AND o.started_at >= s.started_at)
  AND s.started_at = (SELECT max(started_at) FROM dealer_shifts WHERE table_id = :tableId::uuid);
