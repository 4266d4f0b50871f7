-- The pace report (src/finance/reports/pace.ts; docs/domain.md §13). Parameters are named (:name);
-- src/platform/database/named-sql.ts turns them into $1…. The definitions are src/domain/finance/pace.ts's:
-- test/e2e/finance/pace.spec.ts holds this SQL to them over random records.

-- name: paceFigures
-- Staffed time, decisions, voids, misdeals and idle time for the tables asked for, over a range of
-- gaming days, summed by dealer, by table, by local hour of the day, by property and variant (with
-- the middle table-days of the variant's median), and in all; times in microseconds.
WITH t AS (
  -- The tables asked for, each with its property's window of the range: from the start of the first
  -- gaming day to the end of the last, local time, and no later than the moment of the read.
  SELECT t.id, t.code, t.pit, t.property_id, t.variant, p.time_zone AS tz, p.gaming_day_start_hour AS day_hour,
         (:from::date + make_interval(hours => p.gaming_day_start_hour)) AT TIME ZONE p.time_zone AS w0,
         least((:to::date + 1 + make_interval(hours => p.gaming_day_start_hour)) AT TIME ZONE p.time_zone, :asOf::timestamptz) AS w1,
         make_interval(secs => :allowanceSeconds::int) AS allowance
  FROM casino_tables t JOIN properties p ON p.id = t.property_id
  WHERE (:propertyId::uuid IS NULL OR t.property_id = :propertyId::uuid)
    AND (:tableId::uuid IS NULL OR t.id = :tableId::uuid)
    AND (:pit::text IS NULL OR t.pit = :pit::text)
    AND (:variant::text IS NULL OR t.variant::text = :variant::text)
), sh AS MATERIALIZED (
  -- The shifts that can reach into the window widened by the idle allowance (what came just before
  -- it decides the first gap): each table's last begun before, and those begun in it.
  SELECT s.table_id, s.dealer_id, s.started_at,
-- include: ../../foundation/pit/pit.sql shiftEnd
    AS ended_at
  FROM t CROSS JOIN LATERAL (
    (SELECT d.* FROM dealer_shifts d WHERE d.table_id = t.id AND d.started_at < t.w0 - t.allowance ORDER BY d.started_at DESC, d.id DESC LIMIT 1)
    UNION ALL
    (SELECT d.* FROM dealer_shifts d WHERE d.table_id = t.id AND d.started_at >= t.w0 - t.allowance AND d.started_at < t.w1)
  ) s
), cl AS (
  -- When each table stood closed: from a table.close entry of its audit stream to the stream's next
  -- table.reopen (none yet: closed still).
  SELECT t.id AS table_id,
         range_agg(tstzrange(c.at, CASE WHEN r.at IS NOT NULL THEN greatest(r.at, c.at) END)) AS closed
  FROM t
  JOIN audit_log c ON c.entity_type = 'table' AND c.entity_id = t.id::text AND c.action = 'table.close' AND c.at < t.w1
  LEFT JOIN LATERAL (
    SELECT a.at FROM audit_log a WHERE a.stream = c.stream AND a.seq > c.seq AND a.action = 'table.reopen' ORDER BY a.seq LIMIT 1
  ) r ON true
  WHERE r.at IS NULL OR r.at > t.w0 - t.allowance
  GROUP BY t.id
), dp AS (
  -- Each shift's staffed time in the widened window: the shift (to its end, or the window's end
  -- while the dealer still deals) less the times its table stood closed.
  SELECT sh.table_id, sh.dealer_id,
         unnest(tstzmultirange(tstzrange(greatest(sh.started_at, t.w0 - t.allowance), least(sh.ended_at, t.w1))) - coalesce(cl.closed, '{}')) AS r
  FROM sh JOIN t ON t.id = sh.table_id LEFT JOIN cl ON cl.table_id = sh.table_id
  WHERE greatest(sh.started_at, t.w0 - t.allowance) < least(sh.ended_at, t.w1)
), ts AS (
  -- A table's staffed spans: its dealers' staffed time joined (a rotation is no break).
  SELECT table_id, unnest(range_agg(r)) AS span FROM dp GROUP BY table_id
), cf AS (
  -- Every coup busy in the widened window: called (opened for betting, or recorded whole) and done
  -- (its result; a coup never dealt: its call), and what became of it: D a decision (settled and
  -- standing), V a void (settled, voided since), M a misdeal (cancelled while taking bets); a coup
  -- still taking bets is busy, and nothing yet. Player-banked coups (bank_coups) too.
  SELECT c.table_id, c.opened_at AS called, coalesce(c.settled_at, c.opened_at) AS done,
         CASE WHEN c.status = 'SETTLED' THEN (CASE WHEN v.id IS NULL THEN 'D' ELSE 'V' END) WHEN v.id IS NOT NULL THEN 'M' END AS kind
  FROM t JOIN coups c ON c.table_id = t.id
  LEFT JOIN coup_voids v ON v.coup_id = c.id
  WHERE (c.gaming_day BETWEEN :from::date - 1 AND :to::date + 1 OR c.gaming_day IS NULL)
    AND coalesce(c.settled_at, c.opened_at) >= t.w0 - t.allowance AND c.opened_at < t.w1
  UNION ALL
  SELECT b.table_id, b.settled_at, b.settled_at, CASE WHEN v.id IS NULL THEN 'D' ELSE 'V' END
  FROM t JOIN bank_coups b ON b.table_id = t.id
  LEFT JOIN bank_coup_voids v ON v.bank_coup_id = b.id
  WHERE b.gaming_day BETWEEN :from::date - 1 AND :to::date + 1 AND b.settled_at >= t.w0 - t.allowance AND b.settled_at < t.w1
), sp AS (
  -- The staffed time past the allowance after the start of each of its table's spans.
  SELECT ts.table_id, range_agg(tstzrange(lower(ts.span) + t.allowance, upper(ts.span))) AS r
  FROM ts JOIN t ON t.id = ts.table_id
  WHERE upper(ts.span) > lower(ts.span) + t.allowance
  GROUP BY ts.table_id
), cg AS (
  -- The gaps between a table's coups: before each, from the latest result before it (none: from the
  -- beginning of time); after the last, to the end of time.
  SELECT table_id, max(done) OVER w AS g0, called AS g1
  FROM cf
  WINDOW w AS (PARTITION BY table_id ORDER BY called, done ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
  UNION ALL
  SELECT table_id, max(done), NULL FROM cf GROUP BY table_id
), ca AS (
  -- The time past the allowance after the latest coup's result.
  SELECT cg.table_id, range_agg(tstzrange(cg.g0 + t.allowance, cg.g1)) AS r
  FROM cg JOIN t ON t.id = cg.table_id
  WHERE cg.g0 IS NULL OR cg.g1 IS NULL OR cg.g1 > cg.g0 + t.allowance
  GROUP BY cg.table_id
), idle AS (
  -- Idle (src/domain/finance/pace.ts idleSpans): a staffed moment past the allowance after both the start of
  -- its span and the latest coup's result before it, that is, in the part of a gap beyond the allowance.
  SELECT sp.table_id, unnest(sp.r * coalesce(ca.r, '{(,)}'::tstzmultirange)) AS r
  FROM sp LEFT JOIN ca ON ca.table_id = sp.table_id
), hp AS (
  -- The staffed time within the window, by dealer and local hour (each hour's start in the property's zone).
  SELECT dp.table_id, dp.dealer_id, h.start AS hour_start,
         dp.r * tstzrange(t.w0, t.w1) * tstzrange(h.start, h.start + interval '1 hour') AS piece
  FROM dp JOIN t ON t.id = dp.table_id
  CROSS JOIN LATERAL generate_series(date_trunc('hour', greatest(lower(dp.r), t.w0), t.tz), least(upper(dp.r), t.w1), interval '1 hour') AS h(start)
  WHERE dp.r && tstzrange(t.w0, t.w1)
), hpk AS (
  SELECT row_number() OVER () AS k, hp.* FROM hp WHERE NOT isempty(hp.piece)
), ih AS (
  -- The idle time within the window, by local hour.
  SELECT idle.table_id, h.start AS hour_start,
         idle.r * tstzrange(t.w0, t.w1) * tstzrange(h.start, h.start + interval '1 hour') AS piece
  FROM idle JOIN t ON t.id = idle.table_id
  CROSS JOIN LATERAL generate_series(date_trunc('hour', greatest(lower(idle.r), t.w0), t.tz), least(upper(idle.r), t.w1), interval '1 hour') AS h(start)
  WHERE idle.r && tstzrange(t.w0, t.w1)
), cw AS (
  -- The coups called within the window that came to something, with the local hour they were called in.
  SELECT cf.table_id, cf.called, cf.kind, date_trunc('hour', cf.called, t.tz) AS hour_start
  FROM cf JOIN t ON t.id = cf.table_id
  WHERE cf.called >= t.w0 AND cf.called < t.w1 AND cf.kind IS NOT NULL
), pi AS (
  SELECT hpk.k, sum((extract(epoch FROM upper(hpk.piece * ih.piece) - lower(hpk.piece * ih.piece)) * 1000000)::bigint) AS idle
  FROM hpk JOIN ih ON ih.table_id = hpk.table_id AND ih.hour_start = hpk.hour_start
  WHERE hpk.piece && ih.piece
  GROUP BY hpk.k
), pc AS (
  -- A coup is the dealer's whose staffed time it was called in.
  SELECT hpk.k, count(*) FILTER (WHERE cw.kind = 'D') AS decisions, count(*) FILTER (WHERE cw.kind = 'V') AS voids,
         count(*) FILTER (WHERE cw.kind = 'M') AS misdeals
  FROM hpk JOIN cw ON cw.table_id = hpk.table_id AND cw.hour_start = hpk.hour_start AND cw.called <@ hpk.piece
  GROUP BY hpk.k
), outside AS (
  -- Decisions called while no dealer's shift was staffed: the table's, counted apart.
  SELECT cw.table_id, count(*) AS n
  FROM cw
  WHERE cw.kind = 'D'
    AND NOT EXISTS (SELECT 1 FROM hpk WHERE hpk.table_id = cw.table_id AND hpk.hour_start = cw.hour_start AND cw.called <@ hpk.piece)
  GROUP BY cw.table_id
), f AS (
  SELECT hpk.table_id, hpk.dealer_id, t.property_id, t.variant,
         extract(hour FROM hpk.hour_start AT TIME ZONE t.tz)::int AS hour,
         ((hpk.hour_start AT TIME ZONE t.tz) - make_interval(hours => t.day_hour))::date AS gaming_day,
         (extract(epoch FROM upper(hpk.piece) - lower(hpk.piece)) * 1000000)::bigint AS staffed,
         coalesce(pi.idle, 0) AS idle, coalesce(pc.decisions, 0) AS decisions, coalesce(pc.voids, 0) AS voids, coalesce(pc.misdeals, 0) AS misdeals
  FROM hpk JOIN t ON t.id = hpk.table_id LEFT JOIN pi ON pi.k = hpk.k LEFT JOIN pc ON pc.k = hpk.k
), g AS (
  SELECT GROUPING(f.dealer_id, f.table_id, f.hour, f.gaming_day, f.property_id, f.variant) AS g,
         f.dealer_id, f.table_id, f.hour, f.gaming_day, f.property_id, f.variant,
         coalesce(sum(f.staffed), 0) AS staffed, coalesce(sum(f.idle), 0) AS idle, coalesce(sum(f.decisions), 0) AS decisions,
         coalesce(sum(f.voids), 0) AS voids, coalesce(sum(f.misdeals), 0) AS misdeals
  FROM f
  GROUP BY GROUPING SETS ((f.dealer_id), (f.table_id, f.property_id, f.variant), (f.hour), (f.property_id, f.variant, f.table_id, f.gaming_day),
                          (f.property_id, f.variant), ())
), td AS (
  -- Each table's gaming days of the variant, ranked by their rate (exactly: 30 decimals tell any two apart).
  SELECT g.property_id, g.variant, g.decisions, g.staffed,
         row_number() OVER (PARTITION BY g.property_id, g.variant ORDER BY (g.decisions * 3600000000)::numeric(60, 30) / g.staffed) AS i,
         count(*) OVER (PARTITION BY g.property_id, g.variant) AS n
  FROM g WHERE g.g = 40 AND g.staffed > 0
), med AS (
  -- The middle table-day (two of an even count): the median is their midpoint (src/domain/finance/pace.ts).
  SELECT td.property_id, td.variant, max(td.n) AS samples,
         max(td.decisions) FILTER (WHERE td.i = (td.n - 1) / 2 + 1) AS lo_decisions, max(td.staffed) FILTER (WHERE td.i = (td.n - 1) / 2 + 1) AS lo_staffed,
         max(td.decisions) FILTER (WHERE td.i = td.n / 2 + 1) AS hi_decisions, max(td.staffed) FILTER (WHERE td.i = td.n / 2 + 1) AS hi_staffed
  FROM td GROUP BY td.property_id, td.variant
)
SELECT CASE g.g WHEN 31 THEN 'dealer' WHEN 44 THEN 'table' WHEN 55 THEN 'hour' WHEN 60 THEN 'variant' ELSE 'total' END AS grain,
       g.dealer_id, g.table_id::text AS table_id, t.code AS table_code, t.pit, g.hour, g.property_id::text AS property_id, g.variant::text AS variant,
       g.staffed::text AS staffed, g.idle::text AS idle, g.decisions::text AS decisions, g.voids::text AS voids, g.misdeals::text AS misdeals,
       (CASE g.g WHEN 44 THEN coalesce((SELECT o.n FROM outside o WHERE o.table_id = g.table_id), 0)
                 WHEN 63 THEN coalesce((SELECT sum(o.n) FROM outside o), 0) END)::text AS outside,
       med.samples::text AS samples, med.lo_decisions::text AS lo_decisions, med.lo_staffed::text AS lo_staffed,
       med.hi_decisions::text AS hi_decisions, med.hi_staffed::text AS hi_staffed
FROM g
LEFT JOIN t ON g.g = 44 AND t.id = g.table_id
LEFT JOIN med ON g.g = 60 AND med.property_id = g.property_id AND med.variant = g.variant
WHERE g.g <> 40
UNION ALL
-- A table whose only decisions of the range were called outside any staffed time.
SELECT 'table', NULL, o.table_id::text, t.code, t.pit, NULL, t.property_id::text, t.variant::text, '0', '0', '0', '0', '0', o.n::text, NULL, NULL, NULL, NULL, NULL
FROM outside o JOIN t ON t.id = o.table_id
WHERE NOT EXISTS (SELECT 1 FROM hpk WHERE hpk.table_id = o.table_id);

-- name: paceTargetEntries
-- The properties' entries of the pace they expect (pace_targets), oldest first: the latest of each
-- variant is in force, a variant without one has the default (src/domain/finance/pace.ts expectedPaceInForce).
SELECT pt.id::text AS id, pt.property_id::text AS property_id, pt.variant::text AS variant, pt.decisions_per_hour, pt.entered_at
FROM pace_targets pt
WHERE pt.property_id = ANY (:propertyIds::uuid[])
ORDER BY pt.entered_at, pt.id;
