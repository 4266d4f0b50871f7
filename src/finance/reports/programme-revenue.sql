-- The quarterly statement's programme dues on premium play (docs/domain.md §16, "In the finance reports"). Parameters
-- are named (:name); src/platform/database/named-sql.ts turns them into $1… once, at load.

-- name: junketPlayByProgrammeDay
-- The junkets' members' settled dead-chip wagers over a range of gaming days, on coups that stand,
-- per junket, programme and day: what each junket's programme owes on. A wager counts to the junket
-- of the membership in force on its day (each version until the next), in the junket's currency.
WITH m AS (
  SELECT jm.property_id, jm.patron_id, jm.operator_id, jm.programme_code, jm.effective_from,
         lead(jm.effective_from) OVER (PARTITION BY jm.property_id, jm.patron_id ORDER BY jm.effective_from) AS until
  FROM junket_memberships jm
  WHERE :propertyId::uuid IS NULL OR jm.property_id = :propertyId::uuid
)
SELECT o.id AS "junketId", o.property_id AS "propertyId", o.currency::text AS currency, m.programme_code AS code,
       to_char(w.gaming_day, 'YYYY-MM-DD') AS day,
       coalesce(sum(w.amount) FILTER (WHERE w.result = 'LOSE'), 0)::text AS rolled, sum(w.net)::text AS net
FROM m
JOIN junket_operators o ON o.id = m.operator_id
JOIN wagers w ON w.patron_id = m.patron_id AND w.dead_chips AND w.status = 'SETTLED' AND w.property_id = m.property_id
 AND w.gaming_day >= m.effective_from AND (m.until IS NULL OR w.gaming_day < m.until)
 AND w.gaming_day BETWEEN :from::date AND :to::date
JOIN shoes s ON s.id = w.shoe_id
JOIN casino_tables t ON t.id = s.table_id AND t.currency = o.currency
WHERE NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = w.coup_id)
GROUP BY o.id, o.property_id, o.currency, m.programme_code, w.gaming_day;

-- name: programmeVersionsOf
-- Every version of the programmes of the properties named.
SELECT p.property_id AS "propertyId", p.code, p.basis::text AS basis, p.commission_bps AS "commissionBps", p.allowance_bps AS "allowanceBps",
       to_char(p.effective_from, 'YYYY-MM-DD') AS "effectiveFrom"
FROM rolling_programmes p
WHERE p.property_id = ANY (:propertyIds::uuid[])
ORDER BY p.property_id, p.code, p.effective_from;
