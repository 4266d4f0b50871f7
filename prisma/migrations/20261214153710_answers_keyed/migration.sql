-- Issue 49, finding 6: a stored answer to an Idempotency-Key request is replayed only as the service
-- stored it. Rewritten by the database's superuser, it replayed a forged coup to the terminal's retry
-- (another winner, another payout); deleted, the retry made the change again.
-- * The answer is kept as the exact text the service wrote (it was jsonb, which the database renders
--   in its own way): the MAC covers these bytes.
-- * `mac`: HMAC-SHA256 under the audit key (kept outside the database) of the record's id, API key,
--   Idempotency-Key, request, status and answer; `mac_key`: which audit key. A record without it, or
--   not matching it, is never replayed (src/platform/idempotency/idempotency.interceptor.ts).
-- The records written before this migration are keyed, and an earlier release's claims without an
-- answer dropped, at the service's first start after it, by an `answers.adopt` entry of the admin
-- stream (src/integrity/audit/audit.service.ts adoptAnswers); every audit entry written with an answer
-- since names its record ("answer"), which the verification finds gone.
ALTER TABLE "idempotency_records" ALTER COLUMN "response_body" TYPE TEXT USING "response_body"::text;
ALTER TABLE "idempotency_records" ADD COLUMN "mac" TEXT, ADD COLUMN "mac_key" TEXT;

-- A keyed answer never changes and is never deleted; the one change the service makes is keying an
-- answer written before this migration (once, at its first start), and the one deletion an earlier
-- release's claim without an answer.
CREATE FUNCTION sabot_answer_keyed_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.mac IS NOT NULL OR OLD.completed_at IS NOT NULL THEN
      RAISE EXCEPTION 'sabot: a stored answer is never deleted' USING ERRCODE = 'P0001';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.mac IS NOT NULL OR NEW.mac IS NULL
     OR (to_jsonb(NEW) - 'mac' - 'mac_key') IS DISTINCT FROM (to_jsonb(OLD) - 'mac' - 'mac_key') THEN
    RAISE EXCEPTION 'sabot: a stored answer is only ever keyed, once; nothing else about it changes' USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER idempotency_records_keyed_once BEFORE UPDATE OR DELETE ON "idempotency_records" FOR EACH ROW EXECUTE FUNCTION sabot_answer_keyed_once();
CREATE TRIGGER idempotency_records_no_truncate BEFORE TRUNCATE ON "idempotency_records" FOR EACH STATEMENT EXECUTE FUNCTION sabot_refuse_change();
