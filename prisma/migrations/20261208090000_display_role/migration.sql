-- The table-side display (issue 39): a read-only key bound to one table, like a terminal's, that
-- reads only that table's display board and its change stream.
--
-- Alone in its migration: PostgreSQL does not let a value added to an enum be used in the
-- transaction that added it, and src/database/migrate.ts runs each migration in one transaction.
ALTER TYPE "Role" ADD VALUE IF NOT EXISTS 'DISPLAY';
