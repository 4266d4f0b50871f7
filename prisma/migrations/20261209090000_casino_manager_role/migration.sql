-- The casino manager (issue 49): the person above the credit department in the casino's internal
-- controls. A credit line over the property's threshold is approved by one as its last signature.
--
-- Alone in its migration: PostgreSQL does not let a value added to an enum be used in the
-- transaction that added it, and the migrator runs each migration in one transaction.
ALTER TYPE "Role" ADD VALUE IF NOT EXISTS 'CASINO_MANAGER';
