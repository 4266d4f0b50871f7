-- Two more credit acts under two-person control (issue 49, docs/domain/rolling-chips.md and
-- docs/domain/junkets.md): PROGRAMME, a rolling-chip programme's terms (its commission and
-- allowance, within the property's caps), and STATEMENT, a junket's statement agreed for the casino.
-- Each is requested by one credit officer and approved by another, then recorded quoting the request.
--
-- Alone in its migration: PostgreSQL does not let a value added to an enum be used in the
-- transaction that added it, and the migrator runs each migration in one transaction.
ALTER TYPE "CreditAct" ADD VALUE IF NOT EXISTS 'PROGRAMME';
ALTER TYPE "CreditAct" ADD VALUE IF NOT EXISTS 'STATEMENT';
