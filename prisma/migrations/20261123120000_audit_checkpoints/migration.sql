-- Signed checkpoints: each stream's head and each ledger's row count at a moment, signed with an
-- Ed25519 key kept outside the database. The copies that matter are the ones an auditor keeps
-- outside the casino; the service keeps its own here to chain the next one to.
CREATE TABLE "audit_checkpoints" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "body" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "public_key" TEXT NOT NULL,
    "key_fingerprint" TEXT NOT NULL,
    CONSTRAINT "audit_checkpoints_pkey" PRIMARY KEY ("id")
);
CREATE TRIGGER audit_checkpoints_append_only BEFORE UPDATE OR DELETE ON "audit_checkpoints" FOR EACH ROW EXECUTE FUNCTION sabot_refuse_change();
