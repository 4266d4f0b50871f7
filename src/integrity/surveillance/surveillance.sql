-- Integrity surveillance: the worker's reads and writes, and the alerts' queries.
-- Parameters are named (:name); src/platform/database/named-sql.ts turns them into $1….

-- name: pendingEntries
-- Table streams' audit entries the worker has not read yet, each stream from its cursor on, in
-- chain order (only streams whose head has moved past their cursor are read).
SELECT a.stream, a.seq::text AS seq, a.action, a.entity_id
FROM audit_heads h
LEFT JOIN surveillance_cursors c ON c.stream = h.stream
CROSS JOIN LATERAL (
  SELECT e.id, e.stream, e.seq, e.action, e.entity_id FROM audit_log e
  WHERE e.stream = h.stream AND e.seq > coalesce(c.seq, 0)
  ORDER BY e.seq
  LIMIT :perStream::int
) a
WHERE h.seq > coalesce(c.seq, 0) AND h.stream NOT IN ('admin', 'surveillance', 'relay')
ORDER BY a.id
LIMIT :batch::int;

-- name: advanceCursors
-- Records streams' entries as read, each up to its seq (never backwards), with the cursor's MAC
-- under the audit key (src/foundation/ledger/progress.ts cursorMac).
INSERT INTO surveillance_cursors AS c (stream, seq, updated_at, mac, mac_key)
SELECT u.stream, u.seq, now(), u.mac, :macKey::text FROM unnest(:streams::text[], :seqs::bigint[], :macs::text[]) AS u(stream, seq, mac)
ON CONFLICT (stream) DO UPDATE SET seq = EXCLUDED.seq, mac = EXCLUDED.mac, mac_key = EXCLUDED.mac_key, updated_at = now()
WHERE EXCLUDED.seq > c.seq;

-- name: surveyorCursors
-- Every cursor with its MAC: the surveyor trusts only those that hold.
SELECT stream, seq::text AS seq, mac, mac_key FROM surveillance_cursors;

-- name: resetSurveyorCursor
-- A cursor whose MAC does not hold, set back to where the surveyor's keyed record says it read.
INSERT INTO surveillance_cursors AS c (stream, seq, updated_at, mac, mac_key) VALUES (:stream, :seq::bigint, now(), :mac, :macKey)
ON CONFLICT (stream) DO UPDATE SET seq = EXCLUDED.seq, mac = EXCLUDED.mac, mac_key = EXCLUDED.mac_key, updated_at = now();

-- name: surveyorAdopted
-- Whether the surveyor has recorded the state it found at its first start (survey.adopt).
SELECT 1 AS adopted FROM audit_log WHERE entity_type = 'surveyor' AND entity_id = 'adopt' LIMIT 1;

-- name: keySurveyorCursors
-- The surveyorCursors found at the first start, keyed (until then they had no MAC).
UPDATE surveillance_cursors c SET mac = u.mac, mac_key = :macKey::text
FROM unnest(:streams::text[], :macs::text[]) AS u(stream, mac) WHERE c.stream = u.stream;

-- name: surveyedShoes
-- Every shoe the surveyor's working copies hold rows of (its first start: what it finds is recorded).
SELECT shoe_id::text AS shoe_id FROM coup_surveillance UNION SELECT shoe_id::text FROM shoe_runs ORDER BY 1;

-- name: surveyedImages
-- These shoes' rows of the surveyor's working copies, as their digests read them
-- (src/foundation/ledger/progress.ts surveyedImage, under its IMAGE_SETTINGS).
SELECT 'coup_surveillance' AS tab, t.shoe_id::text AS shoe_id, jsonb_strip_nulls(to_jsonb(t))::text AS image
FROM coup_surveillance t WHERE t.shoe_id = ANY(:shoeIds::uuid[])
UNION ALL
SELECT 'shoe_runs', t.shoe_id::text, jsonb_strip_nulls(to_jsonb(t))::text
FROM shoe_runs t WHERE t.shoe_id = ANY(:shoeIds::uuid[]);

