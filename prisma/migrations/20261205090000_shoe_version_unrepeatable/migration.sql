-- A shoe's version is what a whole coup computed without a read (from the instance's memory, or
-- from a read a moment before) is written against: the write applies only while the shoe is at the
-- version it was computed from. A counter repeats after a restore or a failover that loses recent
-- commits (the shoe goes back to version V−1, and its next change makes another V with other
-- contents), so a version is now a random 53-bit number drawn on every change: two changes draw the
-- same one about once in 9·10^15.
CREATE OR REPLACE FUNCTION sabot_next_shoe_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := floor(random() * 9007199254740991)::bigint;
  IF NEW.version = OLD.version THEN
    NEW.version := NEW.version + 1;
  END IF;
  RETURN NEW;
END $$;

-- A statement's own check, which undoes the whole statement when it fails (an autocommit statement
-- has no transaction to roll back afterwards). SQLSTATE SB001: the statement was computed from a
-- state that changed under it; the caller computes it again from a read.
CREATE FUNCTION sabot_assert(ok boolean, message text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION '%', message USING ERRCODE = 'SB001';
  END IF;
  RETURN true;
END $$;
