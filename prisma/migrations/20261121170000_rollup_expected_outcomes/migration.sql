-- A table-day rollup row keeps its table's deck count, so that the figures it keeps rendered can
-- include the expected outcome counts (coups × the exact probability for that deck count), the
-- last figures of a win/loss row that were still computed at every request.
-- The deck count is set by PostgreSQL from casino_tables whenever a row is inserted (or its table
-- or deck count changed), so no writer can give it another value; tables never change their decks.
ALTER TABLE "table_day_rollups" ADD COLUMN "decks" INTEGER;
UPDATE "table_day_rollups" r SET "decks" = t."decks" FROM "casino_tables" t WHERE t."id" = r."table_id";
ALTER TABLE "table_day_rollups" ALTER COLUMN "decks" SET NOT NULL;

CREATE FUNCTION sabot_rollup_decks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT t."decks" INTO NEW."decks" FROM "casino_tables" t WHERE t."id" = NEW."table_id";
  RETURN NEW;
END $$;
CREATE TRIGGER table_day_rollups_decks BEFORE INSERT OR UPDATE OF "table_id", "decks" ON "table_day_rollups"
  FOR EACH ROW EXECUTE FUNCTION sabot_rollup_decks();

-- The figures as before, now with the expected outcome counts: ROLLUP_FIGURES_SQL in
-- src/reports/reports.service.ts, generated from the one list of report formulas and the engine's
-- exact probabilities (15 decimal places, as every report uses them); test/e2e/report-streaming.spec.ts
-- checks the stored text against it. A generated column's expression cannot be altered in
-- PostgreSQL 15: the column is dropped and added again (PostgreSQL computes it for every row).
ALTER TABLE "table_day_rollups" DROP COLUMN "figures_json";
ALTER TABLE "table_day_rollups" ADD COLUMN "figures_json" TEXT GENERATED ALWAYS AS (
  '"wagers":' || coalesce((wagers)::text, 'null')
  || ',"handle":' || coalesce((handle)::text, 'null')
  || ',"payouts":' || coalesce((payouts)::text, 'null')
  || ',"win":' || coalesce((-customer_net)::text, 'null')
  || ',"holdPercent":' || coalesce('"' || (CASE WHEN handle = 0 THEN NULL ELSE round((-customer_net)::numeric * 100 / handle, 4) END)::text || '"', 'null')
  || ',"commissionCharged":' || coalesce((commission)::text, 'null')
  || ',"commissionCollected":' || coalesce((commission_collected)::text, 'null')
  || ',"commissionOutstanding":' || coalesce((commission - commission_collected)::text, 'null')
  || ',"revenue":' || coalesce((-customer_net - (commission - commission_collected))::text, 'null')
  || ',"theoreticalWin":' || coalesce((round(theo_e12 / 1000000000000)::bigint)::text, 'null')
  || ',"winMinusTheoretical":' || coalesce((-customer_net - round(theo_e12 / 1000000000000)::bigint)::text, 'null')
  || ',"coups":' || coalesce((coups)::text, 'null')
  || ',"bankedCoups":' || coalesce((banked_coups)::text, 'null')
  || ',"houseCommission":' || coalesce((house_commission)::text, 'null')
  || ',"totalRevenue":' || coalesce((-customer_net - (commission - commission_collected) + house_commission)::text, 'null')
  || ',"outcomes":' || '{'
  || '"bankerWins":' || coalesce((banker_wins)::text, 'null')
  || ',"playerWins":' || coalesce((player_wins)::text, 'null')
  || ',"ties":' || coalesce((ties)::text, 'null')
  || ',"naturals":' || coalesce((naturals)::text, 'null')
  || '}'
  || ',"expectedOutcomes":' || '{'
  || '"bankerWins":' || coalesce('"' || (round((coups * CASE decks WHEN 1 THEN 0.459624155172162 WHEN 2 THEN 0.459072734551641 WHEN 3 THEN 0.458867756329930 WHEN 4 THEN 0.458761476200800 WHEN 5 THEN 0.458696516686345 WHEN 6 THEN 0.458652718825324 WHEN 7 THEN 0.458621195423937 WHEN 8 THEN 0.458597422632763 END), 2))::text || '"', 'null')
  || ',"playerWins":' || coalesce('"' || (round((coups * CASE decks WHEN 1 THEN 0.446760430304146 WHEN 2 THEN 0.446508150822404 WHEN 3 THEN 0.446399237681564 WHEN 4 THEN 0.446340349881558 WHEN 5 THEN 0.446303626018198 WHEN 6 THEN 0.446278569838877 WHEN 7 THEN 0.446260393499808 WHEN 8 THEN 0.446246609343597 END), 2))::text || '"', 'null')
  || ',"ties":' || coalesce('"' || (round((coups * CASE decks WHEN 1 THEN 0.093615414523693 WHEN 2 THEN 0.094419114625955 WHEN 3 THEN 0.094733005988506 WHEN 4 THEN 0.094898173917642 WHEN 5 THEN 0.094999857295457 WHEN 6 THEN 0.095068711335799 WHEN 7 THEN 0.095118411076256 WHEN 8 THEN 0.095155968023640 END), 2))::text || '"', 'null')
  || ',"naturals":' || coalesce('"' || (round((coups * CASE decks WHEN 1 THEN 0.344410995167298 WHEN 2 THEN 0.343647535249505 WHEN 3 THEN 0.343384130101398 WHEN 4 THEN 0.343250869207072 WHEN 5 THEN 0.343170427868645 WHEN 6 THEN 0.343116601451403 WHEN 7 THEN 0.343078057588368 WHEN 8 THEN 0.343049097331666 END), 2))::text || '"', 'null')
  || '}'
) STORED;
