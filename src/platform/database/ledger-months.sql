-- The ledgers' gaming months (issue 20; prisma/migrations/20261130090000_ledger_partitions holds the
-- functions these call, which create, detach and attach a month's partitions of coups and wagers).

-- name: ensureMonths
-- The months from :since through :through, created where missing: each month and what happened
-- ('created', 'exists', or 'rows in the open partition' when rows of the month settled before it
-- existed and wait in the open partition). Runs as the owner (SECURITY DEFINER), for the service's role.
SELECT to_char(month, 'YYYY-MM') AS month, outcome FROM sabot_ledger_months(:since::date, :through::date);

-- name: months
-- Every month of the ledgers: attached (a partition of coups and of wagers) or detached (archived),
-- with its size on disk and, for a detached month, the settled figures it held when it left.
WITH attached AS (
  SELECT substring(c.relname FROM 'coups_(\d{4}_\d{2})$') AS suffix, c.relname AS coups, 'wagers_' || substring(c.relname FROM 'coups_(\d{4}_\d{2})$') AS wagers
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  WHERE i.inhparent = 'coups'::regclass AND c.relname ~ '^coups_\d{4}_\d{2}$'
), detached AS (
  SELECT to_char(d.month, 'YYYY_MM') AS suffix, d.coups, d.wagers, d.handle, d.at FROM ledger_months_detached d
)
SELECT replace(coalesce(a.suffix, d.suffix), '_', '-') AS month, CASE WHEN a.suffix IS NOT NULL THEN 'ATTACHED' ELSE 'DETACHED' END AS state,
       (coalesce(pg_total_relation_size(to_regclass('coups_' || coalesce(a.suffix, d.suffix))), 0)
        + coalesce(pg_total_relation_size(to_regclass('wagers_' || coalesce(a.suffix, d.suffix))), 0))::text AS bytes,
       d.coups::text AS "detachedCoups", d.wagers::text AS "detachedWagers", d.handle::text AS "detachedHandle", d.at AS "detachedAt"
FROM attached a FULL JOIN detached d ON d.suffix = a.suffix
ORDER BY 1;

-- name: detach
SELECT sabot_ledger_month_detach(:month::date);

-- name: attach
SELECT sabot_ledger_month_attach(:month::date);
