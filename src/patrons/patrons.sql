-- Patrons and rated play. Parameters are named (:name); src/database/named-sql.ts turns them into $1….

-- name: ratedPlay
-- A patron's rated play on the period's gaming days (at one property or all), in one statement (one
-- snapshot), each part as one JSON array of positional rows (a whale's year is thousands of rows;
-- JSON is parsed natively, arrays of columns were measured slower): the patron rollups per day,
-- table, visit and bet type (a void has already taken its coup out): [day, table, visit, bet,
-- wagers, handle, net, theo]; the coups and their variance per visit and, under the seating key
-- ffffffff-…, once per patron: [day, visit, coups, var]; the seatings begun on those days. A
-- visit's figures are its play on those days. Null `card`: no such patron.
SELECT (SELECT card FROM patrons WHERE card = :card::text) AS card,
  (SELECT coalesce(json_agg(json_build_array(r.gaming_day, r.table_id, r.seating_key, r.bet_type, r.wagers, r.handle::text, r.customer_net::text,
                                             r.theo_e12::text)), '[]'::json)
   FROM patron_rollups r
   WHERE r.patron_id = :card::text AND r.gaming_day BETWEEN :from::date AND :to::date
     AND (:propertyId::uuid IS NULL OR r.table_id IN (SELECT t.id FROM casino_tables t WHERE t.property_id = :propertyId::uuid))) AS sums,
  (SELECT coalesce(json_agg(json_build_array(r.gaming_day, r.seating_key, r.coups, r.var_e12::text)), '[]'::json)
   FROM patron_coup_rollups r
   WHERE r.patron_id = :card::text AND r.gaming_day BETWEEN :from::date AND :to::date
     AND (:propertyId::uuid IS NULL OR r.table_id IN (SELECT t.id FROM casino_tables t WHERE t.property_id = :propertyId::uuid))) AS coups,
  (SELECT coalesce(json_agg(s ORDER BY s.started_at, s.id), '[]'::json)
   FROM seatings s
   WHERE s.patron_id = :card::text AND s.gaming_day BETWEEN :from::date AND :to::date
     AND (:propertyId::uuid IS NULL OR s.table_id IN (SELECT t.id FROM casino_tables t WHERE t.property_id = :propertyId::uuid))) AS seatings;

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

-- name: topPatrons
-- The patrons of the most theoretical win over the period (at one property or all), their play per
-- table and bet type.
WITH ranked AS (
  SELECT r.patron_id, sum(r.theo_e12) AS theo
  FROM patron_rollups r
  WHERE r.gaming_day BETWEEN :from::date AND :to::date
    AND (:propertyId::uuid IS NULL OR r.table_id IN (SELECT t.id FROM casino_tables t WHERE t.property_id = :propertyId::uuid))
  GROUP BY r.patron_id
  ORDER BY theo DESC, r.patron_id
  LIMIT :limit::int
)
SELECT r.patron_id, r.table_id, r.bet_type, sum(r.wagers)::int AS wagers, sum(r.handle)::text AS handle, sum(r.customer_net)::text AS net,
       sum(r.theo_e12)::text AS theo
FROM patron_rollups r JOIN ranked k ON k.patron_id = r.patron_id
WHERE r.gaming_day BETWEEN :from::date AND :to::date
  AND (:propertyId::uuid IS NULL OR r.table_id IN (SELECT t.id FROM casino_tables t WHERE t.property_id = :propertyId::uuid))
GROUP BY r.patron_id, r.table_id, r.bet_type;

-- name: patronsCoups
-- These patrons' coups and their variance over the period (each coup once per patron).
SELECT r.patron_id, sum(r.coups)::int AS coups, sum(r.var_e12)::text AS var
FROM patron_coup_rollups r
WHERE r.patron_id = ANY(:cards::text[]) AND r.seating_key = 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid
  AND r.gaming_day BETWEEN :from::date AND :to::date
  AND (:propertyId::uuid IS NULL OR r.table_id IN (SELECT t.id FROM casino_tables t WHERE t.property_id = :propertyId::uuid))
GROUP BY r.patron_id;

-- name: patronsSeatings
-- These patrons' seatings begun on the period's gaming days.
SELECT s.id, s.patron_id, s.table_id, s.seat, s.gaming_day::text AS gaming_day, s.started_at, s.ended_at, s.started_by_key_id, s.ended_by_key_id
FROM seatings s
WHERE s.patron_id = ANY(:cards::text[]) AND s.gaming_day BETWEEN :from::date AND :to::date
  AND (:propertyId::uuid IS NULL OR s.table_id IN (SELECT t.id FROM casino_tables t WHERE t.property_id = :propertyId::uuid));
