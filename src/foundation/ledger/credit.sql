-- The casino's credit as every room that lends reads it (docs/domain/credit.md): the credit line
-- and the policy in force, what a patron owes on markers, front money on deposit, what a junket's
-- markers still cover, and the credit requests with their decisions. Parameters are
-- named (:name); src/platform/database/named-sql.ts turns them into $1….

-- name: lockHolder
-- Credit given to one holder (a patron at a property, or a junket) waits for the credit given before
-- it, so two markers at once cannot both fit in what is left of the line.
SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended('credit:' || :holder::text, 0));

-- name: lockJunket
-- One write to a junket's account or periods at a time, for the rest of the transaction: a balance
-- read to admit an entry, what its markers still cover, or a period's figures read to agree it, stay
-- true until it commits (the junkets room takes the same lock).
-- fragment: junketLock begin
SELECT pg_advisory_xact_lock(hashtextextended('sabot:junket:' || :junketId, 0));
-- fragment: junketLock end

-- name: lockRequest
-- Decisions on one request, one after another (its decisions are read, then one is added).
SELECT pg_advisory_xact_lock(hashtextextended('sabot:credit-request:' || :id::text, 0));

-- name: patronLine
-- The patron's credit line in force at the property in the currency: the latest approved (none: no credit).
SELECT l.credit_limit::text AS "creditLimit", l.approved_at AS "approvedAt", l.request_id AS "requestId"
FROM credit_lines l
WHERE l.patron_id = :patronId::text AND l.property_id = :propertyId::uuid AND l.currency = :currency::text
ORDER BY l.approved_at DESC, l.id DESC
LIMIT 1;

-- name: junketLine
-- The junket's credit line in force: the latest approved (none: no credit).
SELECT l.credit_limit::text AS "creditLimit", l.approved_at AS "approvedAt", l.request_id AS "requestId"
FROM credit_lines l
WHERE l.operator_id = :operatorId::uuid
ORDER BY l.approved_at DESC, l.id DESC
LIMIT 1;

-- name: policyInForce
-- The property's credit policy in force: the latest approved (none: the engine's defaults).
SELECT p.currency, p.senior_limit_threshold::text AS "seniorLimitThreshold", p.repayment_threshold::text AS "repaymentThreshold",
       p.rolling_commission_cap_bps AS "rollingCommissionCapBps", p.win_loss_commission_cap_bps AS "winLossCommissionCapBps"
FROM credit_policies p
WHERE p.property_id = :propertyId::uuid
ORDER BY p.approved_at DESC, p.id DESC
LIMIT 1;

-- name: requestsOf
-- The property's credit requests (about one subject, or all), newest first, with their decisions, at most :limit.
SELECT r.*
FROM (
-- fragment: request begin
SELECT r.id, r.property_id AS "propertyId", r.act::text AS act, r.subject, r.terms, r.reason, r.approvals_needed AS "approvalsNeeded",
       r.final_role::text AS "finalRole", r.requested_by_key_id AS "requestedByKeyId", r.requested_by_role::text AS "requestedByRole",
       r.requester_persons AS "requesterPersons", r.requested_at AS "requestedAt",
       coalesce((SELECT json_agg(json_build_object('step', d.step, 'approve', d.approve, 'keyId', d.key_id, 'role', d.role, 'persons', d.persons,
                                                   'note', d.note, 'decidedAt', d.decided_at) ORDER BY d.step)
                 FROM credit_decisions d WHERE d.request_id = r.id), '[]'::json) AS decisions,
       -- When the act it approved was recorded quoting it (each record names its request once, by a unique index).
       coalesce((SELECT p.paid_at FROM marker_payments p WHERE p.request_id = r.id),
                (SELECT e.at FROM junket_account_entries e WHERE e.request_id = r.id),
                (SELECT v.recorded_at FROM rolling_programmes v WHERE v.request_id = r.id),
                (SELECT s.agreed_at FROM junket_statements s WHERE s.request_id = r.id)) AS "recordedAt",
       -- The marker it is about, as a person tells markers apart: whose, of which day, for how much.
       (SELECT json_build_object('patronId', m.patron_id, 'issuedDay', to_char(m.gaming_day, 'YYYY-MM-DD'), 'issuedAt', m.issued_at,
                                 'amount', m.amount::text, 'currency', m.currency)
        FROM markers m WHERE r.terms ? 'markerId' AND m.id::text = r.terms->>'markerId') AS marker,
       -- The junket it is about, by the code and name the floor knows it by.
       (SELECT json_build_object('code', j.code, 'name', j.name)
        FROM junket_operators j WHERE r.terms ? 'junketId' AND j.id::text = r.terms->>'junketId') AS junket
FROM credit_requests r
-- fragment: request end
WHERE r.property_id = :propertyId::uuid AND (:subject::text IS NULL OR r.subject = :subject::text)
) r
ORDER BY r."requestedAt" DESC, r.id DESC
LIMIT :limit::int;

