-- What a Prometheus scrape reads from the database (src/operations/metrics/metrics.collector.ts). Each is a
-- scan of audit_heads (one row per stream) and one index look-up per stream behind.
-- Parameters are named (:name); src/platform/database/named-sql.ts turns them into $1….

-- name: outboxCursors
-- The event outbox: each stream's head and the relay's cursor with its MAC (the scrape counts from
-- a cursor only if its MAC holds: src/foundation/ledger/progress.ts). The relay's own record of its
-- progress (the `relay` stream) is never published.
SELECT h.stream, h.seq::text AS head, c.seq::text AS seq, c.mac, c.mac_key
FROM audit_heads h
LEFT JOIN event_relay_cursors c ON c.stream = h.stream
WHERE h.stream <> 'relay';

-- name: surveillanceCursors
-- Surveillance: the table streams (as the surveyor's pendingEntries reads them), each head and the
-- surveyor's cursor with its MAC.
SELECT h.stream, h.seq::text AS head, c.seq::text AS seq, c.mac, c.mac_key
FROM audit_heads h
LEFT JOIN surveillance_cursors c ON c.stream = h.stream
WHERE h.stream NOT IN ('admin', 'surveillance', 'relay');

-- name: keyedPublishedTo
-- How far the relay's keyed record says it published a stream (for a cursor whose MAC does not hold).
SELECT coalesce(max((payload::jsonb -> 'data' -> 'published' ->> :stream::text)::bigint), 0)::text AS seq
FROM audit_log WHERE stream = 'relay' AND entity_type = 'relay' AND action IN ('relay.progress', 'relay.adopt') AND payload LIKE '%' || :quoted::text || '%';

-- name: keyedSurveyedTo
-- How far the surveyor's keyed record says it read a stream (for a cursor whose MAC does not hold).
SELECT coalesce((SELECT (payload::jsonb -> 'data' -> 'read' -> :stream::text ->> 1) FROM audit_log
  WHERE stream = 'surveillance' AND entity_type = 'surveyor' AND action IN ('survey.pass', 'survey.adopt') AND payload LIKE '%' || :quoted::text || '%' ORDER BY seq DESC LIMIT 1), '0') AS seq;

-- name: oldestAfter
-- The age of the oldest entry after each stream's position (the first after it), 0 when none waits.
SELECT coalesce(extract(epoch FROM now() - min(e.at)), 0)::float8 AS oldest_seconds
FROM unnest(:streams::text[], :seqs::bigint[]) AS u(stream, seq)
CROSS JOIN LATERAL (SELECT a.at FROM audit_log a WHERE a.stream = u.stream AND a.seq > u.seq ORDER BY a.seq LIMIT 1) e;
