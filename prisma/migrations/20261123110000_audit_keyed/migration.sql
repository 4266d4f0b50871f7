-- Every audit entry keyed: an HMAC-SHA256 of its stream and whole payload under a secret kept
-- outside the database (mac), and which key it was (mac_key). Entries written before this version
-- have none; audit_unkeyed records, per stream, the last such entry, so that verification can tell
-- an entry written before keying from one whose MAC was removed.
ALTER TABLE "audit_log" ADD COLUMN "mac" TEXT;
ALTER TABLE "audit_log" ADD COLUMN "mac_key" TEXT;

CREATE TABLE "audit_unkeyed" (
    "stream" TEXT NOT NULL,
    "last_seq" BIGINT NOT NULL,
    CONSTRAINT "audit_unkeyed_pkey" PRIMARY KEY ("stream")
);
INSERT INTO "audit_unkeyed" ("stream", "last_seq") SELECT "stream", "seq" FROM "audit_heads";
CREATE TRIGGER audit_unkeyed_append_only BEFORE UPDATE OR DELETE ON "audit_unkeyed" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
