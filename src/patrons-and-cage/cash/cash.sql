-- Buy-ins, markers and the cash-transaction log. Parameters are named (:name); src/platform/database/named-sql.ts
-- turns them into $1….

-- name: markersOf
-- A patron's markers, oldest first, each with its payments, a write-off, and whether its buy-in was voided.
SELECT m.id, m.patron_id, m.table_id, m.amount::text AS amount, m.currency, m.gaming_day::text AS gaming_day, m.issued_at,
       EXISTS (SELECT 1 FROM buy_ins b JOIN buy_in_voids v ON v.buy_in_id = b.id WHERE b.marker_id = m.id) AS voided,
       coalesce((SELECT w.amount FROM marker_write_offs w WHERE w.marker_id = m.id), 0)::text AS written_off,
       coalesce((SELECT json_agg(json_build_object('id', p.id, 'amount', p.amount::text, 'method', p.method, 'gamingDay', p.gaming_day::text,
                                                   'paidAt', p.paid_at, 'reference', p.reference) ORDER BY p.paid_at, p.id)
                 FROM marker_payments p WHERE p.marker_id = m.id), '[]'::json) AS payments
FROM markers m
WHERE (:patronId::text IS NULL OR m.patron_id = :patronId::text) AND (:markerId::uuid IS NULL OR m.id = :markerId::uuid)
ORDER BY m.issued_at, m.id;

-- name: cashLog
-- The property's cash transactions on the range's gaming days, and on the :lookBackDays before it
-- (for structuring across a gaming-day boundary), oldest first; a voided buy-in's cash is not among
-- them.
SELECT c.id, c.patron_id, c.direction::text AS direction, c.kind::text AS kind, c.amount::text AS amount, c.currency,
       c.gaming_day::text AS gaming_day, c.table_id, c.at
FROM cash_transactions c
WHERE c.property_id = :propertyId::uuid AND c.gaming_day BETWEEN :from::date - :lookBackDays::int AND :to::date
  AND NOT EXISTS (SELECT 1 FROM buy_in_voids v WHERE v.buy_in_id = c.buy_in_id)
ORDER BY c.at, c.id;

-- name: dropLines
-- Each table of the property and gaming day with buy-ins or a table session: the buy-ins by kind,
-- and the drop counted at the close of that day's sessions (open sessions are not counted yet). A
-- voided buy-in is not in the drop.
WITH bought AS (
  SELECT b.table_id, b.gaming_day,
         coalesce(sum(b.amount) FILTER (WHERE b.kind = 'CASH'), 0)::text AS cash,
         coalesce(sum(b.amount) FILTER (WHERE b.kind = 'MARKER'), 0)::text AS markers,
         coalesce(sum(b.amount) FILTER (WHERE b.kind = 'CHIPS'), 0)::text AS chips
  FROM buy_ins b
  WHERE b.gaming_day BETWEEN :from::date AND :to::date AND NOT EXISTS (SELECT 1 FROM buy_in_voids v WHERE v.buy_in_id = b.id)
  GROUP BY b.table_id, b.gaming_day
), counted AS (
  SELECT s.table_id, s.gaming_day, sum(s.drop_amount)::text AS counted, count(*) FILTER (WHERE s.status = 'OPEN') AS open_sessions
  FROM table_sessions s
  WHERE s.gaming_day BETWEEN :from::date AND :to::date
  GROUP BY s.table_id, s.gaming_day
)
SELECT t.id AS table_id, t.code AS table_code, t.currency, coalesce(b.gaming_day, c.gaming_day)::text AS gaming_day,
       coalesce(b.cash, '0') AS cash, coalesce(b.markers, '0') AS markers, coalesce(b.chips, '0') AS chips,
       c.counted, coalesce(c.open_sessions, 0)::int AS open_sessions
FROM bought b
FULL JOIN counted c ON c.table_id = b.table_id AND c.gaming_day = b.gaming_day
JOIN casino_tables t ON t.id = coalesce(b.table_id, c.table_id)
WHERE t.property_id = :propertyId::uuid
ORDER BY gaming_day, t.code;
