-- The yield advisor's history (src/finance/reports/yield.ts; docs/domain.md §15). Parameters are named
-- (:name); src/platform/database/named-sql.ts turns them into $1…. Hours are the property's local hours;
-- a week is seven days of the local calendar from the start of the range's first gaming day (wall-clock
-- days: a week across a change of the clocks is still seven local days).

-- name: yieldProperty
-- The property, how many tables it has and of which variants (their seats), and their currencies.
SELECT p.id::text AS id, count(t.id)::int AS tables,
       coalesce(array_agg(DISTINCT t.variant::text) FILTER (WHERE t.id IS NOT NULL), '{}') AS variants,
       coalesce(array_agg(DISTINCT t.currency::text) FILTER (WHERE t.id IS NOT NULL), '{}') AS currencies
FROM properties p LEFT JOIN casino_tables t ON t.property_id = p.id
WHERE p.id = :propertyId::uuid
GROUP BY p.id;

-- name: yieldSlots
-- Every local hour of the range, as its hour of the week (0: Monday 00:00) and its week.
WITH p AS (
  SELECT p.time_zone AS tz,
         (:from::date + make_interval(hours => p.gaming_day_start_hour)) AT TIME ZONE p.time_zone AS w0,
         least((:to::date + 1 + make_interval(hours => p.gaming_day_start_hour)) AT TIME ZONE p.time_zone, :asOf::timestamptz) AS w1
  FROM properties p WHERE p.id = :propertyId::uuid
)
SELECT DISTINCT ((extract(isodow FROM h.start AT TIME ZONE p.tz) - 1) * 24 + extract(hour FROM h.start AT TIME ZONE p.tz))::int AS hour_of_week,
       floor(extract(epoch FROM (h.start AT TIME ZONE p.tz) - (p.w0 AT TIME ZONE p.tz)) / 604800)::int AS week
FROM p CROSS JOIN LATERAL generate_series(p.w0, p.w1 - interval '1 microsecond', interval '1 hour') AS h(start)
ORDER BY week, hour_of_week;