-- name: lastRead
-- Where the surveyor's keyed record says it read a stream to: its latest pass naming the stream.
SELECT payload FROM audit_log
WHERE stream = 'surveillance' AND entity_type = 'surveyor' AND action IN ('survey.pass', 'survey.adopt') AND payload LIKE '%' || :quoted::text || '%'
ORDER BY seq DESC LIMIT 1;

-- name: claimSurveyor
-- One surveyor at a time across the service's instances: its connection holds this lock for as
-- long as it lives (a surveyor that dies, or loses its connection, lets another take over).
SELECT pg_try_advisory_lock(hashtext('sabot:surveillance')) AS mine;

-- name: tableTerms
-- A table's rules, as the engine reads them (src/foundation/pit/table-rules.ts, rulesOf).
SELECT id, variant::text AS variant, decks, commission_bps AS "commissionBps", tie_bets_stay AS "tieBetsStay",
  side_bets::text[] AS "sideBets", pays, perfect_pair_both_pays AS "perfectPairBothPays",
  rounding_mode AS "roundingMode", rounding_unit AS "roundingUnit"
FROM casino_tables WHERE id = :tableId::uuid;

-- name: shoeOf
SELECT table_id, burn_cards, status::text AS status FROM shoes WHERE id = :shoeId::uuid;

-- name: coupsToSurvey
-- Settled coups with what surveillance needs around them: the shoe, the table's property, whether
-- the coup was voided since, and the dealer on shift when it opened (the table's latest shift begun
-- by then, unless that dealer had taken another table in between).
SELECT c.id, c.shoe_id, c.table_id, c.number, c.status::text AS status, c.player_cards, c.banker_cards,
  c.gaming_day::text AS gaming_day, (v.coup_id IS NOT NULL) AS voided,
  s.decks, s.burn_cards, t.property_id, d.dealer_id
FROM coups c
JOIN shoes s ON s.id = c.shoe_id
JOIN casino_tables t ON t.id = c.table_id
LEFT JOIN coup_voids v ON v.coup_id = c.id
LEFT JOIN LATERAL (
  SELECT ds.dealer_id FROM dealer_shifts ds
  WHERE ds.table_id = c.table_id AND ds.started_at <= c.opened_at
    AND NOT EXISTS (
      SELECT 1 FROM dealer_shifts o
      WHERE o.dealer_id = ds.dealer_id AND o.table_id <> ds.table_id AND o.started_at >= ds.started_at AND o.started_at <= c.opened_at
    )
  ORDER BY ds.started_at DESC, ds.id DESC
  LIMIT 1
) d ON true
WHERE c.id = ANY(:coupIds::uuid[]);

-- name: lastCoupToSurvey
-- A shoe's last settled coup still standing, as coupsToSurvey reads coups: where a closed shoe's
-- runs are looked for once more, and the gaming day its run alerts carry.
SELECT c.id, c.shoe_id, c.table_id, c.number, c.status::text AS status, c.player_cards, c.banker_cards,
  c.gaming_day::text AS gaming_day, false AS voided, s.decks, s.burn_cards, t.property_id, NULL::text AS dealer_id
FROM coups c
JOIN shoes s ON s.id = c.shoe_id
JOIN casino_tables t ON t.id = c.table_id
LEFT JOIN coup_voids v ON v.coup_id = c.id
WHERE c.shoe_id = :shoeId::uuid AND c.status = 'SETTLED' AND v.coup_id IS NULL
ORDER BY c.number DESC
LIMIT 1;

-- name: tablePropertyOf
SELECT property_id FROM casino_tables WHERE id = :tableId::uuid;

-- name: shoeCoups
-- A shoe's settled coups, in order, up to a number: its cards as dealt. A voided coup's cards stay
-- dealt (they lie in the discard rack) unless the void put them back (keyed at the wrong table:
-- cards_returned true, or a void recorded before voids said, null).
SELECT c.number, c.player_cards, c.banker_cards
FROM coups c
LEFT JOIN coup_voids v ON v.coup_id = c.id
WHERE c.shoe_id = :shoeId::uuid AND c.status = 'SETTLED' AND (v.coup_id IS NULL OR v.cards_returned = false) AND c.number <= :upTo::int
ORDER BY c.number;

