-- What a Prometheus scrape reads from the database (src/operations/metrics/metrics.collector.ts). Each is a
-- scan of audit_heads (one row per stream) and one index look-up per stream behind.
-- Parameters are named (:name); src/platform/database/named-sql.ts turns them into $1….

-- name: outboxBacklog
-- The event outbox: audit entries not yet published to NATS, and the age of the oldest of them
-- (the first entry after each stream's cursor). 0 and 0 when the relay has caught up.
SELECT coalesce(sum(h.seq - coalesce(c.seq, 0)), 0)::bigint::text AS entries,
       coalesce(extract(epoch FROM now() - min(e.at)), 0)::float8 AS oldest_seconds
FROM audit_heads h
LEFT JOIN event_relay_cursors c ON c.stream = h.stream
LEFT JOIN LATERAL (
  SELECT a.at FROM audit_log a WHERE a.stream = h.stream AND a.seq > coalesce(c.seq, 0) ORDER BY a.seq LIMIT 1
) e ON true
WHERE h.seq > coalesce(c.seq, 0);

-- name: surveillanceBacklog
-- Surveillance: the table streams' entries the surveyor has not read yet (as its pendingEntries
-- reads them), and the age of the oldest.
SELECT coalesce(sum(h.seq - coalesce(c.seq, 0)), 0)::bigint::text AS entries,
       coalesce(extract(epoch FROM now() - min(e.at)), 0)::float8 AS oldest_seconds
FROM audit_heads h
LEFT JOIN surveillance_cursors c ON c.stream = h.stream
LEFT JOIN LATERAL (
  SELECT a.at FROM audit_log a WHERE a.stream = h.stream AND a.seq > coalesce(c.seq, 0) ORDER BY a.seq LIMIT 1
) e ON true
WHERE h.seq > coalesce(c.seq, 0) AND h.stream NOT IN ('admin', 'surveillance');