-- name: yieldCells
-- Per table, local hour of the range and minimum in force: the seconds it stood open (its table
-- sessions), and its coups with their share of the rollup of their table, gaming day and change of
-- limits (limit_rollups: player decisions, handle, theo × 10^12), shared by coups.
WITH p AS (
  SELECT p.id, p.time_zone AS tz,
         (:from::date + make_interval(hours => p.gaming_day_start_hour)) AT TIME ZONE p.time_zone AS w0,
         least((:to::date + 1 + make_interval(hours => p.gaming_day_start_hour)) AT TIME ZONE p.time_zone, :asOf::timestamptz) AS w1
  FROM properties p WHERE p.id = :propertyId::uuid
), t AS (
  SELECT t.id, t.min_bet FROM casino_tables t JOIN p ON t.property_id = p.id
), lv AS (
  -- Each table's minimum over time: its opening minimum until its first change, each change until the next.
  SELECT t.id AS table_id, 0 AS seq, t.min_bet,
         tstzrange(NULL, (SELECT min(c.effective_at) FROM table_limits c WHERE c.table_id = t.id)) AS span
  FROM t
  UNION ALL
  SELECT c.table_id, c.seq, c.min_bet, tstzrange(c.effective_at, lead(c.effective_at) OVER (PARTITION BY c.table_id ORDER BY c.seq))
  FROM table_limits c JOIN t ON t.id = c.table_id
), op AS (
  -- Each table session's open time within the range (a session still open: to the range's end; one
  -- opened days before the range counts from its start).
  SELECT s.table_id, tstzrange(greatest(s.opened_at, p.w0), least(coalesce(s.closed_at, p.w1), p.w1)) AS r
  FROM table_sessions s JOIN t ON t.id = s.table_id CROSS JOIN p
  WHERE s.gaming_day <= :to::date + 1 AND coalesce(s.closed_at, 'infinity') > p.w0
    AND greatest(s.opened_at, p.w0) < least(coalesce(s.closed_at, p.w1), p.w1)
), ol AS (
  SELECT op.table_id, lv.seq, lv.min_bet, op.r * lv.span AS r
  FROM op JOIN lv ON lv.table_id = op.table_id AND op.r && lv.span
), ot AS (
  -- The open time by minimum and local hour, in seconds.
  SELECT ol.table_id, ol.seq, h.start AS slot,
         sum(extract(epoch FROM upper(ol.r * tstzrange(h.start, h.start + interval '1 hour')) - lower(ol.r * tstzrange(h.start, h.start + interval '1 hour')))) AS open_s
  FROM ol CROSS JOIN p
  CROSS JOIN LATERAL generate_series(date_trunc('hour', lower(ol.r), p.tz), upper(ol.r) - interval '1 microsecond', interval '1 hour') AS h(start)
  WHERE NOT isempty(ol.r)
  GROUP BY ol.table_id, ol.seq, h.start
), cq AS (
  -- The standing coups by table, gaming day, change of limits and quarter of an hour of their result
  -- (every time zone's offset is a whole number of quarters: the local hour is found per quarter, not per coup).
  SELECT c.table_id, c.gaming_day, c.limits_id, date_bin('15 minutes', c.settled_at, p.w0) AS q, count(*) AS coups
  FROM coups c JOIN t ON t.id = c.table_id CROSS JOIN p
  WHERE c.gaming_day BETWEEN :from::date AND :to::date AND c.status = 'SETTLED'
    AND c.settled_at >= p.w0 AND c.settled_at < p.w1
    AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
  GROUP BY 1, 2, 3, 4
), cs AS (
  -- The same by the local hour of their result.
  SELECT cq.table_id, cq.gaming_day, coalesce(l.seq, 0) AS seq, date_trunc('hour', cq.q, p.tz) AS slot, sum(cq.coups) AS coups
  FROM cq CROSS JOIN p
  LEFT JOIN table_limits l ON l.id = cq.limits_id
  GROUP BY 1, 2, 3, 4
), cp AS (
  -- Each hour's share of its table-day-level rollup, by its coups (exact over the day's hours).
  SELECT cs.table_id, cs.seq, cs.slot, sum(cs.coups) AS coups,
         sum(r.players::numeric * cs.coups / r.coups) AS players,
         sum(r.handle::numeric * cs.coups / r.coups) AS handle,
         sum(r.theo_e12 * cs.coups / r.coups) AS theo_e12
  FROM cs JOIN limit_rollups r ON r.table_id = cs.table_id AND r.gaming_day = cs.gaming_day AND r.limits_seq = cs.seq AND r.coups > 0
  GROUP BY 1, 2, 3
)
SELECT k.table_id::text AS table_id, lv.min_bet::text AS min_bet,
       ((extract(isodow FROM k.slot AT TIME ZONE p.tz) - 1) * 24 + extract(hour FROM k.slot AT TIME ZONE p.tz))::int AS hour_of_week,
       floor(extract(epoch FROM (k.slot AT TIME ZONE p.tz) - (p.w0 AT TIME ZONE p.tz)) / 604800)::int AS week,
       coalesce(ot.open_s, 0)::float8 AS open_s, coalesce(cp.coups, 0)::int AS coups, coalesce(cp.players, 0)::float8 AS players,
       round(coalesce(cp.handle, 0))::text AS handle, round(coalesce(cp.theo_e12, 0))::text AS theo_e12
FROM (SELECT table_id, seq, slot FROM ot UNION SELECT table_id, seq, slot FROM cp) k
CROSS JOIN p
JOIN lv ON lv.table_id = k.table_id AND lv.seq = k.seq
LEFT JOIN ot ON ot.table_id = k.table_id AND ot.seq = k.seq AND ot.slot = k.slot
LEFT JOIN cp ON cp.table_id = k.table_id AND cp.seq = k.seq AND cp.slot = k.slot
ORDER BY week, hour_of_week, table_id, min_bet;
