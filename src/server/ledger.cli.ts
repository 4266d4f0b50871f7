/**
 * npm run ledger -- months             the ledgers' gaming months, attached or detached, and their size
 * npm run ledger -- detach YYYY-MM     takes a month out of the ledgers, to archive it
 * npm run ledger -- attach YYYY-MM     puts a detached month back, for an audit
 *
 * DATABASE_URL: the database's owner (detach and attach change the ledgers' partitions). The
 * rollups, which every statement reads, are not touched; docs/decisions.md "Years of records".
 */
import { databaseCli } from '../platform/database/cli';
import { attachLedgerMonth, detachLedgerMonth, ledgerMonths } from '../platform/database/ledger-months';
import { pgRunner } from '../platform/database/sql';

databaseCli('npm run ledger -- months | detach YYYY-MM | attach YYYY-MM', async (db, command, args) => {
  const sql = pgRunner(db);
  if (command === 'months' && args.length === 0) {
    console.table(await ledgerMonths(sql));
  } else if (command === 'detach' && args.length === 1) {
    await detachLedgerMonth(sql, args[0]);
    const suffix = args[0].replace('-', '_');
    console.log(`${args[0]} is detached: its partitions coups_${suffix} and wagers_${suffix} stand alone, read-only.`);
  } else if (command === 'attach' && args.length === 1) {
    await attachLedgerMonth(sql, args[0]);
    console.log(`${args[0]} is attached to the ledgers again.`);
  } else {
    return false;
  }
  return true;
});
