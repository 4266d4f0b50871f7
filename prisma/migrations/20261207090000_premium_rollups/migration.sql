-- Premium (dead-chip) play in the rollups (issue 38; docs/domain.md §14 "Premium and mass"). Written
-- with the coup in the same statement as every other rollup sum and taken out by a void
-- (src/ledger/ledger.sql applyCoupRollups):
-- - per table × gaming day, table × gaming day × bet type and table × month × bet type: the dead-chip
--   wagers' count, stakes, commission, customer net and theo × 10^12 beside the totals, so that
--   mass = total − premium in the win/loss reports and the quarterly statement;
-- - per patron, day, table, visit and bet type (patron_rollups): the patron's dead-chip wagers, their
--   stakes, net, rolled (stakes lost), theo and expected rolling (Σ stake × P(the bet loses)) × 10^12;
--   and per visit and whole play (patron_coup_rollups): the dead stakes' variance per coup × 10^12.
--   The rolling account reads these instead of the wagers.
-- The rollups are not partitioned, so a detached ledger month attaches as before; its dead-chip
-- wagers are summed below from its detached partition all the same.
ALTER TABLE "wager_rollups"
  ADD COLUMN "premium_wagers" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "premium_handle" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "premium_commission" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "premium_customer_net" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "premium_theo_e12" DECIMAL(40,0) NOT NULL DEFAULT 0;
ALTER TABLE "month_rollups"
  ADD COLUMN "premium_wagers" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "premium_handle" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "premium_commission" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "premium_customer_net" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "premium_theo_e12" DECIMAL(40,0) NOT NULL DEFAULT 0;
ALTER TABLE "table_day_rollups"
  ADD COLUMN "premium_wagers" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "premium_handle" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "premium_commission" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "premium_customer_net" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "premium_theo_e12" DECIMAL(40,0) NOT NULL DEFAULT 0;
ALTER TABLE "patron_rollups"
  ADD COLUMN "dead_wagers" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "dead_handle" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "dead_customer_net" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "dead_rolled" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "dead_theo_e12" DECIMAL(40,0) NOT NULL DEFAULT 0,
  ADD COLUMN "dead_expected_rolled_e12" DECIMAL(40,0) NOT NULL DEFAULT 0;
ALTER TABLE "patron_coup_rollups" ADD COLUMN "dead_var_e12" DECIMAL(50,0) NOT NULL DEFAULT 0;

-- The settled dead-chip wagers of coups that stand, attached months and detached ones alike, with
-- their table (the shoe's) and their visit key as the patron rollups keep it.
CREATE TEMPORARY TABLE "premium_backfill" ON COMMIT DROP AS
SELECT s.table_id, w.gaming_day, w.bet_type, w.amount, w.commission, w.net, w.result, w.patron_id,
       coalesce(w.seating_id, '00000000-0000-0000-0000-000000000000'::uuid) AS seating_key
FROM wagers w JOIN shoes s ON s.id = w.shoe_id
WHERE w.dead_chips AND w.status = 'SETTLED' AND w.gaming_day IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = w.coup_id);
DO $$
DECLARE
  m RECORD;
BEGIN
  FOR m IN SELECT month FROM ledger_months_detached LOOP
    EXECUTE format(
      'INSERT INTO premium_backfill SELECT s.table_id, w.gaming_day, w.bet_type, w.amount, w.commission, w.net, w.result, w.patron_id,
              coalesce(w.seating_id, ''00000000-0000-0000-0000-000000000000''::uuid)
       FROM %I w JOIN shoes s ON s.id = w.shoe_id
       WHERE w.dead_chips AND w.status = ''SETTLED'' AND w.gaming_day IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = w.coup_id)', 'wagers_' || to_char(m.month, 'YYYY_MM'));
  END LOOP;
END $$;

