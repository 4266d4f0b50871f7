-- The junkets room's SQL (docs/domain.md §16). Parameters are named (:name); src/platform/database/named-sql.ts
-- turns them into $1… once, at load.

-- name: lockJunket
-- One write to a junket's account or periods at a time (the lock the credit floor takes too).
-- include: ../../foundation/ledger/credit.sql junketLock

-- name: junketEntryTotals
-- The junket's account entries before a gaming day (NULL: all), summed per kind.
SELECT e.kind::text AS kind, sum(e.amount)::text AS amount
FROM junket_account_entries e
WHERE e.operator_id = :junketId::uuid AND (:before::date IS NULL OR e.gaming_day < :before::date)
GROUP BY e.kind;

-- name: junketEntries
-- The junket's account entries of a range of gaming days, in the order they were written.
SELECT e.id, e.kind::text AS kind, e.amount::text AS amount, e.currency::text AS currency, e.method, e.statement_id AS "statementId",
       to_char(e.gaming_day, 'YYYY-MM-DD') AS "gamingDay", e.at, e.recorded_by_key_id AS "recordedByKeyId", e.reference
FROM junket_account_entries e
WHERE e.operator_id = :junketId::uuid AND e.gaming_day BETWEEN :from::date AND :to::date
ORDER BY e.at, e.id;

-- name: junketMemberships
-- Every membership version at the junket's property of each patron ever a member of the junket:
-- the version in force on a day may name another junket, or none.
SELECT m.id, m.patron_id AS "patronId", m.operator_id AS "operatorId", a.code AS "agentCode", m.programme_code AS "programmeCode",
       to_char(m.effective_from, 'YYYY-MM-DD') AS "effectiveFrom", m.recorded_by_key_id AS "recordedByKeyId", m.recorded_at AS "recordedAt"
FROM junket_memberships m
LEFT JOIN junket_agents a ON a.id = m.agent_id
WHERE m.property_id = :propertyId::uuid
  AND m.patron_id IN (SELECT j.patron_id FROM junket_memberships j WHERE j.operator_id = :junketId::uuid)
ORDER BY m.patron_id, m.effective_from;

-- name: junketMemberPlay
-- The members' dead-chip play over a range of gaming days at the junket's property, in its currency,
-- on coups that stand, per patron and day: the wagers, stakes, customer's net, stakes lost (rolled),
-- theo and expected rolling × 10^12. From the patron rollups, as the rolling account reads them (the
-- settlement keeps the dead-chip sums beside the rest; a void takes them out).
SELECT r.patron_id AS "patronId", to_char(r.gaming_day, 'YYYY-MM-DD') AS day, sum(r.dead_wagers)::int AS wagers, sum(r.dead_handle)::text AS stake,
       sum(r.dead_customer_net)::text AS net, sum(r.dead_rolled)::text AS rolled, sum(r.dead_theo_e12)::text AS theo,
       sum(r.dead_expected_rolled_e12)::text AS expected
FROM patron_rollups r
JOIN casino_tables t ON t.id = r.table_id
WHERE r.patron_id = ANY (:patrons::text[]) AND r.gaming_day BETWEEN :from::date AND :to::date AND r.dead_wagers <> 0
  AND r.property_id = :propertyId::uuid AND t.currency = :currency
GROUP BY r.patron_id, r.gaming_day;

-- name: junketMemberExchanges
-- The members' dead chips bought and returned at the junket's property in its currency, per patron and day.
SELECT e.patron_id AS "patronId", to_char(e.gaming_day, 'YYYY-MM-DD') AS day,
       coalesce(sum(e.amount) FILTER (WHERE e.kind = 'PURCHASE'), 0)::text AS purchased,
       coalesce(sum(e.amount) FILTER (WHERE e.kind = 'RETURN'), 0)::text AS returned
FROM chip_exchanges e
WHERE e.patron_id = ANY (:patrons::text[]) AND e.property_id = :propertyId::uuid AND e.currency = :currency
  AND e.gaming_day BETWEEN :from::date AND :to::date
GROUP BY e.patron_id, e.gaming_day;

-- name: junketProgrammes
-- The property's rolling-chip programmes, every version.
SELECT p.code, p.basis::text AS basis, p.commission_bps AS "commissionBps", p.allowance_bps AS "allowanceBps",
       to_char(p.effective_from, 'YYYY-MM-DD') AS "effectiveFrom"
FROM rolling_programmes p
WHERE p.property_id = :propertyId::uuid
ORDER BY p.code, p.effective_from;

-- name: junketPlayerCredit
-- The junket's reports of credit to its players, up to a gaming day.
SELECT c.id, c.patron_id AS "patronId", c.kind, c.amount::text AS amount, c.currency::text AS currency, to_char(c.gaming_day, 'YYYY-MM-DD') AS "gamingDay",
       c.recorded_by_key_id AS "recordedByKeyId", c.recorded_at AS "recordedAt"
FROM junket_player_credit c
WHERE c.operator_id = :junketId::uuid AND c.gaming_day <= :to::date
ORDER BY c.gaming_day, c.recorded_at, c.id;

-- name: junketAgreed
-- The junket's agreed periods, oldest first, with who asked and who approved each for the casino
-- (its credit request, act STATEMENT; none for a period agreed before the control).
SELECT s.id, to_char(s.from_day, 'YYYY-MM-DD') AS "from", to_char(s.to_day, 'YYYY-MM-DD') AS "to", s.figures, s.digest,
       s.junket_signatory AS "junketSignatory", s.agreed_by_key_id AS "agreedByKeyId", s.agreed_at AS "agreedAt",
       s.request_id AS "requestId", r.requested_by_key_id AS "requestedByKeyId",
       coalesce((SELECT array_agg(d.key_id ORDER BY d.step) FROM credit_decisions d WHERE d.request_id = s.request_id AND d.approve),
                '{}'::text[]) AS "approvedByKeyIds"
FROM junket_statements s
LEFT JOIN credit_requests r ON r.id = s.request_id
WHERE s.operator_id = :junketId::uuid
ORDER BY s.from_day;

-- name: junketFirstDay
-- The first gaming day any patron played for the junket (its earliest membership version naming it; none: NULL).
SELECT to_char(min(m.effective_from), 'YYYY-MM-DD') AS since
FROM junket_memberships m
WHERE m.operator_id = :junketId::uuid;

-- name: junketPlayedToday
-- Whether a patron has rolling play of today at the property: a dead-chip wager (settled today, or
-- still open) or a dead-chip exchange.
SELECT EXISTS (SELECT 1 FROM wagers w
               WHERE w.patron_id = :patronId AND w.dead_chips AND w.property_id = :propertyId::uuid
                 AND (w.gaming_day = :today::date OR (w.gaming_day IS NULL AND w.status = 'OPEN')))
    OR EXISTS (SELECT 1 FROM chip_exchanges e
               WHERE e.patron_id = :patronId AND e.property_id = :propertyId::uuid AND e.gaming_day = :today::date) AS played;

-- name: junketPlayerOwes
-- What a player owes the junket, as the junket reports it: advanced less repaid, all time.
SELECT coalesce(sum(CASE WHEN c.kind = 'ADVANCE' THEN c.amount ELSE -c.amount END), 0)::text AS owes
FROM junket_player_credit c
WHERE c.operator_id = :junketId::uuid AND c.patron_id = :patronId;
