-- The rolling room's reads, as SQL. Parameters are named (:name); src/database/named-sql.ts turns
-- them into $1… once, at load.

-- name: exchangesOf
-- A patron's dead chips bought and returned over a range of gaming days, per currency.
SELECT e.currency::text AS currency,
       coalesce(sum(e.amount) FILTER (WHERE e.kind = 'PURCHASE'), 0)::text AS purchased,
       coalesce(sum(e.amount) FILTER (WHERE e.kind = 'RETURN'), 0)::text AS returned
FROM chip_exchanges e
WHERE e.patron_id = :patronId AND e.gaming_day BETWEEN :from::date AND :to::date
  AND (:propertyId::uuid IS NULL OR e.property_id = :propertyId::uuid)
GROUP BY e.currency;

-- name: deadPlayOf
-- A patron's settled dead-chip wagers over a range of gaming days, on coups that stand, per coup and
-- bet: the stakes, the customer's net and the stakes lost (rolled). A settled wager carries its coup's
-- gaming day, and its table is its shoe's: read through the partial index of dead-chip wagers
-- (wagers_dead_patron_idx), the range's months alone, without the coups.
SELECT s.table_id AS "tableId", t.currency::text AS currency, to_char(w.gaming_day, 'YYYY-MM-DD') AS day, w.coup_id AS "coupId", w.bet_type::text AS "betType",
       count(*)::int AS wagers, sum(w.amount)::text AS stake, sum(w.net)::text AS net,
       coalesce(sum(w.amount) FILTER (WHERE w.result = 'LOSE'), 0)::text AS rolled
FROM wagers w
JOIN shoes s ON s.id = w.shoe_id
JOIN casino_tables t ON t.id = s.table_id
WHERE w.patron_id = :patronId AND w.dead_chips AND w.status = 'SETTLED' AND w.gaming_day BETWEEN :from::date AND :to::date
  AND (:propertyId::uuid IS NULL OR t.property_id = :propertyId::uuid)
  AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = w.coup_id)
GROUP BY s.table_id, t.currency, w.gaming_day, w.coup_id, w.bet_type;

-- name: exchangeList
-- A patron's exchanges over a range of gaming days, oldest first.
SELECT e.id, e.property_id AS "propertyId", e.kind::text AS kind, e.amount::text AS amount, e.currency::text AS currency, e.settled_in AS "settledIn",
       e.table_id AS "tableId", to_char(e.gaming_day, 'YYYY-MM-DD') AS "gamingDay", e.at, e.recorded_by_key_id AS "recordedByKeyId"
FROM chip_exchanges e
WHERE e.patron_id = :patronId AND e.gaming_day BETWEEN :from::date AND :to::date
  AND (:propertyId::uuid IS NULL OR e.property_id = :propertyId::uuid)
ORDER BY e.at, e.id;

-- name: deadHeld
-- The dead chips a patron holds at a property in a currency, all time: bought, less returned, less
-- lost on wagers of coups that stand (at that property's tables, in that currency).
SELECT (coalesce((SELECT sum(CASE WHEN e.kind = 'PURCHASE' THEN e.amount ELSE -e.amount END) FROM chip_exchanges e
                  WHERE e.patron_id = :patronId AND e.property_id = :propertyId::uuid AND e.currency = :currency), 0)
      - coalesce((SELECT sum(w.amount) FROM wagers w
                  JOIN shoes s ON s.id = w.shoe_id
                  JOIN casino_tables t ON t.id = s.table_id
                  WHERE w.patron_id = :patronId AND w.dead_chips AND w.status = 'SETTLED' AND w.result = 'LOSE'
                    AND t.property_id = :propertyId::uuid AND t.currency = :currency
                    AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = w.coup_id)), 0))::text AS held;

-- name: lockPatronChips
-- One exchange of a patron's dead chips at a time, for the rest of the transaction: two returns
-- cannot both take back the same chips.
SELECT pg_advisory_xact_lock(hashtextextended('sabot:dead-chips:' || :patronId, 0));
