-- The coups room's writes, as SQL. Parameters are named (:name); src/database/named-sql.ts turns
-- them into $1… once, at load. Opening a coup for betting and adding wagers are plain Prisma CRUD.

-- name: settleCoup
-- A coup settled in one statement: the shoe (its composition, counters and version), the coup
-- (inserted whole, or its cards recorded on the coup taking bets), its new wagers inserted settled,
-- its stored wagers (carried ties, bets placed before the cards) settled in place, tie bets carried
-- to the next coup, commission accrued against each seat, the rollups, the audit entry and, for a
-- request with an Idempotency-Key, its answer.
--
-- Everything reads from `guard`, the shoe's update: nothing is written unless the shoe is open, is
-- where the coup expects it (no coup taking bets, or this one), is at :version when one is given
-- (a coup computed without the shoe's lock applies only if the shoe has not moved since it was
-- read), and the caller's key is still valid when :confirmKeyId is given (a key recognised from
-- memory). Answers `applied` (0: the shoe moved) and `stored` (stored wagers settled).
WITH guard AS (
  UPDATE shoes SET remaining = :remaining::int[], cards_dealt = :cardsDealt::int, coup_count = :coupCount::int, open_coup_id = NULL,
                   last_coup_number = coalesce(:lastCoupNumber::int, last_coup_number)
  WHERE id = :shoeId::uuid AND status = 'OPEN'
    AND open_coup_id IS NOT DISTINCT FROM :openCoupId::uuid
    AND (:version::bigint IS NULL OR version = :version::bigint)
    AND (:confirmKeyId::uuid IS NULL OR EXISTS (
      SELECT 1 FROM api_keys k WHERE k.id = :confirmKeyId::uuid AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())))
  RETURNING 1
), coup_new AS (
  INSERT INTO coups (id, shoe_id, table_id, number, status, player_cards, banker_cards, winner, player_total, banker_total, card_count, "natural", outcome, settled_at, gaming_day)
  SELECT :coupId::uuid, :shoeId::uuid, :tableId::uuid, :coupNumber::int, 'SETTLED', :playerCards::text[], :bankerCards::text[], :winner::"Winner",
         :playerTotal::int, :bankerTotal::int, :cardCount::int, :natural::bool, :outcome::jsonb, :settledAt::timestamptz, :gamingDay::date
  FROM guard WHERE :openCoupId::uuid IS NULL
  RETURNING 1
), coup_dealt AS (
  UPDATE coups SET status = 'SETTLED', player_cards = :playerCards::text[], banker_cards = :bankerCards::text[], winner = :winner::"Winner",
                   player_total = :playerTotal::int, banker_total = :bankerTotal::int, card_count = :cardCount::int, "natural" = :natural::bool,
                   outcome = :outcome::jsonb, settled_at = :settledAt::timestamptz, gaming_day = :gamingDay::date
  WHERE id = :coupId::uuid AND :openCoupId::uuid IS NOT NULL AND status = 'BETTING' AND EXISTS (SELECT 1 FROM guard)
  RETURNING 1
), wagers_new AS (
  INSERT INTO wagers (id, coup_id, shoe_id, table_id, seat, bet_type, amount, patron_id, seating_id, status, result, payout, commission, net, carried_from_id, placed_at, settled_at)
  SELECT u.id, :coupId::uuid, :shoeId::uuid, :tableId::uuid, u.seat, u.bet_type::"BetType", u.amount, u.patron_id, u.seating_id, 'SETTLED', u.result::"WagerResult",
         u.payout, u.commission, u.net, NULL, :settledAt::timestamptz, :settledAt::timestamptz
  FROM unnest(:newIds::uuid[], :newSeats::int[], :newBetTypes::text[], :newAmounts::bigint[], :newPatrons::text[], :newSeatings::uuid[], :newResults::text[],
              :newPayouts::bigint[], :newCommissions::bigint[], :newNets::bigint[])
       AS u(id, seat, bet_type, amount, patron_id, seating_id, result, payout, commission, net), guard
  RETURNING 1
), wagers_stored AS (
  UPDATE wagers w SET status = 'SETTLED', result = v.result::"WagerResult", payout = v.payout, commission = v.commission, net = v.net,
                      settled_at = :settledAt::timestamptz, coup_id = :coupId::uuid
  FROM unnest(:storedIds::uuid[], :storedResults::text[], :storedPayouts::bigint[], :storedCommissions::bigint[], :storedNets::bigint[])
       AS v(id, result, payout, commission, net), guard
  WHERE w.id = v.id AND w.status = 'OPEN'
  RETURNING 1
), carried_forward AS (
  INSERT INTO wagers (id, coup_id, shoe_id, table_id, seat, bet_type, amount, patron_id, seating_id, status, carried_from_id, placed_at)
  SELECT u.id, NULL, :shoeId::uuid, :tableId::uuid, u.seat, u.bet_type::"BetType", u.amount, u.patron_id, u.seating_id, 'OPEN', u.carried_from_id, :settledAt::timestamptz
  FROM unnest(:carriedIds::uuid[], :carriedSeats::int[], :carriedBetTypes::text[], :carriedAmounts::bigint[], :carriedPatrons::text[], :carriedSeatings::uuid[],
              :carriedFrom::uuid[])
       AS u(id, seat, bet_type, amount, patron_id, seating_id, carried_from_id), guard
  RETURNING 1
), accruals AS (
  INSERT INTO commission_entries (id, shoe_id, table_id, seat, patron_id, kind, amount, coup_id, wager_id, created_by_key_id, created_at)
  SELECT gen_random_uuid(), :shoeId::uuid, :tableId::uuid, u.seat, u.patron_id, 'ACCRUAL', u.amount, :coupId::uuid, u.wager_id, :createdByKeyId, :settledAt::timestamptz
  FROM unnest(:accrualSeats::int[], :accrualPatrons::text[], :accrualAmounts::bigint[], :accrualWagers::uuid[]) AS u(seat, patron_id, amount, wager_id), guard
  RETURNING 1
),
-- ledger:rollups begin
rollup_bets AS (
  SELECT * FROM unnest(:rollupBetTypes::text[], :rollupWagers::bigint[], :rollupHandle::bigint[], :rollupPayouts::bigint[],
                       :rollupCommission::bigint[], :rollupNet::bigint[], :rollupWins::bigint[], :rollupLosses::bigint[],
                       :rollupPushes::bigint[], :rollupTheo::numeric[], :rollupVar::numeric[])
         AS u(bet_type, wagers, handle, payouts, commission, net, wins, losses, pushes, theo, var)
), rollup_day AS (
  INSERT INTO wager_rollups AS r (table_id, gaming_day, bet_type, wagers, handle, payouts, commission, customer_net, wins, losses, pushes, theo_e12, var_e12)
  SELECT :rollupTableId::uuid, :rollupDay::date, u.bet_type::"BetType", u.wagers, u.handle, u.payouts, u.commission, u.net, u.wins, u.losses, u.pushes, u.theo, u.var
  FROM rollup_bets u, guard
  ON CONFLICT (table_id, gaming_day, bet_type) DO UPDATE SET
    wagers = r.wagers + EXCLUDED.wagers, handle = r.handle + EXCLUDED.handle, payouts = r.payouts + EXCLUDED.payouts,
    commission = r.commission + EXCLUDED.commission, customer_net = r.customer_net + EXCLUDED.customer_net, theo_e12 = r.theo_e12 + EXCLUDED.theo_e12, var_e12 = r.var_e12 + EXCLUDED.var_e12,
    wins = r.wins + EXCLUDED.wins, losses = r.losses + EXCLUDED.losses, pushes = r.pushes + EXCLUDED.pushes
  RETURNING 1
), rollup_month AS (
  INSERT INTO month_rollups AS r (table_id, month, bet_type, wagers, handle, payouts, commission, customer_net, wins, losses, pushes, theo_e12, var_e12)
  SELECT :rollupTableId::uuid, :rollupMonth::date, u.bet_type::"BetType", u.wagers, u.handle, u.payouts, u.commission, u.net, u.wins, u.losses, u.pushes, u.theo, u.var
  FROM rollup_bets u, guard
  ON CONFLICT (table_id, month, bet_type) DO UPDATE SET
    wagers = r.wagers + EXCLUDED.wagers, handle = r.handle + EXCLUDED.handle, payouts = r.payouts + EXCLUDED.payouts,
    commission = r.commission + EXCLUDED.commission, customer_net = r.customer_net + EXCLUDED.customer_net, theo_e12 = r.theo_e12 + EXCLUDED.theo_e12, var_e12 = r.var_e12 + EXCLUDED.var_e12,
    wins = r.wins + EXCLUDED.wins, losses = r.losses + EXCLUDED.losses, pushes = r.pushes + EXCLUDED.pushes
  RETURNING 1
), rollup_table_day AS (
  INSERT INTO table_day_rollups AS c (table_id, gaming_day, coups, banker_wins, player_wins, ties, naturals, wagers, handle, payouts, commission, customer_net, theo_e12, var_e12)
  SELECT :rollupTableId::uuid, :rollupDay::date, :rollupCoups::bigint, :rollupBankerWins::bigint, :rollupPlayerWins::bigint, :rollupTies::bigint,
         :rollupNaturals::bigint, :rollupTotalWagers::bigint, :rollupTotalHandle::bigint, :rollupTotalPayouts::bigint, :rollupTotalCommission::bigint,
         :rollupTotalNet::bigint, :rollupTotalTheo::numeric, :rollupTotalVar::numeric
  FROM guard
  ON CONFLICT (table_id, gaming_day) DO UPDATE SET
    coups = c.coups + EXCLUDED.coups, banker_wins = c.banker_wins + EXCLUDED.banker_wins, player_wins = c.player_wins + EXCLUDED.player_wins,
    ties = c.ties + EXCLUDED.ties, naturals = c.naturals + EXCLUDED.naturals,
    wagers = c.wagers + EXCLUDED.wagers, handle = c.handle + EXCLUDED.handle, payouts = c.payouts + EXCLUDED.payouts,
    commission = c.commission + EXCLUDED.commission, customer_net = c.customer_net + EXCLUDED.customer_net, theo_e12 = c.theo_e12 + EXCLUDED.theo_e12,
    var_e12 = c.var_e12 + EXCLUDED.var_e12
  RETURNING 1
), rollup_patron AS (
  INSERT INTO patron_rollups AS p (patron_id, gaming_day, table_id, seating_key, bet_type, wagers, handle, customer_net, theo_e12)
  SELECT u.patron_id, :rollupDay::date, :rollupTableId::uuid, u.visit, u.bet_type::"BetType", u.wagers, u.handle, u.net, u.theo
  FROM unnest(:patronPatrons::text[], :patronVisits::uuid[], :patronBets::text[], :patronWagers::bigint[], :patronHandle::bigint[],
              :patronNet::bigint[], :patronTheo::numeric[]) AS u(patron_id, visit, bet_type, wagers, handle, net, theo), guard
  ON CONFLICT (patron_id, gaming_day, table_id, seating_key, bet_type) DO UPDATE SET
    wagers = p.wagers + EXCLUDED.wagers, handle = p.handle + EXCLUDED.handle, customer_net = p.customer_net + EXCLUDED.customer_net,
    theo_e12 = p.theo_e12 + EXCLUDED.theo_e12
  RETURNING 1
), rollup_patron_coups AS (
  INSERT INTO patron_coup_rollups AS p (patron_id, gaming_day, table_id, seating_key, coups, var_e12)
  SELECT u.patron_id, :rollupDay::date, :rollupTableId::uuid, u.visit, u.coups, u.var
  FROM unnest(:patronCoupPatrons::text[], :patronCoupVisits::uuid[], :patronCoupCoups::bigint[], :patronCoupVar::numeric[])
       AS u(patron_id, visit, coups, var), guard
  ON CONFLICT (patron_id, gaming_day, table_id, seating_key) DO UPDATE SET coups = p.coups + EXCLUDED.coups, var_e12 = p.var_e12 + EXCLUDED.var_e12
  RETURNING 1
)
-- ledger:rollups end
,
-- ledger:audit begin
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
-- ledger:audit end
, idempotent_answer AS (
  UPDATE idempotency_records SET status_code = :answerStatus::int, response_body = :answerBody::jsonb, completed_at = now()
  WHERE id = :answerRecordId::uuid AND EXISTS (SELECT 1 FROM guard)
  RETURNING 1
)
SELECT (SELECT count(*) FROM guard) AS applied, (SELECT count(*) FROM wagers_stored) AS stored;
