-- The pit's state, as SQL: every write to casino_tables, shoes, open wagers and seatings is here,
-- and nowhere else in src/ (test/unit/architecture.spec.ts fails otherwise). Each statement is one
-- named change of state, taking what the engine computed (the cards left in a shoe, a new shoe,
-- cards returned) and moving the version of the shoe it touches itself: a trigger advances
-- shoes.version on every update (prisma/migrations/20261121130000_shoe_version), and every change
-- below that alters what a coup is computed from (the shoe, the bets waiting on it, who is seated
-- at its table) updates the shoe's row in the same statement. So a whole coup computed from an
-- earlier read (src/table-games/coups/, written only if the version has not moved) can never apply over it.
--
-- The open wagers of a shoe have no gaming day yet: every lookup of one says `gaming_day IS NULL`
-- and reads the ledger's open partition alone (prisma/migrations/20261130090000_ledger_partitions).
--
-- Two fragments are included by the one statement that settles a coup (src/table-games/coups/coups.sql
-- settleCoup), which writes the coup, its wagers, commission, rollups, audit and answer at once:
--
-- fragment: settleShoe begin
  UPDATE shoes SET remaining = :remaining::int[], cards_dealt = :cardsDealt::int, coup_count = :coupCount::int, open_coup_id = NULL,
                   last_coup_number = coalesce(:lastCoupNumber::int, last_coup_number)
  WHERE id = :shoeId::uuid AND status = 'OPEN'
    AND open_coup_id IS NOT DISTINCT FROM :openCoupId::uuid
    AND (:version::bigint IS NULL OR version = :version::bigint)
-- fragment: settleShoe end
--
-- fragment: settleWagers begin
wagers_new AS (
  INSERT INTO wagers (id, coup_id, shoe_id, property_id, seat, bet_type, amount, patron_id, seating_id, status, result, payout, commission, net, carried_from_id, placed_at, settled_at,
                      gaming_day, dead_chips)
  SELECT u.id, :coupId::uuid, :shoeId::uuid, :propertyId::uuid, u.seat, u.bet_type::"BetType", u.amount, u.patron_id, u.seating_id, 'SETTLED', u.result::"WagerResult",
         u.payout, u.commission, u.net, NULL, :settledAt::timestamptz, :settledAt::timestamptz, :gamingDay::date, u.dead
  FROM unnest(:newIds::uuid[], :newSeats::int[], :newBetTypes::text[], :newAmounts::bigint[], :newPatrons::text[], :newSeatings::uuid[], :newResults::text[],
              :newPayouts::bigint[], :newCommissions::bigint[], :newNets::bigint[], :newDead::bool[])
       AS u(id, seat, bet_type, amount, patron_id, seating_id, result, payout, commission, net, dead), guard
  RETURNING 1
), wagers_stored AS (
  UPDATE wagers w SET status = 'SETTLED', result = v.result::"WagerResult", payout = v.payout, commission = v.commission, net = v.net,
                      settled_at = :settledAt::timestamptz, coup_id = :coupId::uuid, gaming_day = :gamingDay::date
  FROM unnest(:storedIds::uuid[], :storedResults::text[], :storedPayouts::bigint[], :storedCommissions::bigint[], :storedNets::bigint[])
       AS v(id, result, payout, commission, net), guard
  WHERE w.id = v.id AND w.gaming_day IS NULL AND w.status = 'OPEN'
  RETURNING 1
), carried_forward AS (
  INSERT INTO wagers (id, coup_id, shoe_id, property_id, seat, bet_type, amount, patron_id, seating_id, status, carried_from_id, placed_at, dead_chips)
  SELECT u.id, NULL, :shoeId::uuid, :propertyId::uuid, u.seat, u.bet_type::"BetType", u.amount, u.patron_id, u.seating_id, 'OPEN', u.carried_from_id, :settledAt::timestamptz, u.dead
  FROM unnest(:carriedIds::uuid[], :carriedSeats::int[], :carriedBetTypes::text[], :carriedAmounts::bigint[], :carriedPatrons::text[], :carriedSeatings::uuid[],
              :carriedFrom::uuid[], :carriedDead::bool[])
       AS u(id, seat, bet_type, amount, patron_id, seating_id, carried_from_id, dead), guard
  RETURNING 1
)
-- fragment: settleWagers end