-- name: requestById
-- include: ./credit.sql request
WHERE r.id = :id::uuid;

-- name: markersOwed
-- Markers of the property (or of one patron, or one marker) with what each still owes: its amount,
-- less its payments, less a write-off; a marker whose buy-in was voided owes nothing.
SELECT m.id, m.patron_id AS "patronId", m.table_id AS "tableId", m.currency, m.gaming_day::text AS "issuedDay", m.amount::text AS amount,
       CASE WHEN EXISTS (SELECT 1 FROM buy_ins b JOIN buy_in_voids v ON v.buy_in_id = b.id WHERE b.marker_id = m.id) THEN '0'
            ELSE (m.amount - coalesce((SELECT sum(p.amount) FROM marker_payments p WHERE p.marker_id = m.id), 0)
                           - coalesce((SELECT w.amount FROM marker_write_offs w WHERE w.marker_id = m.id), 0))::text
       END AS outstanding,
       EXISTS (SELECT 1 FROM marker_write_offs w WHERE w.marker_id = m.id) AS "writtenOff",
       (SELECT d.deposited_at FROM marker_deposits d WHERE d.marker_id = m.id) AS "depositedAt"
FROM markers m
WHERE m.property_id = :propertyId::uuid
  AND (:patronId::text IS NULL OR m.patron_id = :patronId::text)
  AND (:markerId::uuid IS NULL OR m.id = :markerId::uuid)
  AND (:currency::text IS NULL OR m.currency = :currency::text)
ORDER BY m.gaming_day, m.issued_at, m.id;

-- name: lockFrontMoney
-- Draws on one patron's front money at a property, one after another (what is held is read, then drawn).
SELECT pg_advisory_xact_lock(hashtextextended('sabot:front-money:' || :propertyId::text || ':' || :patronId::text, 0));

-- name: frontMoneyHeld
-- A patron's front money at the cage of a property in a currency: deposited, less withdrawn, less
-- dead chips bought with it, plus dead chips returned into it.
SELECT (coalesce((SELECT sum(CASE c.kind WHEN 'DEPOSIT' THEN c.amount ELSE -c.amount END)
                  FROM cash_transactions c
                  WHERE c.patron_id = :patronId::text AND c.property_id = :propertyId::uuid AND c.currency = :currency::text
                    AND c.kind IN ('DEPOSIT', 'WITHDRAWAL')), 0)
      + coalesce((SELECT sum(CASE x.kind WHEN 'RETURN' THEN x.amount ELSE -x.amount END)
                  FROM chip_exchanges x
                  WHERE x.patron_id = :patronId::text AND x.property_id = :propertyId::uuid AND x.currency = :currency::text
                    AND x.settled_in = 'FRONT_MONEY'), 0))::text AS held;

-- name: junketOfMember
-- The junket a patron plays for at a property on a gaming day: its membership in force then (none: no junket).
SELECT m.operator_id AS "operatorId"
FROM junket_memberships m
WHERE m.patron_id = :patronId::text AND m.property_id = :propertyId::uuid AND m.effective_from <= :day::date
ORDER BY m.effective_from DESC
LIMIT 1;

-- name: junketUndrawn
-- The junket's markers not yet issued as dead chips: every marker on its account, less the dead
-- chips its members bought against them.
SELECT (coalesce((SELECT sum(e.amount) FROM junket_account_entries e WHERE e.operator_id = :junketId::uuid AND e.kind = 'MARKER'), 0)
      - coalesce((SELECT sum(x.amount) FROM chip_exchanges x WHERE x.junket_id = :junketId::uuid AND x.kind = 'PURCHASE'), 0))::text AS undrawn;

-- name: rateInto
-- The rate from a currency into another for a gaming day: the latest entered on the latest day on
-- or before it (as the cash reports translate); none, no row.
SELECT r.rate_e9::text AS "rateE9"
FROM exchange_rates r
WHERE r.currency = :currency::text AND r.into_currency = :into::text AND r.rate_day <= :day::date
ORDER BY r.rate_day DESC, r.entered_at DESC, r.id DESC
LIMIT 1;
