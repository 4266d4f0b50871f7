-- The device gateway's statements (device-reports.service.ts): the reports a table's devices send,
-- the judge's memory of each table, and the coups it holds for the supervisor.

-- name: ensureReading
-- A table's judge memory, made the first time one of its devices reports.
INSERT INTO device_readings (table_id, state, updated_at) VALUES (:tableId::uuid, :state::jsonb, now()) ON CONFLICT (table_id) DO NOTHING;

-- name: lockReading
-- The table's judge memory, locked until the report is kept: one report of a table judged at a time.
SELECT state FROM device_readings WHERE table_id = :tableId::uuid FOR UPDATE;

-- name: readReading
SELECT state FROM device_readings WHERE table_id = :tableId::uuid;

-- name: saveReading
UPDATE device_readings SET state = :state::jsonb, updated_at = now() WHERE table_id = :tableId::uuid;

-- name: lastSeq
-- The last report kept from a device (0: none yet): its next report carries this plus one.
SELECT coalesce(max(seq), 0)::text AS seq FROM device_reports WHERE key_id = :keyId::uuid AND refused IS NULL;

-- name: keptReport
-- A report of this device with this number, kept already (a report sent again after a reconnect).
SELECT id FROM device_reports WHERE key_id = :keyId::uuid AND seq = :seq::bigint AND refused IS NULL;

-- name: keepReport
INSERT INTO device_reports (id, key_id, table_id, seq, received_at, report, refused)
VALUES (:id::uuid, :keyId::uuid, :tableId::uuid, :seq::bigint, now(), :report::jsonb, :refused::text);

-- name: hold
INSERT INTO device_holds (id, table_id, reason, detail, report_id, held_at) VALUES (:id::uuid, :tableId::uuid, :reason, :detail, :reportId::uuid, now());

-- name: holdsOf
-- A table's holds, those still open first, then the latest cleared.
SELECT h.id, h.table_id AS "tableId", h.reason, h.detail, h.report_id AS "reportId", h.held_at AS "heldAt", h.cleared_at AS "clearedAt",
       h.cleared_by_key_id AS "clearedByKeyId", r.key_id AS "keyId", r.seq::text AS seq
FROM device_holds h JOIN device_reports r ON r.id = h.report_id
WHERE h.table_id = :tableId::uuid
ORDER BY h.cleared_at IS NULL DESC, h.held_at DESC
LIMIT 200;

-- name: clearHold
UPDATE device_holds SET cleared_at = now(), cleared_by_key_id = :keyId WHERE id = :id::uuid AND cleared_at IS NULL
RETURNING id, table_id AS "tableId", reason, cleared_at AS "clearedAt";

-- name: refusedOf
-- A table's refused reports, the latest first.
SELECT id, key_id AS "keyId", seq::text AS seq, received_at AS "receivedAt", report, refused
FROM device_reports WHERE table_id = :tableId::uuid AND refused IS NOT NULL
ORDER BY received_at DESC LIMIT 200;

-- name: openShoe
SELECT id FROM shoes WHERE table_id = :tableId::uuid AND status = 'OPEN' ORDER BY number DESC LIMIT 1;
