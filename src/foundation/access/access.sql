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
-- Whether two active administrators on the register hold usable administrator keys.
SELECT count(DISTINCT s.staff_id) >= 2 AS retired FROM staff s
JOIN api_keys k ON k.staff_id = s.staff_id AND k.role = 'ADMIN' AND
-- include: access.sql keyValid
WHERE s.active AND 'ADMIN' = ANY (s.roles);