-- Theo from the edge each table's rollups were kept with (theo_e12 ÷ handle: exact, one edge per
-- table and bet, as migration 20261126110000_patron_rollups took it); the expected rolling from each
-- bet's exact probability of losing × 10^12 (src/domain/moments.ts quantisedLossProbabilities), which
-- depends on the shoe's decks alone for every casino-banked variant (written out here from the engine).
CREATE TEMPORARY TABLE "premium_edges" ON COMMIT DROP AS
SELECT table_id, bet_type, max(theo_e12 / handle) AS edge_e12 FROM wager_rollups WHERE handle > 0 GROUP BY table_id, bet_type;
CREATE TEMPORARY TABLE "premium_losses" ("decks" INTEGER, "bet_type" TEXT, "loss_e12" BIGINT) ON COMMIT DROP;
INSERT INTO "premium_losses" VALUES
(1, 'PLAYER', 459624155172),
(1, 'BANKER', 446760430304),
(1, 'TIE', 906384585476),
(1, 'PLAYER_PAIR', 941176470588),
(1, 'BANKER_PAIR', 941176470588),
(1, 'EITHER_PAIR', 885858343337),
(1, 'PERFECT_PAIR', 1000000000000),
(1, 'BIG', 380031397174),
(1, 'SMALL', 619968602826),
(1, 'SUPER_6', 946568349107),
(1, 'DRAGON_7', 977458420357),
(1, 'PANDA_8', 965619775461),
(2, 'PLAYER', 459072734552),
(2, 'BANKER', 446508150822),
(2, 'TIE', 905580885374),
(2, 'PLAYER_PAIR', 932038834951),
(2, 'BANKER_PAIR', 932038834951),
(2, 'EITHER_PAIR', 868708686974),
(2, 'PERFECT_PAIR', 980678650389),
(2, 'BIG', 379373683975),
(2, 'SMALL', 620626316025),
(2, 'SUPER_6', 946314413778),
(2, 'DRAGON_7', 977457887129),
(2, 'PANDA_8', 965525774326),
(3, 'PLAYER', 458867756330),
(3, 'BANKER', 446399237682),
(3, 'TIE', 905266994011),
(3, 'PLAYER_PAIR', 929032258065),
(3, 'BANKER_PAIR', 929032258065),
(3, 'EITHER_PAIR', 863106532936),
(3, 'PERFECT_PAIR', 974361122748),
(3, 'BIG', 379150261503),
(3, 'SMALL', 620849738497),
(3, 'SUPER_6', 946233928329),
(3, 'DRAGON_7', 977460723434),
(3, 'PANDA_8', 965494940005),
(4, 'PLAYER', 458761476201),
(4, 'BANKER', 446340349882),
(4, 'TIE', 905101826082),
(4, 'PLAYER_PAIR', 927536231884),
(4, 'BANKER_PAIR', 927536231884),
(4, 'EITHER_PAIR', 860326644634),
(4, 'PERFECT_PAIR', 971225209086),
(4, 'BIG', 379037869542),
(4, 'SMALL', 620962130458),
(4, 'SUPER_6', 946194474759),
(4, 'DRAGON_7', 977462658187),
(4, 'PANDA_8', 965479624344),
(5, 'PLAYER', 458696516686),
(5, 'BANKER', 446303626018),
(5, 'TIE', 905000142705),
(5, 'PLAYER_PAIR', 926640926641),
(5, 'BANKER_PAIR', 926640926641),
(5, 'EITHER_PAIR', 858665457344),
(5, 'PERFECT_PAIR', 969350945371),
(5, 'BIG', 378970228939),
(5, 'SMALL', 621029771061),
(5, 'SUPER_6', 946171055859),
(5, 'DRAGON_7', 977463978783),
(5, 'PANDA_8', 965470468235),
(6, 'PLAYER', 458652718825),
(6, 'BANKER', 446278569839),
(6, 'TIE', 904931288664),
(6, 'PLAYER_PAIR', 926045016077),
(6, 'BANKER_PAIR', 926045016077),
(6, 'EITHER_PAIR', 857560801714),
(6, 'PERFECT_PAIR', 968104464851),
(6, 'BIG', 378925052398),
(6, 'SMALL', 621074947602),
(6, 'SUPER_6', 946155548903),
(6, 'DRAGON_7', 977464924507),
(6, 'PANDA_8', 965464378205),
(7, 'PLAYER', 458621195424),
(7, 'BANKER', 446260393500),
(7, 'TIE', 904881588924),
(7, 'PLAYER_PAIR', 925619834711),
(7, 'BANKER_PAIR', 925619834711),
(7, 'EITHER_PAIR', 856773132078),
(7, 'PERFECT_PAIR', 967215602925),
(7, 'BIG', 378892743748),
(7, 'SMALL', 621107256252),
(7, 'SUPER_6', 946144524282),
(7, 'DRAGON_7', 977465631641),
(7, 'PANDA_8', 965460035114),
(8, 'PLAYER', 458597422633),
(8, 'BANKER', 446246609344),
(8, 'TIE', 904844031976),
(8, 'PLAYER_PAIR', 925301204819),
(8, 'BANKER_PAIR', 925301204819),
(8, 'EITHER_PAIR', 856183128133),
(8, 'PERFECT_PAIR', 966549765754),
(8, 'BIG', 378868490880),
(8, 'SMALL', 621131509120),
(8, 'SUPER_6', 946136284142),
(8, 'DRAGON_7', 977466179140),
(8, 'PANDA_8', 965456781604);

CREATE TEMPORARY TABLE "premium_days" ON COMMIT DROP AS
SELECT b.table_id, b.gaming_day, b.bet_type, count(*) AS wagers, sum(b.amount) AS handle, sum(b.commission) AS commission, sum(b.net) AS net,
       coalesce(round(sum(b.amount) * max(e.edge_e12)), 0) AS theo
