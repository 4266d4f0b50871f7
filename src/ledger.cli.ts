/**
 * npm run ledger -- months             the ledgers' gaming months, attached or detached, and their size
 * npm run ledger -- detach YYYY-MM     takes a month out of the ledgers, to archive it
 * npm run ledger -- attach YYYY-MM     puts a detached month back, for an audit
 *
 * DATABASE_URL: the database's owner (detach and attach change the ledgers' partitions). The
 * rollups, which every statement reads, are not touched; README "Years of records".
 */
import { Client } from 'pg';
import { attachLedgerMonth, detachLedgerMonth, ledgerMonths } from './database/ledger-months';
import { pgRunner } from './database/sql';

function usage(problem: string): never {
  console.error(`${problem}\nUsage: DATABASE_URL=postgres://… npm run ledger -- months | detach YYYY-MM | attach YYYY-MM`);
  process.exit(2);
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  const url = process.env.DATABASE_URL;
  if (!url) usage('DATABASE_URL is not set');
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const sql = pgRunner(db);
    if (command === 'months' && args.length === 0) {
      console.table(await ledgerMonths(sql));
    } else if (command === 'detach' && args.length === 1) {
      await detachLedgerMonth(sql, args[0]);
      console.log(`${args[0]} is detached: its partitions coups_${args[0].replace('-', '_')} and wagers_${args[0].replace('-', '_')} stand alone, read-only.`);
    } else if (command === 'attach' && args.length === 1) {
      await attachLedgerMonth(sql, args[0]);
      console.log(`${args[0]} is attached to the ledgers again.`);
    } else {
      usage(command ? `Unknown command or arguments: ${[command, ...args].join(' ')}` : 'Give a command');
    }
  } finally {
    await db.end();
  }
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
