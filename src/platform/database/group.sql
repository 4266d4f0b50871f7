-- A casino group's link (issue 20; docs/decisions.md "A casino group"). Each property's database publishes what
-- the group's statements read: its properties, tables and the finance rollups, never a raw wager.
-- The group's database subscribes to every property's publication by PostgreSQL's logical
-- replication; the statements to make both are built in group.ts (DDL takes no parameters).

-- name: groupPublication
-- Whether this database publishes to a group.
SELECT EXISTS (SELECT 1 FROM pg_publication WHERE pubname = 'sabot_group') AS published;

-- name: tablesOfProperty
-- The tables a property has: the default property must have none when a database joins a group.
SELECT count(*)::int AS tables FROM casino_tables WHERE property_id = :propertyId::uuid;

-- name: groupLinks
-- The group's link to each property, as the group's database sees it: whether the subscription is
-- enabled and its worker connected, the last change received and when, and the tables still in their
-- first copy.
SELECT s.subname AS name, s.subenabled AS enabled, st.pid IS NOT NULL AS connected, st.received_lsn::text AS "receivedLsn",
       st.last_msg_receipt_time AS "lastMessageAt", st.latest_end_time AS "latestEndAt",
       (SELECT count(*) FROM pg_subscription_rel r WHERE r.srsubid = s.oid AND r.srsubstate <> 'r')::int AS "tablesCopying"
FROM pg_subscription s
LEFT JOIN pg_stat_subscription st ON st.subid = s.oid AND st.relid IS NULL
WHERE s.subdbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND s.subname LIKE 'sabot_group_%'
ORDER BY s.subname;
