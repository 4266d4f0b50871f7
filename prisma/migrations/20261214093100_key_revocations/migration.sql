-- Issue 49: no administrator takes another's power away alone. A key of the administrator's role,
-- or any key of a person who is an administrator, is revoked by one administrator's proposal and
-- another's approval (src/integrity/api-keys/); the proposals and their decisions are kept forever,
-- sealed like the staff register's changes.

CREATE TYPE "KeyRevocationStatus" AS ENUM ('PENDING', 'APPROVED', 'REJECTED');

CREATE TABLE "key_revocations" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "key_id" UUID NOT NULL,
  "reason" TEXT NOT NULL,
  "proposed_by_key_id" TEXT NOT NULL,
  -- Who could hold the proposing key when it proposed (a claim witnessed later does not make them another person).
  "proposer_persons" TEXT[] NOT NULL,
  "proposed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "status" "KeyRevocationStatus" NOT NULL DEFAULT 'PENDING',
  "decided_by_key_id" TEXT,
  "decided_at" TIMESTAMPTZ(3),
  "decision_note" TEXT,
  CONSTRAINT "key_revocations_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "key_revocations_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE RESTRICT ON UPDATE RESTRICT
);
CREATE INDEX "key_revocations_key_id_idx" ON "key_revocations" ("key_id");
-- One open proposal per key at a time.
CREATE UNIQUE INDEX "key_revocations_one_pending" ON "key_revocations" ("key_id") WHERE "status" = 'PENDING';

-- A proposal is decided once; what was proposed, by whom and when never changes.
CREATE FUNCTION sabot_key_revocation_decided_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'PENDING' OR NEW.status = 'PENDING'
     OR (to_jsonb(NEW) - ARRAY['status', 'decided_by_key_id', 'decided_at', 'decision_note']) IS DISTINCT FROM (to_jsonb(OLD) - ARRAY['status', 'decided_by_key_id', 'decided_at', 'decision_note']) THEN
    RAISE EXCEPTION 'sabot: a key revocation is decided once; what was proposed, by whom and when never change' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER key_revocations_decided_once BEFORE UPDATE ON "key_revocations" FOR EACH ROW EXECUTE FUNCTION sabot_key_revocation_decided_once();
CREATE TRIGGER key_revocations_never_deleted BEFORE DELETE ON "key_revocations" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER key_revocations_no_truncate BEFORE TRUNCATE ON "key_revocations" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();

GRANT SELECT, INSERT ON "key_revocations" TO sabot_app;
GRANT UPDATE ("status", "decided_by_key_id", "decided_at", "decision_note") ON "key_revocations" TO sabot_app;
