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
WHERE h.seq > coalesce(c.seq, 0) AND h.stream <> 'relay'
ORDER BY a.id
LIMIT :batch::int;

-- name: advanceCursors
-- Records streams' entries as published, each up to its seq (never backwards), with the cursor's
-- MAC under the audit key (src/foundation/ledger/progress.ts cursorMac).
INSERT INTO event_relay_cursors AS c (stream, seq, published_at, mac, mac_key)
SELECT u.stream, u.seq, now(), u.mac, :macKey::text FROM unnest(:streams::text[], :seqs::bigint[], :macs::text[]) AS u(stream, seq, mac)
ON CONFLICT (stream) DO UPDATE SET seq = EXCLUDED.seq, mac = EXCLUDED.mac, mac_key = EXCLUDED.mac_key, published_at = now()
WHERE EXCLUDED.seq > c.seq;

-- name: relayCursors
-- Every cursor with its MAC: the relay publishes on only from those that hold.
SELECT stream, seq::text AS seq, mac, mac_key FROM event_relay_cursors;

-- name: resetRelayCursor
-- A cursor whose MAC does not hold, set back to where the relay's keyed record says it published.
INSERT INTO event_relay_cursors AS c (stream, seq, published_at, mac, mac_key) VALUES (:stream, :seq::bigint, now(), :mac, :macKey)
ON CONFLICT (stream) DO UPDATE SET seq = EXCLUDED.seq, mac = EXCLUDED.mac, mac_key = EXCLUDED.mac_key, published_at = now();

-- name: relayAdopted
-- Whether the relay has recorded the relayCursors it found at its first start (relay.adopt).
SELECT 1 AS adopted FROM audit_log WHERE entity_type = 'relay' AND entity_id = 'adopt' LIMIT 1;

-- name: keyRelayCursors
-- The relayCursors found at the first start, keyed (until then they had no MAC).
UPDATE event_relay_cursors c SET mac = u.mac, mac_key = :macKey::text
FROM unnest(:streams::text[], :macs::text[]) AS u(stream, mac) WHERE c.stream = u.stream;

-- name: relayPublishedTo
-- How far the relay's keyed record says it published a stream.
SELECT coalesce(max((payload::jsonb -> 'data' -> 'published' ->> :stream::text)::bigint), 0)::text AS seq
FROM audit_log WHERE stream = 'relay' AND entity_type = 'relay' AND action IN ('relay.progress', 'relay.adopt') AND payload LIKE '%' || :quoted::text || '%';

-- name: streamHeads
-- How far each of these streams has gone (the live feeds' check for news without NATS).
SELECT stream, seq::text AS seq FROM audit_heads WHERE stream = ANY(:streams::text[]);

-- name: streamEntries
-- One stream's entries after a position, in order: a live feed's backlog and its gap filler.
SELECT seq::text AS seq, payload FROM audit_log
WHERE stream = :stream AND seq > :after::bigint
ORDER BY seq
LIMIT :limit::int;
