-- Who is calling, as SQL. What makes an API key usable is written once, in the fragment keyValid
-- over a row `k` of api_keys: not revoked, not expired, and a person's key only while the staff
-- register holds that person active in the key's role. Every check of a key includes it: these
-- statements, the settlement statement that confirms a key recognised from memory
-- (src/table-games/coups/coups.sql), and the live feeds' look at their open streams.

-- name: authenticate
-- The caller behind a key's hash, if the key is usable.
SELECT k.id, k.role, k.table_id, k.expires_at FROM api_keys k WHERE k.key_hash = :keyHash AND
-- fragment: keyValid begin
  k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
  AND (k.staff_id IS NULL OR EXISTS (SELECT 1 FROM staff s WHERE s.staff_id = k.staff_id AND s.active AND k.role = ANY (s.roles)))
-- fragment: keyValid end
;

-- name: isValid
-- Whether a key is still usable now, with the secret it was recognised by when one is given.
SELECT 1 FROM api_keys k WHERE k.id = :keyId::uuid AND (:keyHash::text IS NULL OR k.key_hash = :keyHash) AND
-- include: access.sql keyValid
;

-- name: validHashes
-- Which of these keys' hashes are of usable keys (the live feeds' open streams).
SELECT k.key_hash FROM api_keys k WHERE k.key_hash = ANY (:keyHashes::text[]) AND
-- include: access.sql keyValid
;

-- name: bootstrapRetired
-- Whether the bootstrap key has set the casino up: administrator keys were minted for two persons.
-- A fact, once true true for good: keys are never deleted, and their person and role never change
-- (the database refuses it; a row changed around the service is a finding of the verification). So
-- no revocation, expiry or departure gives the bootstrap key its power back; the day fewer than two
-- administrators can act, break-glass does (docs/operations.md).
SELECT count(DISTINCT k.staff_id) >= 2 AS retired FROM api_keys k WHERE k.role = 'ADMIN' AND k.staff_id IS NOT NULL;

-- name: administratorsWithKeys
-- The active administrators who hold a usable administrator key of their own, leaving out one key
-- (the one about to be revoked; none when null): a key whose claim a witness confirmed, or that no
-- key on record minted (the bootstrap key, break-glass), is its person's alone (src/domain/integrity/
-- two-person.ts personsOf). Staff numbers, in order.
SELECT DISTINCT k.staff_id FROM api_keys k
WHERE k.role = 'ADMIN' AND k.staff_id IS NOT NULL AND k.id IS DISTINCT FROM :exceptKeyId::uuid
  AND (k.claim_witnessed_at IS NOT NULL OR NOT EXISTS (SELECT 1 FROM api_keys m WHERE m.id::text = k.created_by_key_id)) AND
-- include: access.sql keyValid
ORDER BY k.staff_id;