-- name: insertCoupSurveys
-- Each coup's packed odds are one slice of :odds (77 numbers each, in the coups' order).
INSERT INTO coup_surveillance (coup_id, table_id, shoe_id, gaming_day, dealer_id, first_value, odds_packed)
SELECT u.coup_id, u.table_id, u.shoe_id, u.gaming_day, u.dealer_id, u.first_value,
  (:odds::float8[])[(u.n::int - 1) * :oddsLength::int + 1 : u.n::int * :oddsLength::int]
FROM unnest(:coupIds::uuid[], :tableIds::uuid[], :shoeIds::uuid[], :gamingDays::date[], :dealerIds::text[], :firstValues::int[])
  WITH ORDINALITY AS u(coup_id, table_id, shoe_id, gaming_day, dealer_id, first_value, n)
ON CONFLICT (coup_id) DO NOTHING
-- Each row written, as its digest reads it (src/foundation/ledger/progress.ts surveyedImage).
RETURNING shoe_id::text AS shoe_id, jsonb_strip_nulls(to_jsonb(coup_surveillance))::text AS image;

-- name: runHits
-- The shoes holding any of these windows of 8 cards, with their property.
SELECT r.key::text AS key, r.shoe_id, r.position, t.property_id
FROM shoe_runs r
JOIN shoes s ON s.id = r.shoe_id
JOIN casino_tables t ON t.id = s.table_id
WHERE r.key = ANY(:keys::bigint[]);

-- name: indexedPlaces
-- How many places the run index holds for the property (a shoe of n cards dealt holds n − 7).
SELECT coalesce(sum(greatest(s.cards_dealt - 7, 0)), 0)::text AS places
FROM shoes s JOIN casino_tables t ON t.id = s.table_id
WHERE t.property_id = :propertyId::uuid;

-- name: insertRuns
-- The windows indexed, each row written as its digest reads it (src/foundation/ledger/progress.ts surveyedImage).
INSERT INTO shoe_runs (key, shoe_id, position)
SELECT * FROM unnest(:keys::bigint[], :shoeIds::uuid[], :positions::int[])
ON CONFLICT DO NOTHING
RETURNING shoe_id::text AS shoe_id, jsonb_strip_nulls(to_jsonb(shoe_runs))::text AS image;

-- name: patronsOfShoe
-- The patrons who played a shoe (wagers settled on coups still standing), and its last gaming day:
-- the shoe's coups, then their wagers (the wagers keep no index by shoe but for open ones).
SELECT DISTINCT w.patron_id, c.gaming_day::text AS gaming_day, t.property_id
FROM wagers w
JOIN coups c ON c.id = w.coup_id AND c.gaming_day = w.gaming_day
JOIN casino_tables t ON t.id = c.table_id
LEFT JOIN coup_voids v ON v.coup_id = c.id
WHERE c.shoe_id = :shoeId::uuid AND w.patron_id IS NOT NULL AND w.status = 'SETTLED' AND v.coup_id IS NULL;

-- name: seatsOfShoe
-- The seats where a shoe was played without a player card (unrated play), and its last gaming day.
SELECT DISTINCT w.seat, c.gaming_day::text AS gaming_day
FROM wagers w
JOIN coups c ON c.id = w.coup_id AND c.gaming_day = w.gaming_day
LEFT JOIN coup_voids v ON v.coup_id = c.id
WHERE c.shoe_id = :shoeId::uuid AND w.patron_id IS NULL AND w.status = 'SETTLED' AND v.coup_id IS NULL;

-- name: subjectRecord
-- A patron's record at the property (or, with :patronId null, a seat's unrated play at a table)
-- over the gaming days from :fromDay to :toDay: each coup surveillance has seen, in the order it was
-- settled, with its first card, dealer, where it was (table, shoe and coup numbers, cards,
-- currency), and the subject's wagers on it (its odds: oddsOf, for those the surveyor does not hold).
SELECT cs.coup_id, cs.shoe_id, cs.table_id, cs.dealer_id, cs.first_value,
  c.number AS coup_number, s.number AS shoe_number, t.code AS table_code, t.currency,
  c.player_cards, c.banker_cards, (extract(epoch FROM c.settled_at) * 1000)::float8 AS settled_ms,
  json_agg(json_build_object('betType', w.bet_type, 'stake', w.amount::text, 'result', w.result, 'net', w.net::text) ORDER BY w.id) AS wagers
