-- A claim proves nothing alone: whoever minted a key knows its secret and could claim it too. A
-- claimed key counts as its person's alone once a second administrator, who could hold neither the
-- key nor the one that minted it, witnessed the claim (src/domain/two-person.ts). And who could hold
-- the key that began a two-person act is kept as it stood then: a key claimed afterwards does not
-- make the asker another person.
ALTER TABLE "api_keys" ADD COLUMN "claim_witnessed_by" TEXT, ADD COLUMN "claim_witnessed_at" TIMESTAMPTZ(3);
ALTER TABLE "void_requests" ADD COLUMN "requester_persons" TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE "staff_changes" ADD COLUMN "proposer_persons" TEXT[] NOT NULL DEFAULT '{}';

-- A key changes three times at most: claimed by its holder, the claim witnessed, revoked; once each.
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
  IF OLD.claimed_at IS NOT NULL AND OLD.claim_witnessed_at IS NULL AND NEW.claim_witnessed_at IS NOT NULL AND NEW.claim_witnessed_by IS NOT NULL
     AND (to_jsonb(NEW) - ARRAY['claim_witnessed_by', 'claim_witnessed_at']) IS NOT DISTINCT FROM (to_jsonb(OLD) - ARRAY['claim_witnessed_by', 'claim_witnessed_at']) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'sabot: an API key is only ever claimed by its holder, the claim witnessed, and revoked, once each; nothing else about it changes' USING ERRCODE = 'P0001';
END $$;
GRANT UPDATE ("claim_witnessed_by", "claim_witnessed_at") ON "api_keys" TO sabot_app;
