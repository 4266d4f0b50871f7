-- Periods agreed and locked (docs/domain.md §16): what a void must not change.

-- name: lockJunketPeriods
-- The property's agreed junket periods held still for the rest of the transaction: a void holds it
-- shared (voids go on side by side), an agreement exclusively, so a void checked against the agreed
-- periods and an agreement computed from the coups never pass each other unseen.
SELECT CASE WHEN :exclusive::boolean THEN pg_advisory_xact_lock(hashtextextended('sabot:junket-periods:' || :propertyId, 0))
            ELSE pg_advisory_xact_lock_shared(hashtextextended('sabot:junket-periods:' || :propertyId, 0)) END;

-- name: lockedJunketPeriodOfCoup
-- The agreed junket period a coup's void would change, if any: the coup's day lies in a period agreed
-- by a junket of its property, and a dead-chip wager on the coup, in the junket's currency, is a
-- patron's whose membership in force that day is that junket's.
SELECT o.code, to_char(s.from_day, 'YYYY-MM-DD') AS "from", to_char(s.to_day, 'YYYY-MM-DD') AS "to"
FROM junket_statements s
JOIN junket_operators o ON o.id = s.operator_id
WHERE o.property_id = :propertyId::uuid AND :gamingDay::date BETWEEN s.from_day AND s.to_day
  AND EXISTS (
    SELECT 1 FROM wagers w
    JOIN shoes sh ON sh.id = w.shoe_id
    JOIN casino_tables t ON t.id = sh.table_id
    WHERE w.coup_id = :coupId::uuid AND w.gaming_day = :gamingDay::date AND w.dead_chips AND w.patron_id IS NOT NULL
      AND t.currency = o.currency
      AND (SELECT m.operator_id FROM junket_memberships m
           WHERE m.property_id = :propertyId::uuid AND m.patron_id = w.patron_id AND m.effective_from <= :gamingDay::date
           ORDER BY m.effective_from DESC LIMIT 1) = o.id)
LIMIT 1;
