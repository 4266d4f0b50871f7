-- The coups room's writes, as SQL. Parameters are named (:name); src/platform/database/named-sql.ts turns
-- them into $1… once, at load. What it writes to the pit's tables (the shoe, its wagers) is the
-- pit's own SQL, included from src/foundation/pit/pit.sql.

-- name: settleCoup
-- A coup settled in one statement: the shoe (its composition, counters and version), the coup
-- (inserted whole, or its cards recorded on the coup taking bets), its new wagers inserted settled,
-- its stored wagers (carried ties, bets placed before the cards) settled in place, tie bets carried
-- to the next coup, commission accrued against each seat (an accrual's id is its wager's: one each), the rollups, the audit entry and, for a
-- request with an Idempotency-Key, its key's record with the answer (src/platform/database/database.sql: a key
-- answered already, or being answered by another transaction that then commits, fails the whole
-- statement on the key's unique index, and nothing is written).
--
-- Everything reads from `guard`, the shoe's update: nothing is written unless the shoe is open, is
-- where the coup expects it (no coup taking bets, or this one), is at :version when one is given
-- (a coup computed without the shoe's lock applies only if the shoe has not moved since it was
-- read), and the caller's key is still valid when :confirmKeyId is given (a key recognised from
-- memory), with the secret it was recognised by (:confirmKeyHash: a key claimed since, on any
-- instance, has another). Answers `applied` (0: the shoe moved) and the shoe's new `version`.
--
-- The ledgers are partitioned by gaming day: rows still open have none and sit in the open
-- partition, so every lookup of one says `gaming_day IS NULL` and reads that partition alone.
-- Settling sets the day, and PostgreSQL moves the row to its month.
WITH guard AS (
-- include: ../../foundation/pit/pit.sql settleShoe
    AND (:confirmKeyId::uuid IS NULL OR EXISTS (
      SELECT 1 FROM api_keys k WHERE k.id = :confirmKeyId::uuid AND (:confirmKeyHash::text IS NULL OR k.key_hash = :confirmKeyHash) AND
-- include: ../../foundation/access/access.sql keyValid
    ))
  RETURNING version AS shoe_version
), coup_new AS (
  INSERT INTO coups (id, shoe_id, table_id, property_id, number, status, player_cards, banker_cards, winner, player_total, banker_total, card_count, "natural", opened_at, settled_at,
                     gaming_day, limits_id, recorded_offline_at)
  SELECT :coupId::uuid, :shoeId::uuid, :tableId::uuid, :propertyId::uuid, :coupNumber::int, 'SETTLED', :playerCards::text[], :bankerCards::text[], :winner::"Winner",
         :playerTotal::int, :bankerTotal::int, :cardCount::int, :natural::bool, :settledAt::timestamptz, :settledAt::timestamptz, :gamingDay::date, :limitsId::uuid,
         :recordedOfflineAt::timestamptz
  FROM guard WHERE :openCoupId::uuid IS NULL
  RETURNING 1
), coup_dealt AS (
  UPDATE coups SET status = 'SETTLED', player_cards = :playerCards::text[], banker_cards = :bankerCards::text[], winner = :winner::"Winner",
                   player_total = :playerTotal::int, banker_total = :bankerTotal::int, card_count = :cardCount::int, "natural" = :natural::bool,
                   settled_at = :settledAt::timestamptz, gaming_day = :gamingDay::date
  WHERE id = :coupId::uuid AND gaming_day IS NULL AND :openCoupId::uuid IS NOT NULL AND status = 'BETTING' AND EXISTS (SELECT 1 FROM guard)
  RETURNING 1
),
-- include: ../../foundation/pit/pit.sql settleWagers
, accruals AS (
  INSERT INTO commission_entries (id, shoe_id, table_id, property_id, seat, patron_id, kind, amount, coup_id, wager_id, created_by_key_id, created_at)
  SELECT u.wager_id, :shoeId::uuid, :tableId::uuid, :propertyId::uuid, u.seat, u.patron_id, 'ACCRUAL', u.amount, :coupId::uuid, u.wager_id, :createdByKeyId, :settledAt::timestamptz
  FROM unnest(:accrualSeats::int[], :accrualPatrons::text[], :accrualAmounts::bigint[], :accrualWagers::uuid[]) AS u(seat, patron_id, amount, wager_id), guard
  RETURNING 1
),
-- include: ../../foundation/ledger/ledger.sql rollups
,
-- include: ../../foundation/ledger/ledger.sql audit
, idempotent_answer AS (
-- include: ../../platform/database/database.sql storeAnswer
  FROM guard WHERE :answerRecordId::uuid IS NOT NULL
  RETURNING 1
)
-- Every stored wager the coup was computed with must be settled by it: if one was not (changed under
-- the shoe's version: only an edit behind the service's back does that), the whole statement is
-- undone (SB001, prisma/migrations/20261205090000_shoe_version_unrepeatable) and the coup is
-- computed again from a read.
SELECT (SELECT count(*) FROM guard) AS applied, (SELECT shoe_version::text FROM guard) AS version,
       sabot_assert(NOT EXISTS (SELECT 1 FROM guard) OR (SELECT count(*) FROM wagers_stored) = :storedCount::int,
                    'The bets waiting on the shoe changed under its version') AS checked;

-- name: answeredCoup
-- A coup as the ledger holds it now, with its wagers: what a stored answer replayed to a retry is
-- checked against (coup-answers.ts coupAnswerAgrees; off the hot path, only when an answer is replayed).
SELECT c.id, c.shoe_id, c.number, c.status::text AS status, c.player_cards, c.banker_cards, c.winner::text AS winner,
  coalesce((SELECT json_agg(json_build_object('id', w.id, 'seat', w.seat, 'betType', w.bet_type, 'amount', w.amount::text, 'status', w.status,
                                              'result', w.result, 'payout', w.payout::text, 'commission', w.commission::text, 'net', w.net::text))
            FROM wagers w WHERE w.coup_id = c.id), '[]') AS wagers
FROM coups c WHERE c.id = :coupId::uuid;
