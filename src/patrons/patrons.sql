-- Patrons and rated play. Parameters are named (:name); src/database/named-sql.ts turns them into $1….

-- name: ratedWagers
-- A patron's settled wagers on coups of the period's gaming days that stand (a void takes its
-- coup's wagers out of every rating, including one read before the void), at one property or all.
SELECT w.coup_id, w.table_id, w.seating_id, w.bet_type, w.amount::text AS amount, w.net::text AS net, c.gaming_day::text AS gaming_day
FROM wagers w
JOIN coups c ON c.id = w.coup_id
WHERE w.patron_id = :card
  AND w.status = 'SETTLED'
  AND c.gaming_day BETWEEN :from::date AND :to::date
  AND (:propertyId::uuid IS NULL OR w.table_id IN (SELECT t.id FROM casino_tables t WHERE t.property_id = :propertyId::uuid))
  AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = w.coup_id);

-- name: seatingsOf
-- A patron's seatings begun on the period's gaming days (at one property or all), oldest first.
SELECT s.id, s.patron_id, s.table_id, s.seat, s.gaming_day::text AS gaming_day, s.started_at, s.ended_at, s.started_by_key_id, s.ended_by_key_id
FROM seatings s
WHERE s.patron_id = :card
  AND s.gaming_day BETWEEN :from::date AND :to::date
  AND (:propertyId::uuid IS NULL OR s.table_id IN (SELECT t.id FROM casino_tables t WHERE t.property_id = :propertyId::uuid))
ORDER BY s.started_at, s.id;

-- name: openSeatingsOf
-- Where a patron's card is in now.
SELECT s.id, s.patron_id, s.table_id, s.seat, s.gaming_day::text AS gaming_day, s.started_at, s.ended_at, s.started_by_key_id, s.ended_by_key_id
FROM seatings s
WHERE s.patron_id = :card AND s.ended_at IS NULL
ORDER BY s.started_at, s.id;

-- name: seatingById
SELECT s.id, s.patron_id, s.table_id, s.seat, s.gaming_day::text AS gaming_day, s.started_at, s.ended_at, s.started_by_key_id, s.ended_by_key_id
FROM seatings s WHERE s.id = :id::uuid;

-- name: seatingsOfTable
-- A table's seatings: those open now, or every one begun on a gaming day.
SELECT s.id, s.patron_id, s.table_id, s.seat, s.gaming_day::text AS gaming_day, s.started_at, s.ended_at, s.started_by_key_id, s.ended_by_key_id
FROM seatings s
WHERE s.table_id = :tableId::uuid
  AND (CASE WHEN :gamingDay::date IS NULL THEN s.ended_at IS NULL ELSE s.gaming_day = :gamingDay::date END)
ORDER BY s.started_at, s.id;

-- name: lockPatron
-- Card-ins of one patron, one after another (two tables cannot seat the same card at once).
SELECT pg_advisory_xact_lock(hashtextextended('sabot:patron:' || :card::text, 0));

-- name: moveOpenShoe
-- A card in or out changes whose the table's next wagers are: the version of its open shoe moves, so
-- that a coup computed before it (CoupsService's optimistic path) is computed again.
UPDATE shoes SET status = status WHERE table_id = :tableId::uuid AND status = 'OPEN';