-- When a dealer's shift `s` (a dealer_shifts row) ended: the table's next shift, or the moment the
-- same dealer took another table, whichever came first (null: still dealing here). Who deals a table
-- is the pit's to say: the one statement of the rule, included wherever a shift's end is read (the
-- dealers' rotation, src/table-games/dealers/dealers.sql; the pace report, src/finance/reports/pace.sql).
-- fragment: shiftEnd begin
  least(
    (SELECT min(n.started_at) FROM dealer_shifts n WHERE n.table_id = s.table_id AND (n.started_at, n.id) > (s.started_at, s.id)),
    (SELECT min(o.started_at) FROM dealer_shifts o WHERE o.dealer_id = s.dealer_id AND o.table_id <> s.table_id AND o.started_at >= s.started_at)
  )
-- fragment: shiftEnd end

-- name: lockTable
-- A table's row, locked for the rest of the transaction: its shoes opening and closing, dealer
-- changes, card-ins and card-outs, buy-ins and its own closing and reopening come one after another.
-- FOR NO KEY UPDATE, not FOR UPDATE: rows that refer to the table (a coup's rollups, a bank) take a
-- KEY SHARE lock on it through their foreign key while holding their shoe's lock, and a card-in
-- holds the table's lock while it moves the shoe's version; FOR UPDATE would make the two wait on
-- each other (a deadlock), and the table's key never changes.
SELECT id, status, currency, decks, property_id AS "propertyId" FROM casino_tables WHERE id = :tableId::uuid FOR NO KEY UPDATE;

-- name: lockShoe
-- A shoe's row, locked for the rest of the transaction: every write to a shoe, its coups, its open
-- wagers and its banks comes one after another. Read it with readShoe afterwards, in its own
-- statement: a statement's snapshot is taken before it waits for a lock, so reading in the locking
-- statement could miss what the transaction holding the lock committed meanwhile.
SELECT 1 FROM shoes WHERE id = :shoeId::uuid FOR UPDATE;

-- name: readShoe
-- The one read of a shoe for every path that writes to it: the shoe, its version, the limits in
-- force at its table (its change of limits; none: the table's opening limits), the tie bets waiting
-- for its next coup and the patrons seated at its table, as of one snapshot.
SELECT s.id, s.table_id AS "tableId", s.property_id AS "propertyId", s.number, s.decks, s.status, s.burn_cards AS "burnCards",
       s.cut_card_position AS "cutCardPosition", s.shuffle_ref AS "shuffleRef", s.remaining, s.cards_dealt AS "cardsDealt", s.coup_count AS "coupCount",
       s.open_coup_id AS "openCoupId", s.last_coup_number AS "lastCoupNumber", s.opened_at AS "openedAt", s.closed_at AS "closedAt",
       s.limits_id AS "limitsId", s.version::text AS version,
       (SELECT json_build_object('id', l.id, 'minBet', l.min_bet::text, 'maxBet', l.max_bet::text, 'betLimits', l.bet_limits)
        FROM table_limits l WHERE l.id = s.limits_id) AS "limitsInForce",
       (SELECT coalesce(json_agg(json_build_object('id', w.id, 'seat', w.seat, 'betType', w.bet_type, 'amount', w.amount::text,
                                                   'patronId', w.patron_id, 'seatingId', w.seating_id, 'carriedFromId', w.carried_from_id,
                                                   'dead', w.dead_chips)
                                 ORDER BY w.placed_at, w.id), '[]'::json)
        FROM wagers w WHERE w.shoe_id = s.id AND w.gaming_day IS NULL AND w.coup_id IS NULL AND w.status = 'OPEN') AS carried,
       (SELECT coalesce(json_agg(json_build_object('id', st.id, 'patronId', st.patron_id, 'seat', st.seat) ORDER BY st.started_at, st.id), '[]'::json)
        FROM seatings st WHERE st.table_id = s.table_id AND st.ended_at IS NULL) AS seated
FROM shoes s WHERE s.id = :shoeId::uuid;

-- name: openTable
-- A new table, with the rules the engine checked (src/domain/game/rules.ts). Its rules never change.
INSERT INTO casino_tables (id, property_id, code, pit, variant, currency, min_bet, max_bet, decks, commission_bps, tie_bets_stay, side_bets, pays,
                           perfect_pair_both_pays, bet_limits, rounding_mode, rounding_unit)
VALUES (:id::uuid, :propertyId::uuid, :code, :pit, :variant::"Variant", :currency, :minBet::bigint, :maxBet::bigint, :decks::int, :commissionBps::int,
        :tieBetsStay::bool, :sideBets::"BetType"[], :pays::jsonb, :perfectPairBothPays, :betLimits::jsonb, :roundingMode, :roundingUnit::int);

-- name: closeTable
-- The table closes (it has no open shoe) and every card still in comes out with it: a patron's time
-- played ends when the game does, when the table's lock is held (clock_timestamp, not the
-- transaction's start), and never before the card went in (that clock may be another machine's).
WITH closed AS (
  UPDATE casino_tables SET status = 'CLOSED' WHERE id = :tableId::uuid RETURNING id
)
UPDATE seatings SET ended_at = greatest(clock_timestamp(), started_at), ended_by_key_id = :keyId
WHERE table_id = :tableId::uuid AND ended_at IS NULL AND EXISTS (SELECT 1 FROM closed)
RETURNING id, patron_id, seat, started_at, ended_at;

-- name: reopenTable
UPDATE casino_tables SET status = 'OPEN' WHERE id = :tableId::uuid;

-- name: openShoe
-- A shoe brought to the table (its table locked and open, no other shoe open at it), its cards as
-- the engine counted them after the burn (src/domain/game/shoe.ts newShoe), numbered after the last,
-- under the table's limits in force (its latest change; none: its opening limits).
INSERT INTO shoes (id, table_id, property_id, number, decks, burn_cards, cut_card_position, shuffle_ref, remaining, cards_dealt, limits_id)
SELECT :id::uuid, :tableId::uuid, :propertyId::uuid, coalesce(max(s.number), 0) + 1, :decks::int, :burnCards::text[], :cutCardPosition::int, :shuffleRef,
       :remaining::int[], :cardsDealt::int,
       (SELECT l.id FROM table_limits l WHERE l.table_id = :tableId::uuid ORDER BY l.seq DESC LIMIT 1)
FROM shoes s WHERE s.table_id = :tableId::uuid;

-- name: changeLimits
-- A change of a table's limits (the table locked; its open shoe, if any, locked and taking no bets):
-- numbered after the table's last, effective when the locks are held (clock_timestamp, not the
-- transaction's start: after every coup written under the limits before), and the open shoe moved
-- onto it, which moves the shoe's version. Answers the change and the shoe moved.
WITH change AS (
  INSERT INTO table_limits (id, table_id, property_id, seq, min_bet, max_bet, bet_limits, reason, changed_by_key_id, effective_at)
  SELECT :id::uuid, t.id, t.property_id, coalesce((SELECT max(l.seq) FROM table_limits l WHERE l.table_id = t.id), 0) + 1,
         :minBet::bigint, :maxBet::bigint, :betLimits::jsonb, :reason, :keyId, clock_timestamp()
  FROM casino_tables t WHERE t.id = :tableId::uuid
  RETURNING id, seq, effective_at
), moved AS (
  UPDATE shoes SET limits_id = (SELECT id FROM change) WHERE table_id = :tableId::uuid AND status = 'OPEN' AND open_coup_id IS NULL
  RETURNING id
)
SELECT c.id, c.seq, c.effective_at AS "effectiveAt", (SELECT m.id FROM moved m) AS "shoeId" FROM change c;

-- name: closeShoe
-- The shoe closes (no coup taking bets on it): tie bets waiting for a next coup that will not come
-- go back to their owners. Answers the bets returned.
WITH closed AS (
  UPDATE shoes SET status = 'CLOSED', closed_at = :closedAt::timestamptz WHERE id = :shoeId::uuid RETURNING id
)
UPDATE wagers SET status = 'WITHDRAWN'
WHERE shoe_id = :shoeId::uuid AND gaming_day IS NULL AND coup_id IS NULL AND status = 'OPEN' AND EXISTS (SELECT 1 FROM closed)
RETURNING id;

-- name: dealShoe
-- Cards out of the shoe for a coup written elsewhere than settleCoup (a player-banked coup): the
-- shoe as the engine left it (src/domain/game/shoe.ts dealFrom).
UPDATE shoes SET remaining = :remaining::int[], cards_dealt = :cardsDealt::int, coup_count = :coupCount::int,
                 last_coup_number = coalesce(:lastCoupNumber::int, last_coup_number)
WHERE id = :shoeId::uuid;

-- name: openCoup
-- A coup opens for betting (its row written by the coups room just before): it becomes the shoe's
-- coup taking bets, the tie bets waiting join it, and the new bets are placed on it.
WITH joined AS (
  UPDATE wagers SET coup_id = :coupId::uuid WHERE id = ANY (:carriedIds::uuid[]) AND gaming_day IS NULL AND status = 'OPEN' AND coup_id IS NULL
  RETURNING id
),
-- include: pit.sql placed
UPDATE shoes SET coup_count = :coupNumber::int, open_coup_id = :coupId::uuid WHERE id = :shoeId::uuid;

-- name: placeWagers
-- New bets on the coup taking bets, as the engine admitted them (src/domain/game/limits.ts). The shoe's
-- version moves: what its open coup holds has changed.
WITH
-- fragment: placed begin
placed AS (
  INSERT INTO wagers (id, coup_id, shoe_id, property_id, seat, bet_type, amount, patron_id, seating_id, status, placed_at, dead_chips)
  SELECT u.id, :coupId::uuid, :shoeId::uuid, :propertyId::uuid, u.seat, u.bet_type::"BetType", u.amount, u.patron_id, u.seating_id, 'OPEN', :placedAt::timestamptz, u.dead
  FROM unnest(:ids::uuid[], :seats::int[], :betTypes::text[], :amounts::bigint[], :patrons::text[], :seatings::uuid[], :dead::bool[])
       AS u(id, seat, bet_type, amount, patron_id, seating_id, dead)
  RETURNING 1
)
-- fragment: placed end
UPDATE shoes SET version = version + 1 WHERE id = :shoeId::uuid;

-- name: withdrawWager
-- A carried tie bet taken back before its coup's cards (it is OPEN and carried: checked under the
-- shoe's lock). The bets waiting for the next coup changed: the shoe's version moves.
WITH withdrawn AS (
  UPDATE wagers SET status = 'WITHDRAWN' WHERE id = :wagerId::uuid AND gaming_day IS NULL AND status = 'OPEN' RETURNING id
)
UPDATE shoes SET version = version + 1 WHERE id = :shoeId::uuid AND EXISTS (SELECT 1 FROM withdrawn);

-- name: cancelOpenCoup
-- A coup voided while taking bets: its new bets go back to their owners, the carried tie bets on
-- it wait for the next coup again, and the shoe has no coup taking bets. Answers the bets returned.
WITH detached AS (
  UPDATE wagers SET coup_id = NULL
  WHERE coup_id = :coupId::uuid AND gaming_day IS NULL AND status = 'OPEN' AND carried_from_id IS NOT NULL
  RETURNING id
), shoe AS (
  UPDATE shoes SET open_coup_id = NULL WHERE id = :shoeId::uuid RETURNING id
)
UPDATE wagers SET status = 'WITHDRAWN'
WHERE coup_id = :coupId::uuid AND gaming_day IS NULL AND status = 'OPEN' AND carried_from_id IS NULL
RETURNING id;

-- name: undoSettledCoup
-- A settled coup voided: the tie bets it carried forward, not yet played (waiting, or on a coup
-- still taking bets), go back to their owners;
-- its cards go back into the shoe when they never came out of it (:remaining and :cardsDealt from
-- the engine, src/domain/game/shoe.ts returnToShoe), else the shoe keeps its cards and its version moves.
-- Answers the bets returned.
WITH shoe AS (
  UPDATE shoes SET remaining = coalesce(:remaining::int[], remaining), cards_dealt = coalesce(:cardsDealt::int, cards_dealt)
  WHERE id = :shoeId::uuid RETURNING id
)
UPDATE wagers SET status = 'WITHDRAWN'
WHERE carried_from_id = ANY (:wagerIds::uuid[]) AND gaming_day IS NULL AND status = 'OPEN'
RETURNING id;

-- name: seat
-- A patron's card in at a seat (the table locked and open, the patron registered and not seated
-- elsewhere): the table's next wagers become theirs, so the version of its open shoe moves.
WITH seated AS (
  INSERT INTO seatings (id, patron_id, table_id, seat, gaming_day, started_at, started_by_key_id)
  VALUES (:id::uuid, :patronId, :tableId::uuid, :seat::int, :gamingDay::date, :startedAt::timestamptz, :keyId)
  RETURNING id
)
UPDATE shoes SET version = version + 1 WHERE table_id = :tableId::uuid AND status = 'OPEN' AND EXISTS (SELECT 1 FROM seated);

-- name: unseat
-- A patron's card out (the table locked), never before it went in (that clock may be another
-- instance's). Answers the seating ended, none if it had ended already.
WITH ended AS (
  UPDATE seatings SET ended_at = greatest(:endedAt::timestamptz, started_at), ended_by_key_id = :keyId
  WHERE id = :seatingId::uuid AND ended_at IS NULL RETURNING id, table_id
), moved AS (
  UPDATE shoes SET version = version + 1 WHERE table_id = (SELECT table_id FROM ended) AND status = 'OPEN'
)
SELECT id FROM ended;

-- name: openShoeOf
-- The shoe open at a table, if any (read under the table's lock).
SELECT id, number FROM shoes WHERE table_id = :tableId::uuid AND status = 'OPEN';

-- name: seatedAt
-- The patrons seated at a table now, in the order their cards went in.
SELECT id, patron_id AS "patronId", seat FROM seatings WHERE table_id = :tableId::uuid AND ended_at IS NULL ORDER BY started_at, id;