FROM wagers w
JOIN coup_surveillance cs ON cs.coup_id = w.coup_id
JOIN coups c ON c.id = cs.coup_id AND c.gaming_day = cs.gaming_day
JOIN shoes s ON s.id = cs.shoe_id
JOIN casino_tables t ON t.id = cs.table_id
LEFT JOIN coup_voids v ON v.coup_id = w.coup_id
WHERE t.property_id = :propertyId::uuid
  AND cs.gaming_day BETWEEN :fromDay::date AND :toDay::date AND w.gaming_day BETWEEN :fromDay::date AND :toDay::date
  AND ((:patronId::text IS NOT NULL AND w.patron_id = :patronId::text)
    OR (:patronId::text IS NULL AND w.patron_id IS NULL AND cs.table_id = :tableId::uuid AND w.seat = :seat::int))
  AND w.status = 'SETTLED' AND v.coup_id IS NULL
GROUP BY cs.coup_id, cs.shoe_id, cs.table_id, cs.dealer_id, cs.first_value, cs.created_at,
  c.number, s.number, t.code, t.currency, c.player_cards, c.banker_cards, c.settled_at
ORDER BY c.settled_at, cs.created_at, cs.coup_id;

-- name: oddsOf
-- The odds these coups were played at, as surveillance stored them.
SELECT coup_id, odds, odds_packed FROM coup_surveillance WHERE coup_id = ANY(:coupIds::uuid[]);

-- name: subjectAlerts
-- A patron's (or a table seat's) record alerts, each with its dealer and when it was closed (null
-- while open): an open alert grows its evidence; after a closed one its detector reads only the
-- coups settled after the close.
SELECT a.id, a.kind, a.dealer_id, (extract(epoch FROM max(st.at) FILTER (WHERE st.step = 'CLOSE')) * 1000)::float8 AS closed_ms
FROM surveillance_alerts a
LEFT JOIN surveillance_alert_steps st ON st.alert_id = a.id
WHERE a.kind <> 'REPEATED_RUN'
  AND ((:patronId::text IS NOT NULL AND a.patron_id = :patronId::text)
    OR (:patronId::text IS NULL AND a.patron_id IS NULL AND a.table_id = :tableId::uuid AND a.seat = :seat::int))
GROUP BY a.id
ORDER BY a.created_at;

-- name: recentShoes
-- The table's shoes dealt before this one, latest first (a slug comes from their discards), with
-- how many places each holds in the run index.
SELECT s.id, greatest(s.cards_dealt - 7, 0) AS places
FROM shoes s
WHERE s.table_id = :tableId::uuid AND s.number < (SELECT number FROM shoes WHERE id = :shoeId::uuid)
ORDER BY s.number DESC
LIMIT :limit::int;

-- name: raiseAlert
-- An alert, once (the dedupe key names what it is about: a later pass over the same evidence adds nothing).
INSERT INTO surveillance_alerts (kind, severity, p_value, threshold, table_id, shoe_id, patron_id, dealer_id, seat, gaming_day, evidence, dedupe_key)
VALUES (:kind, :severity, :pValue::float8, :threshold::float8, :tableId::uuid, :shoeId::uuid, :patronId, :dealerId, :seat::int, :gamingDay::date, :evidence::jsonb, :dedupeKey)
ON CONFLICT (dedupe_key) DO NOTHING
RETURNING id;

