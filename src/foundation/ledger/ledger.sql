-- The ledger's writes: the audit append and the finance rollups of a settled (or voided) coup.
-- Parameters are named (:name); src/platform/database/named-sql.ts turns them into $1… once, at load.
-- The blocks between "ledger:" markers are also part of the whole-coup statement
-- (src/table-games/coups/coups.sql); test/unit/named-sql.spec.ts keeps the two copies identical.

-- name: lockMarker
-- Payments on one marker and its void, one after another (what it owes is read, then paid down or voided).
SELECT pg_advisory_xact_lock(hashtextextended('sabot:marker:' || :markerId::text, 0));

-- name: appendAudit
-- One audit entry, and its stream's chain head advanced (and row-locked), in one statement. Answers
-- the entry's place in its stream (the seals of the rows it wrote name it: src/foundation/ledger/seals.ts).
WITH guard AS (SELECT 1),
-- fragment: audit begin
audit_head AS (
  INSERT INTO audit_heads AS h (stream, seq, hash)
  SELECT :auditStream, 1, encode(sha256(convert_to(:auditPayload, 'UTF8')), 'hex') FROM guard
  ON CONFLICT (stream) DO UPDATE SET seq = h.seq + 1, hash = encode(sha256(convert_to(h.hash || :auditPayload, 'UTF8')), 'hex')
  RETURNING seq, hash
), audit_entry AS (
  INSERT INTO audit_log (stream, seq, hash, payload, at, key_id, role, action, entity_type, entity_id, correlation_id, mac, mac_key)
  SELECT :auditStream, audit_head.seq, audit_head.hash, :auditPayload, :auditAt::timestamptz, :auditKeyId, :auditRole, :auditAction,
         :auditEntityType, :auditEntityId, :auditCorrelationId, :auditMac, :auditMacKey
  FROM audit_head
  RETURNING 1
)
-- fragment: audit end
SELECT seq::text AS seq FROM audit_head;