FROM premium_backfill b LEFT JOIN premium_edges e ON e.table_id = b.table_id AND e.bet_type = b.bet_type
GROUP BY b.table_id, b.gaming_day, b.bet_type;

UPDATE wager_rollups r SET premium_wagers = d.wagers, premium_handle = d.handle, premium_commission = d.commission,
                           premium_customer_net = d.net, premium_theo_e12 = d.theo
FROM premium_days d WHERE r.table_id = d.table_id AND r.gaming_day = d.gaming_day AND r.bet_type = d.bet_type;
UPDATE month_rollups r SET premium_wagers = d.wagers, premium_handle = d.handle, premium_commission = d.commission,
                           premium_customer_net = d.net, premium_theo_e12 = d.theo
FROM (SELECT table_id, date_trunc('month', gaming_day)::date AS month, bet_type, sum(wagers) AS wagers, sum(handle) AS handle,
             sum(commission) AS commission, sum(net) AS net, sum(theo) AS theo
      FROM premium_days GROUP BY 1, 2, 3) d
WHERE r.table_id = d.table_id AND r.month = d.month AND r.bet_type = d.bet_type;
UPDATE table_day_rollups r SET premium_wagers = d.wagers, premium_handle = d.handle, premium_commission = d.commission,
                               premium_customer_net = d.net, premium_theo_e12 = d.theo
FROM (SELECT table_id, gaming_day, sum(wagers) AS wagers, sum(handle) AS handle, sum(commission) AS commission, sum(net) AS net, sum(theo) AS theo
      FROM premium_days GROUP BY 1, 2) d
WHERE r.table_id = d.table_id AND r.gaming_day = d.gaming_day;

-- The dead stakes' variance per coup is not known here (the covariances follow each table's pay
-- table): it stays 0 for play before this migration, whose rolling account then gives no band
-- beyond the coups after it (as migration 20261126110000_patron_rollups did for the rating).
UPDATE patron_rollups r SET dead_wagers = d.wagers, dead_handle = d.handle, dead_customer_net = d.net, dead_rolled = d.rolled,
                            dead_theo_e12 = d.theo, dead_expected_rolled_e12 = d.expected
FROM (
  SELECT b.patron_id, b.gaming_day, b.table_id, b.seating_key, b.bet_type, count(*) AS wagers, sum(b.amount) AS handle, sum(b.net) AS net,
         coalesce(sum(b.amount) FILTER (WHERE b.result = 'LOSE'), 0) AS rolled,
         coalesce(round(sum(b.amount) * max(e.edge_e12)), 0) AS theo, coalesce(sum(b.amount) * max(l.loss_e12), 0) AS expected
  FROM premium_backfill b
  JOIN casino_tables t ON t.id = b.table_id
  LEFT JOIN premium_edges e ON e.table_id = b.table_id AND e.bet_type = b.bet_type
  LEFT JOIN premium_losses l ON l.decks = t.decks AND l.bet_type = b.bet_type::text AND t.variant IN ('COMMISSION', 'SUPER_6', 'EZ')
  GROUP BY 1, 2, 3, 4, 5
) d
WHERE r.patron_id = d.patron_id AND r.gaming_day = d.gaming_day AND r.table_id = d.table_id AND r.seating_key = d.seating_key AND r.bet_type = d.bet_type;

