-- Patrons and rated play. Parameters are named (:name); src/platform/database/named-sql.ts turns them into $1….

-- name: ratedPlay
-- A patron's rated play on the period's gaming days (at one property or all), in one statement (one
-- snapshot), each part as one JSON array of positional rows (JSON is parsed natively; arrays of
-- columns were measured slower): the patron rollups summed over visits per day, table and bet type:
-- [day, table, bet, wagers, handle, net, theo]; the coups and their variance of the whole play
-- (seating key ffffffff-…) per day: [day, coups, var]; the times the card was in, for the seatings
-- begun on those days: [day, started, ended]. A void has already taken its coup out. The visits
-- themselves are read a page at a time (visitsPage). Null `card`: no such patron.
SELECT (SELECT card FROM patrons WHERE card = :card::text) AS card,
  (SELECT coalesce(json_agg(json_build_array(g.gaming_day, g.table_id, g.bet_type, g.wagers, g.handle::text, g.net::text, g.theo::text)), '[]'::json)
   FROM (SELECT r.gaming_day, r.table_id, r.bet_type, sum(r.wagers) AS wagers, sum(r.handle) AS handle, sum(r.customer_net) AS net, sum(r.theo_e12) AS theo
         FROM patron_rollups r
         WHERE r.patron_id = :card::text AND r.gaming_day BETWEEN :from::date AND :to::date
           AND (:propertyId::uuid IS NULL OR r.table_id IN (SELECT t.id FROM casino_tables t WHERE t.property_id = :propertyId::uuid))
         GROUP BY r.gaming_day, r.table_id, r.bet_type) g) AS sums,
  (SELECT coalesce(json_agg(json_build_array(g.gaming_day, g.coups, g.var::text)), '[]'::json)
   FROM (SELECT r.gaming_day, sum(r.coups) AS coups, sum(r.var_e12) AS var
         FROM patron_coup_rollups r
         WHERE r.patron_id = :card::text AND r.seating_key = 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid AND r.gaming_day BETWEEN :from::date AND :to::date
           AND (:propertyId::uuid IS NULL OR r.table_id IN (SELECT t.id FROM casino_tables t WHERE t.property_id = :propertyId::uuid))
         GROUP BY r.gaming_day) g) AS coups,
  (SELECT coalesce(json_agg(json_build_array(s.gaming_day, s.started_at, s.ended_at)), '[]'::json)
   FROM seatings s
   WHERE s.patron_id = :card::text AND s.gaming_day BETWEEN :from::date AND :to::date
     AND (:propertyId::uuid IS NULL OR s.table_id IN (SELECT t.id FROM casino_tables t WHERE t.property_id = :propertyId::uuid))) AS seatings;

-- name: visitsPage
-- A page of a patron's visits (seatings begun on the period's gaming days, at one property or all),
-- oldest first, after the visit `after` (none: from the first), `limit` of them and one more to tell
-- whether another page follows; with each visit's play on those days from the patron rollups:
-- [visit, table, bet, wagers, handle, net, theo] and [visit, coups, var]. `after_found` is false when
-- `after` is not a visit of this patron. Null `card`: no such patron.
WITH page AS (
  SELECT s.id, s.patron_id, s.table_id, s.seat, s.gaming_day::text AS gaming_day, s.started_at, s.ended_at, s.started_by_key_id, s.ended_by_key_id
  FROM seatings s
  WHERE s.patron_id = :card::text AND s.gaming_day BETWEEN :from::date AND :to::date
    AND (:propertyId::uuid IS NULL OR s.table_id IN (SELECT t.id FROM casino_tables t WHERE t.property_id = :propertyId::uuid))
    AND (:after::uuid IS NULL OR (s.started_at, s.id) > (SELECT a.started_at, a.id FROM seatings a WHERE a.id = :after::uuid AND a.patron_id = :card::text))
  ORDER BY s.started_at, s.id
  LIMIT :limit::int + 1
)
SELECT (SELECT card FROM patrons WHERE card = :card::text) AS card,
  (:after::uuid IS NULL OR EXISTS (SELECT 1 FROM seatings a WHERE a.id = :after::uuid AND a.patron_id = :card::text)) AS after_found,
  (SELECT coalesce(json_agg(p ORDER BY p.started_at, p.id), '[]'::json) FROM page p) AS seatings,
  (SELECT coalesce(json_agg(json_build_array(r.seating_key, r.table_id, r.bet_type, r.wagers, r.handle::text, r.customer_net::text, r.theo_e12::text)), '[]'::json)
   FROM patron_rollups r
   WHERE r.seating_key = ANY(ARRAY(SELECT id FROM page)) AND r.patron_id = :card::text AND r.gaming_day BETWEEN :from::date AND :to::date) AS sums,
  (SELECT coalesce(json_agg(json_build_array(r.seating_key, r.coups, r.var_e12::text)), '[]'::json)
   FROM patron_coup_rollups r
   WHERE r.seating_key = ANY(ARRAY(SELECT id FROM page)) AND r.patron_id = :card::text AND r.gaming_day BETWEEN :from::date AND :to::date) AS coups;

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
-- A table's seatings: those open now, or every one begun on a gaming day; with each the play of its
-- settled wagers on coups not voided (the coups played and the handle: the seat map's average bet).
SELECT s.id, s.patron_id, s.table_id, s.seat, s.gaming_day::text AS gaming_day, s.started_at, s.ended_at, s.started_by_key_id, s.ended_by_key_id,
       p.coups, p.handle
FROM seatings s
CROSS JOIN LATERAL (
  SELECT count(DISTINCT w.coup_id)::int AS coups, coalesce(sum(w.amount), 0)::text AS handle
  FROM wagers w
  WHERE w.seating_id = s.id AND w.status = 'SETTLED' AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = w.coup_id)
) p
WHERE s.table_id = :tableId::uuid
  AND (CASE WHEN :gamingDay::date IS NULL THEN s.ended_at IS NULL ELSE s.gaming_day = :gamingDay::date END)
ORDER BY s.started_at, s.id;

-- name: lockPatron
-- Card-ins of one patron, one after another (two tables cannot seat the same card at once).
SELECT pg_advisory_xact_lock(hashtextextended('sabot:patron:' || :card::text, 0));

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
