-- Persons, not keys (issue 34). A staff register where each person exists once: their staff
-- number, name, the roles they hold and whether they are active. Every registration and every
-- change is a proposal by one person approved by another (staff_changes, kept forever: the role
-- history), so one administrator cannot invent a second person. Keys for people name a registered
-- person holding the key's role. A key is claimed when its holder replaces the secret the minter
-- saw; until then the minter could hold it too, and two-person rules count them both.

CREATE TYPE "StaffChangeStatus" AS ENUM ('PENDING', 'APPROVED', 'REJECTED');

CREATE TABLE "staff" (
  "staff_id" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "roles" "Role"[] NOT NULL,
  "active" BOOLEAN NOT NULL,
  "registered_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "last_change_id" UUID,
  CONSTRAINT "staff_pkey" PRIMARY KEY ("staff_id")
);

CREATE TABLE "staff_changes" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "staff_id" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "roles" "Role"[] NOT NULL,
  "active" BOOLEAN NOT NULL,
  "reason" TEXT NOT NULL,
  "proposed_by_key_id" TEXT NOT NULL,
  "proposed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "status" "StaffChangeStatus" NOT NULL DEFAULT 'PENDING',
  "decided_by_key_id" TEXT,
  "decided_at" TIMESTAMPTZ(3),
  "decision_note" TEXT,
  CONSTRAINT "staff_changes_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "staff_changes_staff_id_idx" ON "staff_changes" ("staff_id");
-- One open proposal per person at a time.
CREATE UNIQUE INDEX "staff_changes_one_pending" ON "staff_changes" ("staff_id") WHERE "status" = 'PENDING';

ALTER TABLE "api_keys" ADD COLUMN "claimed_at" TIMESTAMPTZ(3);

-- The people keys already named are registered as they were used: each staff number once, with
-- the roles of its keys, recorded as a change the migration made.
INSERT INTO "staff_changes" ("staff_id", "name", "roles", "active", "reason", "proposed_by_key_id", "proposed_at", "status", "decided_by_key_id", "decided_at")
SELECT staff_id, staff_id, array_agg(DISTINCT role ORDER BY role), true, 'registered from the keys that named this staff number before the register',
       'migration', min(created_at), 'APPROVED', 'migration', min(created_at)
FROM "api_keys" WHERE staff_id IS NOT NULL GROUP BY staff_id;
INSERT INTO "staff" ("staff_id", "name", "roles", "active", "registered_at", "changed_at", "last_change_id")
SELECT staff_id, name, roles, active, proposed_at, proposed_at, id FROM "staff_changes";

-- A proposal is decided once; what was proposed, by whom and when never changes.
CREATE FUNCTION sabot_staff_change_decided_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'PENDING' OR NEW.status = 'PENDING'
     OR (to_jsonb(NEW) - ARRAY['status', 'decided_by_key_id', 'decided_at', 'decision_note']) IS DISTINCT FROM (to_jsonb(OLD) - ARRAY['status', 'decided_by_key_id', 'decided_at', 'decision_note']) THEN
    RAISE EXCEPTION 'sabot: a staff change is decided once; what was proposed, by whom and when never change' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER staff_changes_decided_once BEFORE UPDATE ON "staff_changes" FOR EACH ROW EXECUTE FUNCTION sabot_staff_change_decided_once();
CREATE TRIGGER staff_changes_never_deleted BEFORE DELETE ON "staff_changes" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER staff_changes_no_truncate BEFORE TRUNCATE ON "staff_changes" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER staff_never_deleted BEFORE DELETE ON "staff" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
CREATE TRIGGER staff_no_truncate BEFORE TRUNCATE ON "staff" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();

-- A key changes twice at most: its holder claims it once (a new secret), and it is revoked once.
CREATE OR REPLACE FUNCTION sabot_key_revoked_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL
     AND (to_jsonb(NEW) - 'revoked_at') IS NOT DISTINCT FROM (to_jsonb(OLD) - 'revoked_at') THEN
    RETURN NEW;
  END IF;
  IF OLD.claimed_at IS NULL AND NEW.claimed_at IS NOT NULL AND OLD.revoked_at IS NULL AND NEW.revoked_at IS NULL
     AND (to_jsonb(NEW) - ARRAY['key_hash', 'key_prefix', 'claimed_at']) IS NOT DISTINCT FROM (to_jsonb(OLD) - ARRAY['key_hash', 'key_prefix', 'claimed_at']) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'sabot: an API key is only ever claimed by its holder, once, and revoked, once; nothing else about it changes' USING ERRCODE = 'P0001';
END $$;

GRANT SELECT, INSERT, UPDATE ON "staff" TO sabot_app;
GRANT SELECT, INSERT ON "staff_changes" TO sabot_app;
GRANT UPDATE ("status", "decided_by_key_id", "decided_at", "decision_note") ON "staff_changes" TO sabot_app;
GRANT UPDATE ("key_hash", "key_prefix", "claimed_at") ON "api_keys" TO sabot_app;