-- name: listAlerts
-- Alerts newest first, filtered; each with its status (OPEN, ACKNOWLEDGED, CLOSED) from its steps.
SELECT * FROM (
  SELECT a.id, a.kind, a.severity, a.p_value, a.threshold, a.table_id, a.shoe_id, a.patron_id, a.dealer_id, a.seat,
    to_char(a.gaming_day, 'YYYY-MM-DD') AS gaming_day, a.evidence, a.created_at,
    (SELECT coalesce(json_agg(json_build_object('at', e.at, 'data', e.payload::jsonb -> 'data') ORDER BY e.seq), '[]')
     FROM audit_log e WHERE e.entity_type = 'alert' AND e.entity_id = a.id::text AND e.action = 'alert.evidence') AS updates,
    CASE WHEN bool_or(s.step = 'CLOSE') THEN 'CLOSED' WHEN bool_or(s.step = 'ACKNOWLEDGE') THEN 'ACKNOWLEDGED' ELSE 'OPEN' END AS status,
    coalesce(json_agg(json_build_object('step', s.step, 'note', s.note, 'keyId', s.key_id, 'at', s.at) ORDER BY s.at) FILTER (WHERE s.id IS NOT NULL), '[]') AS steps
  FROM surveillance_alerts a
  LEFT JOIN surveillance_alert_steps s ON s.alert_id = a.id
  WHERE (:id::uuid IS NULL OR a.id = :id::uuid)
    AND (:kind::text IS NULL OR a.kind = :kind::text)
    AND (:tableId::uuid IS NULL OR a.table_id = :tableId::uuid)
    AND (:shoeId::uuid IS NULL OR a.shoe_id = :shoeId::uuid)
    AND (:patronId::text IS NULL OR a.patron_id = :patronId::text)
    AND (:dealerId::text IS NULL OR a.dealer_id = :dealerId::text)
  GROUP BY a.id
) x
WHERE (:status::text IS NULL OR x.status = :status::text)
ORDER BY x.created_at DESC, x.id
LIMIT 500;

-- name: addStep
INSERT INTO surveillance_alert_steps (alert_id, step, note, key_id)
VALUES (:alertId::uuid, :step, :note, :keyId)
ON CONFLICT (alert_id, step) DO NOTHING
RETURNING id;

-- name: openAlertsBy
-- Alerts not yet closed, gathered by what they are about (a patron, a dealer, a table, a shoe, or a
-- table's seat for unrated play: subject "<table id>:<seat>"):
-- how many are open and acknowledged, how many HIGH, the smallest p-value, the detectors, the oldest.
-- Alerts not about such a subject (a repeated run names no patron) are left out of that view.
WITH live AS (
  SELECT a.id, a.kind, a.severity, a.p_value, a.table_id, a.shoe_id, a.patron_id, a.dealer_id, a.seat, a.created_at,
    coalesce(bool_or(st.step = 'ACKNOWLEDGE'), false) AS acknowledged
  FROM surveillance_alerts a
  LEFT JOIN surveillance_alert_steps st ON st.alert_id = a.id
  GROUP BY a.id
  HAVING NOT coalesce(bool_or(st.step = 'CLOSE'), false)
), about AS (
  SELECT live.*, CASE :by::text
      WHEN 'PATRON' THEN live.patron_id
      WHEN 'DEALER' THEN live.dealer_id
      WHEN 'TABLE' THEN live.table_id::text
      WHEN 'SEAT' THEN CASE WHEN live.seat IS NOT NULL THEN live.table_id::text || ':' || live.seat END
      ELSE live.shoe_id::text
    END AS subject
  FROM live
)
SELECT about.subject,
  CASE WHEN :by::text IN ('TABLE', 'SHOE', 'SEAT') THEN min(t.code) END AS table_code,
  CASE WHEN :by::text = 'SHOE' THEN min(s.number) END AS shoe_number,
  count(*) FILTER (WHERE NOT about.acknowledged)::int AS open,
  count(*) FILTER (WHERE about.acknowledged)::int AS acknowledged,
  count(*) FILTER (WHERE about.severity = 'HIGH')::int AS high,
  min(about.p_value) AS smallest_p_value,
  array_agg(DISTINCT about.kind ORDER BY about.kind) AS kinds,
  min(about.created_at) AS oldest_at,
  max(about.created_at) AS newest_at
FROM about
JOIN casino_tables t ON t.id = about.table_id
JOIN shoes s ON s.id = about.shoe_id
WHERE about.subject IS NOT NULL
GROUP BY about.subject
ORDER BY count(*) FILTER (WHERE about.severity = 'HIGH') DESC, min(about.p_value), about.subject
LIMIT 500;
