-- The event relay's progress. Every change already appends an audit entry in its own transaction,
-- in order per stream (a table's id, or admin) under the stream head's lock: the audit log is the
-- transactional outbox. The relay publishes its entries to NATS JetStream, each under the message
-- id "<stream>:<seq>" (JetStream drops a duplicate), and records here, per stream, the last entry
-- published. A relay that dies between publishing and recording publishes again; the duplicate is
-- dropped, so every committed change arrives once, and none of a transaction rolled back.
CREATE TABLE "event_relay_cursors" (
    "stream" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "published_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "event_relay_cursors_pkey" PRIMARY KEY ("stream")
);
GRANT SELECT, INSERT, UPDATE ON "event_relay_cursors" TO sabot_app;
