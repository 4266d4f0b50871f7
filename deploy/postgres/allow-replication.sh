#!/bin/sh
# Run once by the postgres image when it creates the primary's cluster: streaming replicas may
# connect for replication from the compose network, with a password (docker-compose.yml, db-replica).
set -e
echo "host replication all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
