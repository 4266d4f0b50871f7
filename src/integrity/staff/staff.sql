-- The staff register, as SQL: break-glass (break-glass.ts), the one change made outside the API,
-- with the database and the audit key, the day fewer than two administrators can act
-- (docs/operations.md). Every other change goes through StaffService.

-- name: breakGlassPerson
-- The person's record as it stands, locked until the break-glass commits.
SELECT staff_id, name, roles::text[] AS roles, active FROM staff WHERE staff_id = :staffId FOR UPDATE;

-- name: breakGlassLostKeys
-- Every key not yet revoked of the persons whose keys are lost (or who left with them), revoked.
UPDATE api_keys SET revoked_at = now() WHERE staff_id = ANY (:staffIds::text[]) AND revoked_at IS NULL
RETURNING id::text, staff_id, revoked_at;

-- name: breakGlassChange
-- The change to the person's record, approved by break-glass: kept with the register's history.
INSERT INTO staff_changes (id, staff_id, name, roles, active, reason, proposed_by_key_id, status, decided_by_key_id, decided_at, decision_note)
VALUES (:id::uuid, :staffId, :name, :roles::"Role"[], true, :reason, :by, 'APPROVED', :by, now(), :note);

-- name: breakGlassRegister
-- The person's record made what the change says: an active administrator.
INSERT INTO staff (staff_id, name, roles, active, registered_at, changed_at, last_change_id)
VALUES (:staffId, :name, :roles::"Role"[], true, now(), now(), :changeId::uuid)
ON CONFLICT (staff_id) DO UPDATE SET name = EXCLUDED.name, roles = EXCLUDED.roles, active = true, changed_at = EXCLUDED.changed_at,
  last_change_id = EXCLUDED.last_change_id;

-- name: breakGlassMint
-- The administrator's key, minted by break-glass: no key on record minted it, so it is its person's
-- alone (src/domain/integrity/two-person.ts personsOf); its person claims it at once.
INSERT INTO api_keys (id, name, role, staff_id, key_hash, key_prefix, created_by_key_id)
VALUES (:id::uuid, :name, 'ADMIN', :staffId, :keyHash, :keyPrefix, :by)
RETURNING created_at;

-- name: breakGlassKeyedEntries
-- The latest keyed entries of the audit log: the audit key break-glass is given must be the one
-- that keyed them, or it would write entries the service's key does not vouch for.
SELECT stream, payload, mac, mac_key AS "macKey"
FROM audit_log
WHERE mac IS NOT NULL
ORDER BY id DESC
LIMIT 20;
