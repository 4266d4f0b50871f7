-- Keys as administrators manage them, as SQL.

-- name: mint
-- A key minted, in the one statement that confirms the key minting it is still usable: read after
-- any revocation that committed before it, and row-locked (FOR SHARE) until this transaction ends,
-- so that a revocation arriving meanwhile waits for it. A key revoked, expired or claimed anew (its
-- old secret) while the request was on its way mints nothing. The bootstrap key has no row.
INSERT INTO api_keys (id, name, role, table_id, staff_id, key_hash, key_prefix, created_by_key_id, expires_at)
SELECT :id::uuid, :name, :role::"Role", :tableId::uuid, :staffId, :keyHash, :keyPrefix, :minter, :expiresAt::timestamptz
WHERE :minter = 'bootstrap-admin' OR EXISTS (
  SELECT 1 FROM api_keys k WHERE k.id::text = :minter AND (:minterHash::text IS NULL OR k.key_hash = :minterHash) AND
-- include: ../../foundation/access/access.sql keyValid
  FOR SHARE OF k)
RETURNING id::text;
