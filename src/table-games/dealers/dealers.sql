-- Dealer rotations. Parameters are named (:name); src/platform/database/named-sql.ts turns them into $1….

-- name: shiftsOfTable
-- A table's shifts, oldest first, each with its end (shiftEnd).
SELECT s.id, s.table_id, s.dealer_id, s.started_at, s.recorded_by_key_id,
-- include: ../../foundation/pit/pit.sql shiftEnd
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
