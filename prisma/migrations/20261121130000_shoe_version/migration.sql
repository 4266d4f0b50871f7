-- Every change to a shoe row advances its version: whole coups are written optimistically in one
-- statement that applies only if the shoe is still at the version they were computed from.
ALTER TABLE "shoes" ADD COLUMN "version" BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION sabot_next_shoe_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := OLD.version + 1;
  RETURN NEW;
END $$;

CREATE TRIGGER shoes_version BEFORE UPDATE ON "shoes" FOR EACH ROW EXECUTE FUNCTION sabot_next_shoe_version();