-- The stored figures of a table-day gain premium and mass (ROLLUP_FIGURES_SQL, src/reports/report-figures.ts,
-- which test/e2e/report-streaming.spec.ts checks against this column). A generated column's
-- expression cannot be altered in PostgreSQL 15: it is dropped and added again.
ALTER TABLE "table_day_rollups" DROP COLUMN "figures_json";
ALTER TABLE "table_day_rollups" ADD COLUMN "figures_json" TEXT GENERATED ALWAYS AS (
  '"wagers":' || coalesce((wagers)::text, 'null')
  || ',"handle":' || coalesce((handle)::text, 'null')
  || ',"payouts":' || coalesce((payouts)::text, 'null')
  || ',"win":' || coalesce((-customer_net)::text, 'null')
  || ',"holdPercent":' || coalesce('"' || (CASE WHEN handle = 0 THEN NULL ELSE round((-customer_net)::numeric(60, 30) * 100 / handle, 4) END)::text || '"', 'null')
  || ',"commissionCharged":' || coalesce((commission)::text, 'null')
  || ',"commissionCollected":' || coalesce((commission_collected)::text, 'null')
  || ',"commissionOutstanding":' || coalesce((commission - commission_collected)::text, 'null')
  || ',"revenue":' || coalesce((-customer_net - (commission - commission_collected))::text, 'null')
  || ',"theoreticalWin":' || coalesce((round(theo_e12 / 1000000000000)::bigint)::text, 'null')
  || ',"winMinusTheoretical":' || coalesce((-customer_net - round(theo_e12 / 1000000000000)::bigint)::text, 'null')
  || ',"theoreticalWinStdDev":' || coalesce((div(floor(sqrt(div(4 * greatest(var_e12, 0), 1000000000000)::numeric(80, 30))) + 1, 2)::bigint)::text, 'null')
  || ',"coups":' || coalesce((coups)::text, 'null')
  || ',"bankedCoups":' || coalesce((banked_coups)::text, 'null')
  || ',"houseCommission":' || coalesce((house_commission)::text, 'null')
  || ',"totalRevenue":' || coalesce((-customer_net - (commission - commission_collected) + house_commission)::text, 'null')
  || ',"outcomes":' || '{' || '"bankerWins":' || coalesce((banker_wins)::text, 'null')
  || ',"playerWins":' || coalesce((player_wins)::text, 'null')
  || ',"ties":' || coalesce((ties)::text, 'null')
  || ',"naturals":' || coalesce((naturals)::text, 'null') || '}'
  || ',"expectedOutcomes":' || '{' || '"bankerWins":' || coalesce('"' || (round((coups * CASE decks WHEN 1 THEN 0.459624155172162 WHEN 2 THEN 0.459072734551641 WHEN 3 THEN 0.458867756329930 WHEN 4 THEN 0.458761476200800 WHEN 5 THEN 0.458696516686345 WHEN 6 THEN 0.458652718825324 WHEN 7 THEN 0.458621195423937 WHEN 8 THEN 0.458597422632763 END), 2))::text || '"', 'null')
  || ',"playerWins":' || coalesce('"' || (round((coups * CASE decks WHEN 1 THEN 0.446760430304146 WHEN 2 THEN 0.446508150822404 WHEN 3 THEN 0.446399237681564 WHEN 4 THEN 0.446340349881558 WHEN 5 THEN 0.446303626018198 WHEN 6 THEN 0.446278569838877 WHEN 7 THEN 0.446260393499808 WHEN 8 THEN 0.446246609343597 END), 2))::text || '"', 'null')
  || ',"ties":' || coalesce('"' || (round((coups * CASE decks WHEN 1 THEN 0.093615414523693 WHEN 2 THEN 0.094419114625955 WHEN 3 THEN 0.094733005988506 WHEN 4 THEN 0.094898173917642 WHEN 5 THEN 0.094999857295457 WHEN 6 THEN 0.095068711335799 WHEN 7 THEN 0.095118411076256 WHEN 8 THEN 0.095155968023640 END), 2))::text || '"', 'null')
  || ',"naturals":' || coalesce('"' || (round((coups * CASE decks WHEN 1 THEN 0.344410995167298 WHEN 2 THEN 0.343647535249505 WHEN 3 THEN 0.343384130101398 WHEN 4 THEN 0.343250869207072 WHEN 5 THEN 0.343170427868645 WHEN 6 THEN 0.343116601451403 WHEN 7 THEN 0.343078057588368 WHEN 8 THEN 0.343049097331666 END), 2))::text || '"', 'null') || '}'
  || ',"premium":' || '{' || '"wagers":' || coalesce((premium_wagers)::text, 'null')
  || ',"handle":' || coalesce((premium_handle)::text, 'null')
  || ',"win":' || coalesce((-premium_customer_net)::text, 'null')
  || ',"holdPercent":' || coalesce('"' || (CASE WHEN premium_handle = 0 THEN NULL ELSE round((-premium_customer_net)::numeric(60, 30) * 100 / premium_handle, 4) END)::text || '"', 'null')
  || ',"commissionCharged":' || coalesce((premium_commission)::text, 'null')
  || ',"theoreticalWin":' || coalesce((round(premium_theo_e12 / 1000000000000)::bigint)::text, 'null') || '}'
  || ',"mass":' || '{' || '"wagers":' || coalesce((wagers - premium_wagers)::text, 'null')
  || ',"handle":' || coalesce((handle - premium_handle)::text, 'null')
  || ',"win":' || coalesce((premium_customer_net - customer_net)::text, 'null')
  || ',"holdPercent":' || coalesce('"' || (CASE WHEN (handle - premium_handle) = 0 THEN NULL ELSE round((premium_customer_net - customer_net)::numeric(60, 30) * 100 / (handle - premium_handle), 4) END)::text || '"', 'null')
  || ',"commissionCharged":' || coalesce((commission - premium_commission)::text, 'null')
  || ',"theoreticalWin":' || coalesce((round(theo_e12 / 1000000000000)::bigint - round(premium_theo_e12 / 1000000000000)::bigint)::text, 'null') || '}'
) STORED;
