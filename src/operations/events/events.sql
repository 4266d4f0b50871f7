-- The event relay's queries. Parameters are named (:name); src/platform/database/named-sql.ts turns them into $1….

-- name: pendingEntries
-- Audit entries not yet published: only streams whose head has moved past their cursor are read
-- (audit_heads holds one row per stream), each from its cursor on, in chain order.
SELECT a.stream, a.seq::text AS seq, a.payload
FROM audit_heads h
LEFT JOIN event_relay_cursors c ON c.stream = h.stream
CROSS JOIN LATERAL (
  SELECT e.id, e.stream, e.seq, e.payload FROM audit_log e
  WHERE e.stream = h.stream AND e.seq > coalesce(c.seq, 0)
  ORDER BY e.seq
  LIMIT :perStream::int
) a
WHERE h.seq > coalesce(c.seq, 0)
ORDER BY a.id
LIMIT :batch::int;

-- name: advanceCursors
-- Records streams' entries as published, each up to its seq (never backwards).
INSERT INTO event_relay_cursors AS c (stream, seq, published_at)
SELECT u.stream, u.seq, now() FROM unnest(:streams::text[], :seqs::bigint[]) AS u(stream, seq)
ON CONFLICT (stream) DO UPDATE SET seq = greatest(c.seq, EXCLUDED.seq), published_at = now();

-- name: streamHeads
-- How far each of these streams has gone (the live feeds' check for news without NATS).
SELECT stream, seq::text AS seq FROM audit_heads WHERE stream = ANY(:streams::text[]);

-- name: streamEntries
-- One stream's entries after a position, in order: a live feed's backlog and its gap filler.
SELECT seq::text AS seq, payload FROM audit_log
WHERE stream = :stream AND seq > :after::bigint
ORDER BY seq
LIMIT :limit::int;
