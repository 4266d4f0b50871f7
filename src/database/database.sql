-- The database layer's own writes. Parameters are named (:name); named-sql.ts turns them into $1….

-- name: storeAnswer
-- The answer of an Idempotency-Key request, stored in the transaction that made the change: the
-- change and its replayable answer commit together, or neither does. (The whole-coup statement in
-- src/coups/coups.sql stores its answer the same way, in its idempotent_answer step.)
UPDATE idempotency_records SET status_code = :answerStatus::int, response_body = :answerBody::jsonb, completed_at = now()
WHERE id = :answerRecordId::uuid;
