-- The database layer's own statements. Parameters are named (:name); named-sql.ts turns them into $1….
--
-- Idempotency-Key records: a record is written once, whole, by the transaction that makes the
-- change the request asked for (or, for a request that changes nothing, after it has answered),
-- never as a claim ahead of it. So a record without its answer cannot outlive a transaction that
-- died, and no request ever waits on one. Two requests with one key are ordered by the key's unique
-- index: the second to write waits for the first's transaction to end; if that committed, the second
-- fails on the key (unique_violation: its whole change rolls back, and the interceptor answers with
-- the stored answer); if it died, the second writes. A change is never made twice. Each record
-- carries a MAC under the audit key (issue 49): one without it, or not matching it, is never replayed.

-- name: findAnswer
-- The record of a key, if any, as its MAC covers it (the answer's exact text). Every record the
-- service writes has its answer and MAC; an earlier release's claims without an answer were dropped,
-- and its answers keyed, at the first start after 20261214153710_answers_keyed
-- (src/integrity/audit/audit.service.ts adoptAnswers).
SELECT id, request_hash AS "requestHash", status_code AS "statusCode", response_body AS "responseBody", mac, mac_key AS "macKey"
FROM idempotency_records WHERE scope = :scope AND key = :key;

-- name: storeAnswer
-- The answer of an Idempotency-Key request, written in the transaction that made the change: the
-- change and its record commit together, or neither does. The answer is kept as the exact text
-- the service wrote, with its MAC under the audit key (computed outside the database). The
-- whole-coup statement in src/table-games/coups/coups.sql includes these lines (FROM its guard).
-- fragment: storeAnswer begin
INSERT INTO idempotency_records (id, scope, key, request_hash, status_code, response_body, completed_at, mac, mac_key)
SELECT :answerRecordId::uuid, :answerScope::text, :answerKey::text, :answerRequestHash::text, :answerStatus::int, :answerBody::text, now(), :answerMac::text, :answerMacKey::text
-- fragment: storeAnswer end
;