-- name: applyCoupRollups
-- A settled coup added to (sign 1) or taken from (sign −1, a void) the rollups, at three grains:
-- table × gaming day × bet type, table × month × bet type, table × gaming day, each with its premium
-- (dead-chip) part beside the totals; and rated play per patron (patron_rollups, patron_coup_rollups),
-- with the dead-chip wagers' own sums (the rolling account's).
WITH guard AS (SELECT 1),
-- fragment: rollups begin
rollup_bets AS (
  SELECT * FROM unnest(:rollupBetTypes::text[], :rollupWagers::bigint[], :rollupHandle::bigint[], :rollupPayouts::bigint[],
                       :rollupCommission::bigint[], :rollupNet::bigint[], :rollupWins::bigint[], :rollupLosses::bigint[],
                       :rollupPushes::bigint[], :rollupTheo::numeric[], :rollupVar::numeric[],
                       :rollupPremiumWagers::bigint[], :rollupPremiumHandle::bigint[], :rollupPremiumCommission::bigint[],
                       :rollupPremiumNet::bigint[], :rollupPremiumTheo::numeric[])
         AS u(bet_type, wagers, handle, payouts, commission, net, wins, losses, pushes, theo, var, p_wagers, p_handle, p_commission, p_net, p_theo)
), rollup_day AS (
  INSERT INTO wager_rollups AS r (table_id, property_id, gaming_day, bet_type, wagers, handle, payouts, commission, customer_net, wins, losses, pushes, theo_e12, var_e12,
                          premium_wagers, premium_handle, premium_commission, premium_customer_net, premium_theo_e12)
  SELECT :rollupTableId::uuid, :rollupPropertyId::uuid, :rollupDay::date, u.bet_type::"BetType", u.wagers, u.handle, u.payouts, u.commission, u.net, u.wins, u.losses, u.pushes, u.theo, u.var,
         u.p_wagers, u.p_handle, u.p_commission, u.p_net, u.p_theo
  FROM rollup_bets u, guard
  ON CONFLICT (table_id, gaming_day, bet_type) DO UPDATE SET
    wagers = r.wagers + EXCLUDED.wagers, handle = r.handle + EXCLUDED.handle, payouts = r.payouts + EXCLUDED.payouts,
    commission = r.commission + EXCLUDED.commission, customer_net = r.customer_net + EXCLUDED.customer_net, theo_e12 = r.theo_e12 + EXCLUDED.theo_e12, var_e12 = r.var_e12 + EXCLUDED.var_e12,
    wins = r.wins + EXCLUDED.wins, losses = r.losses + EXCLUDED.losses, pushes = r.pushes + EXCLUDED.pushes,
    premium_wagers = r.premium_wagers + EXCLUDED.premium_wagers, premium_handle = r.premium_handle + EXCLUDED.premium_handle,
    premium_commission = r.premium_commission + EXCLUDED.premium_commission, premium_customer_net = r.premium_customer_net + EXCLUDED.premium_customer_net,
    premium_theo_e12 = r.premium_theo_e12 + EXCLUDED.premium_theo_e12
  RETURNING 1
), rollup_month AS (
  INSERT INTO month_rollups AS r (table_id, property_id, month, bet_type, wagers, handle, payouts, commission, customer_net, wins, losses, pushes, theo_e12, var_e12,
                          premium_wagers, premium_handle, premium_commission, premium_customer_net, premium_theo_e12)
  SELECT :rollupTableId::uuid, :rollupPropertyId::uuid, :rollupMonth::date, u.bet_type::"BetType", u.wagers, u.handle, u.payouts, u.commission, u.net, u.wins, u.losses, u.pushes, u.theo, u.var,
         u.p_wagers, u.p_handle, u.p_commission, u.p_net, u.p_theo
  FROM rollup_bets u, guard
  ON CONFLICT (table_id, month, bet_type) DO UPDATE SET
    wagers = r.wagers + EXCLUDED.wagers, handle = r.handle + EXCLUDED.handle, payouts = r.payouts + EXCLUDED.payouts,
    commission = r.commission + EXCLUDED.commission, customer_net = r.customer_net + EXCLUDED.customer_net, theo_e12 = r.theo_e12 + EXCLUDED.theo_e12, var_e12 = r.var_e12 + EXCLUDED.var_e12,
    wins = r.wins + EXCLUDED.wins, losses = r.losses + EXCLUDED.losses, pushes = r.pushes + EXCLUDED.pushes,
    premium_wagers = r.premium_wagers + EXCLUDED.premium_wagers, premium_handle = r.premium_handle + EXCLUDED.premium_handle,
    premium_commission = r.premium_commission + EXCLUDED.premium_commission, premium_customer_net = r.premium_customer_net + EXCLUDED.premium_customer_net,
    premium_theo_e12 = r.premium_theo_e12 + EXCLUDED.premium_theo_e12
  RETURNING 1
), rollup_table_day AS (
  INSERT INTO table_day_rollups AS c (table_id, property_id, gaming_day, coups, banker_wins, player_wins, ties, naturals, wagers, handle, payouts, commission, customer_net, theo_e12, var_e12,
                                      premium_wagers, premium_handle, premium_commission, premium_customer_net, premium_theo_e12)
  SELECT :rollupTableId::uuid, :rollupPropertyId::uuid, :rollupDay::date, :rollupCoups::bigint, :rollupBankerWins::bigint, :rollupPlayerWins::bigint, :rollupTies::bigint,
         :rollupNaturals::bigint, :rollupTotalWagers::bigint, :rollupTotalHandle::bigint, :rollupTotalPayouts::bigint, :rollupTotalCommission::bigint,
         :rollupTotalNet::bigint, :rollupTotalTheo::numeric, :rollupTotalVar::numeric, :rollupTotalPremiumWagers::bigint, :rollupTotalPremiumHandle::bigint,
         :rollupTotalPremiumCommission::bigint, :rollupTotalPremiumNet::bigint, :rollupTotalPremiumTheo::numeric
  FROM guard
  ON CONFLICT (table_id, gaming_day) DO UPDATE SET
    coups = c.coups + EXCLUDED.coups, banker_wins = c.banker_wins + EXCLUDED.banker_wins, player_wins = c.player_wins + EXCLUDED.player_wins,
    ties = c.ties + EXCLUDED.ties, naturals = c.naturals + EXCLUDED.naturals,
    wagers = c.wagers + EXCLUDED.wagers, handle = c.handle + EXCLUDED.handle, payouts = c.payouts + EXCLUDED.payouts,
    commission = c.commission + EXCLUDED.commission, customer_net = c.customer_net + EXCLUDED.customer_net, theo_e12 = c.theo_e12 + EXCLUDED.theo_e12,
    var_e12 = c.var_e12 + EXCLUDED.var_e12,
    premium_wagers = c.premium_wagers + EXCLUDED.premium_wagers, premium_handle = c.premium_handle + EXCLUDED.premium_handle,
    premium_commission = c.premium_commission + EXCLUDED.premium_commission, premium_customer_net = c.premium_customer_net + EXCLUDED.premium_customer_net,
    premium_theo_e12 = c.premium_theo_e12 + EXCLUDED.premium_theo_e12
  RETURNING 1
), rollup_limits AS (
  INSERT INTO limit_rollups AS l (table_id, property_id, gaming_day, limits_seq, coups, players, wagers, handle, customer_net, commission, theo_e12)
  SELECT :rollupTableId::uuid, :rollupPropertyId::uuid, :rollupDay::date, coalesce((SELECT t.seq FROM table_limits t WHERE t.id = :rollupLimitsId::uuid), 0),
         :rollupCoups::bigint, :rollupPlayers::bigint, :rollupTotalWagers::bigint, :rollupTotalHandle::bigint, :rollupTotalNet::bigint,
         :rollupTotalCommission::bigint, :rollupTotalTheo::numeric
  FROM guard
  ON CONFLICT (table_id, gaming_day, limits_seq) DO UPDATE SET
    coups = l.coups + EXCLUDED.coups, players = l.players + EXCLUDED.players, wagers = l.wagers + EXCLUDED.wagers, handle = l.handle + EXCLUDED.handle,
    customer_net = l.customer_net + EXCLUDED.customer_net, commission = l.commission + EXCLUDED.commission, theo_e12 = l.theo_e12 + EXCLUDED.theo_e12
  RETURNING 1
), rollup_patron AS (
  INSERT INTO patron_rollups AS p (patron_id, gaming_day, table_id, property_id, seating_key, bet_type, wagers, handle, customer_net, theo_e12,
                                   dead_wagers, dead_handle, dead_customer_net, dead_rolled, dead_theo_e12, dead_expected_rolled_e12)
  SELECT u.patron_id, :rollupDay::date, :rollupTableId::uuid, :rollupPropertyId::uuid, u.visit, u.bet_type::"BetType", u.wagers, u.handle, u.net, u.theo,
         u.d_wagers, u.d_handle, u.d_net, u.d_rolled, u.d_theo, u.d_expected
  FROM unnest(:patronPatrons::text[], :patronVisits::uuid[], :patronBets::text[], :patronWagers::bigint[], :patronHandle::bigint[],
              :patronNet::bigint[], :patronTheo::numeric[], :patronDeadWagers::bigint[], :patronDeadHandle::bigint[], :patronDeadNet::bigint[],
              :patronDeadRolled::bigint[], :patronDeadTheo::numeric[], :patronDeadExpectedRolled::numeric[])
       AS u(patron_id, visit, bet_type, wagers, handle, net, theo, d_wagers, d_handle, d_net, d_rolled, d_theo, d_expected), guard
  ON CONFLICT (patron_id, gaming_day, table_id, seating_key, bet_type) DO UPDATE SET
    wagers = p.wagers + EXCLUDED.wagers, handle = p.handle + EXCLUDED.handle, customer_net = p.customer_net + EXCLUDED.customer_net,
    theo_e12 = p.theo_e12 + EXCLUDED.theo_e12,
    dead_wagers = p.dead_wagers + EXCLUDED.dead_wagers, dead_handle = p.dead_handle + EXCLUDED.dead_handle,
    dead_customer_net = p.dead_customer_net + EXCLUDED.dead_customer_net, dead_rolled = p.dead_rolled + EXCLUDED.dead_rolled,
    dead_theo_e12 = p.dead_theo_e12 + EXCLUDED.dead_theo_e12, dead_expected_rolled_e12 = p.dead_expected_rolled_e12 + EXCLUDED.dead_expected_rolled_e12
  RETURNING 1
), rollup_patron_coups AS (
  INSERT INTO patron_coup_rollups AS p (patron_id, gaming_day, table_id, property_id, seating_key, coups, var_e12, dead_var_e12)
  SELECT u.patron_id, :rollupDay::date, :rollupTableId::uuid, :rollupPropertyId::uuid, u.visit, u.coups, u.var, u.dead_var
  FROM unnest(:patronCoupPatrons::text[], :patronCoupVisits::uuid[], :patronCoupCoups::bigint[], :patronCoupVar::numeric[], :patronCoupDeadVar::numeric[])
       AS u(patron_id, visit, coups, var, dead_var), guard
  ON CONFLICT (patron_id, gaming_day, table_id, seating_key) DO UPDATE SET coups = p.coups + EXCLUDED.coups, var_e12 = p.var_e12 + EXCLUDED.var_e12,
    dead_var_e12 = p.dead_var_e12 + EXCLUDED.dead_var_e12
  RETURNING 1
)
-- fragment: rollups end
SELECT 1;

