-- Issue 49, finding 6: the progress of the audit log's two readers becomes a record. A surveillance
-- cursor moved past a shoe hid a false shuffle; an event relay cursor moved ahead kept entries from
-- ever reaching JetStream; both backlog metrics said 0. Each cursor now carries a MAC under the
-- audit key (kept outside the database) over its table, stream and position, written only by the
-- reader that got there (src/foundation/ledger/progress.ts cursorMac); each reader also records its
-- progress under the audit key as entries (`survey.pass`, with per shoe a keyed digest of the rows
-- it wrote to coup_surveillance and shoe_runs; `relay.progress`), which the verification holds the
-- cursors and the working copies to. Rows found at each reader's first start after this migration
-- are recorded then, once (`survey.adopt`, `relay.adopt`).
ALTER TABLE "surveillance_cursors" ADD COLUMN "mac" TEXT, ADD COLUMN "mac_key" TEXT;
ALTER TABLE "event_relay_cursors" ADD COLUMN "mac" TEXT, ADD COLUMN "mac_key" TEXT;
