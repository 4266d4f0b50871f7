-- A coup recorded at a pit terminal while the service could not be reached (issue 50): the time the
-- terminal recorded it, kept when the coup arrived 30 seconds or more after it (src/domain/game/shoe.ts
-- recordedOfflineAt). NULL: sent when recorded. Its settlement, gaming day and audit entry are the
-- service's, as for every coup; the exception report lists each such coup with its delay. Coups are
-- not sealed (their audit entry is), and a NULL column is left out of any row's seal.
ALTER TABLE "coups" ADD COLUMN "recorded_offline_at" TIMESTAMPTZ(3);
COMMENT ON COLUMN "coups"."recorded_offline_at" IS 'When a terminal recorded a coup that arrived 30 s or more later (NULL: sent when recorded); listed in the exception report with its delay';
CREATE INDEX "coups_recorded_offline_idx" ON "coups" ("gaming_day") WHERE "recorded_offline_at" IS NOT NULL;

-- A month archived (detached) keeps the ledger's shape, so that it can be attached again.
DO $$
DECLARE
  m RECORD;
BEGIN
  FOR m IN SELECT month FROM ledger_months_detached LOOP
    EXECUTE format('ALTER TABLE %I ADD COLUMN "recorded_offline_at" TIMESTAMPTZ(3)', 'coups_' || to_char(m.month, 'YYYY_MM'));
  END LOOP;
END $$;