-- name: addCollectedCommission
-- Commission collected, on the gaming day of the collection (commission is only charged on Banker bets).
WITH by_day AS (
  INSERT INTO wager_rollups AS r (table_id, property_id, gaming_day, bet_type, commission_collected)
  VALUES (:tableId::uuid, :propertyId::uuid, :gamingDay::date, 'BANKER', :amount::bigint)
  ON CONFLICT (table_id, gaming_day, bet_type) DO UPDATE SET commission_collected = r.commission_collected + EXCLUDED.commission_collected
  RETURNING 1
), by_month AS (
  INSERT INTO month_rollups AS r (table_id, property_id, month, bet_type, commission_collected)
  VALUES (:tableId::uuid, :propertyId::uuid, :month::date, 'BANKER', :amount::bigint)
  ON CONFLICT (table_id, month, bet_type) DO UPDATE SET commission_collected = r.commission_collected + EXCLUDED.commission_collected
  RETURNING 1
)
INSERT INTO table_day_rollups AS c (table_id, property_id, gaming_day, commission_collected) VALUES (:tableId::uuid, :propertyId::uuid, :gamingDay::date, :amount::bigint)
ON CONFLICT (table_id, gaming_day) DO UPDATE SET commission_collected = c.commission_collected + EXCLUDED.commission_collected;

