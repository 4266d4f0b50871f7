-- A table-day rollup row keeps its report figures rendered as the members of a JSON object (every
-- figure of a win/loss row but the expected outcomes, which depend on the table's decks). A stored
-- generated column: PostgreSQL computes it from the row's own sums on every write, so it can never
-- disagree with them. The win/loss report sends it as it is for rows at this grain (table × gaming
-- day) instead of turning some twenty numbers a row into text at every request.
-- The expression is ROLLUP_FIGURES_SQL in src/reports/reports.service.ts, generated from the one
-- list of report formulas; test/e2e/finance.spec.ts checks the stored text against it.
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
  || ',"outcomes":' || '{' || '"bankerWins":' || coalesce((banker_wins)::text, 'null')
  || ',"playerWins":' || coalesce((player_wins)::text, 'null')
  || ',"ties":' || coalesce((ties)::text, 'null')
  || ',"naturals":' || coalesce((naturals)::text, 'null') || '}'
) STORED;
