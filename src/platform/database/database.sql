-- The database layer's own statements. Parameters are named (:name); named-sql.ts turns them into $1….
--
-- Idempotency-Key records: a record is written once, whole, by the transaction that makes the
-- change the request asked for (or, for a request that changes nothing, after it has answered),
-- never as a claim ahead of it. So a record without its answer cannot outlive a transaction that
-- died, and no request ever waits on one. Two requests with one key are ordered by the key's unique
-- index: the second to write waits for the first's transaction to end; if that committed, the second
-- fails on the key (unique_violation: its whole change rolls back, and the interceptor answers with
-- the stored answer); if it died, the second writes. A change is never made twice.

-- name: findAnswer
-- The record of a key, if any. `stale`: a record without an answer, written by an earlier release's
-- claim (claims no longer exist), older than any transaction may run.
SELECT id, request_hash AS "requestHash", status_code AS "statusCode", response_body::text AS "responseBody", completed_at IS NOT NULL AS answered,
       completed_at IS NULL AND created_at < now() - interval '30 seconds' AS stale
FROM idempotency_records WHERE scope = :scope AND key = :key;

-- name: dropStaleClaim
-- An earlier release's claim whose request is known dead (stale): taken over.
DELETE FROM idempotency_records WHERE id = :id::uuid AND completed_at IS NULL;

-- name: storeAnswer
-- The answer of an Idempotency-Key request, written in the transaction that made the change: the
-- change and its record commit together, or neither does. The whole-coup statement in
-- src/table-games/coups/coups.sql includes these lines (FROM its guard).
-- fragment: storeAnswer begin
INSERT INTO idempotency_records (id, scope, key, request_hash, status_code, response_body, completed_at)
SELECT :answerRecordId::uuid, :answerScope::text, :answerKey::text, :answerRequestHash::text, :answerStatus::int, :answerBody::jsonb, now()
-- fragment: storeAnswer end
;
