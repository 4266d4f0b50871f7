-- The rolling room's reads, as SQL. Parameters are named (:name); src/platform/database/named-sql.ts turns
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
-- A patron's dead-chip play over a range of gaming days, on coups that stand, per currency and gaming
-- day: the wagers, stakes, customer's net, stakes lost (rolled), theo and expected rolling × 10^12.
-- From the patron rollups, which the settlement keeps with the dead-chip wagers' sums beside the
-- rest and a void takes out (src/foundation/ledger/ledger.sql): a few rows a day, however many wagers, read by
-- the rollup's key (patron, day) as the rating reads it.
SELECT t.currency::text AS currency, to_char(r.gaming_day, 'YYYY-MM-DD') AS day, sum(r.dead_wagers)::int AS wagers, sum(r.dead_handle)::text AS stake,
       sum(r.dead_customer_net)::text AS net, sum(r.dead_rolled)::text AS rolled, sum(r.dead_theo_e12)::text AS theo,
       sum(r.dead_expected_rolled_e12)::text AS expected
FROM patron_rollups r
JOIN casino_tables t ON t.id = r.table_id
WHERE r.patron_id = :patronId AND r.gaming_day BETWEEN :from::date AND :to::date AND r.dead_wagers <> 0
  AND (:propertyId::uuid IS NULL OR r.property_id = :propertyId::uuid)
GROUP BY t.currency, r.gaming_day;

-- name: deadVarianceOf
-- The variance of a patron's dead stakes over a range, per currency: Σ over coups (each coup once,
-- all the patron's dead stakes on it through the bets' covariances: the whole-play rows).
SELECT t.currency::text AS currency, sum(r.dead_var_e12)::text AS var
FROM patron_coup_rollups r
JOIN casino_tables t ON t.id = r.table_id
WHERE r.patron_id = :patronId AND r.gaming_day BETWEEN :from::date AND :to::date AND r.seating_key = :wholePlay::uuid AND r.dead_var_e12 <> 0
  AND (:propertyId::uuid IS NULL OR r.property_id = :propertyId::uuid)
GROUP BY t.currency;

-- name: exchangeList
-- A patron's exchanges over a range of gaming days, oldest first.
SELECT e.id, e.property_id AS "propertyId", e.kind::text AS kind, e.amount::text AS amount, e.currency::text AS currency, e.settled_in AS "settledIn",
       e.table_id AS "tableId", to_char(e.gaming_day, 'YYYY-MM-DD') AS "gamingDay", e.at, e.recorded_by_key_id AS "recordedByKeyId",
       e.marker_id AS "markerId", e.junket_id AS "junketId"
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