-- name: applyBankCoupRollups
-- A player-banked coup added (sign 1) or taken away (sign −1, a void), with the house's commission
-- on it: the only house revenue of those games.
INSERT INTO table_day_rollups AS r (table_id, property_id, gaming_day, banked_coups, house_commission)
VALUES (:tableId::uuid, :propertyId::uuid, :gamingDay::date, :coups::bigint, :houseCommission::bigint)
ON CONFLICT (table_id, gaming_day) DO UPDATE SET banked_coups = r.banked_coups + EXCLUDED.banked_coups, house_commission = r.house_commission + EXCLUDED.house_commission;

-- name: recordVoidedCoup
-- A voided coup, its settled wagers and their handle, counted on its table's gaming day: what a
-- report's void summary reads (the coup's figures have left the rollups' sums by applyCoupRollups).
INSERT INTO table_day_rollups AS r (table_id, property_id, gaming_day, voided_coups, voided_wagers, voided_handle)
VALUES (:tableId::uuid, :propertyId::uuid, :gamingDay::date, 1, :wagers::bigint, :handle::bigint)
ON CONFLICT (table_id, gaming_day) DO UPDATE SET
  voided_coups = r.voided_coups + 1, voided_wagers = r.voided_wagers + EXCLUDED.voided_wagers, voided_handle = r.voided_handle + EXCLUDED.voided_handle;
