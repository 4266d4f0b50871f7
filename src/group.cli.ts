/**
 * npm run group -- publish                      on a property's database (DATABASE_URL: its owner)
 * npm run group -- subscribe NAME CONNINFO      on the group's database (DATABASE_URL: a superuser)
 * npm run group -- links                        on the group's database
 *
 * Joins a property to a casino group, or shows the group's links (README "A casino group").
 */
import { Client } from 'pg';
import { groupLinks, publishToGroup, subscribeToProperty } from './database/group';
import { pgRunner } from './database/sql';
import { DEFAULT_PROPERTY_ID } from './pit/table-rules';

function usage(problem: string): never {
  console.error(`${problem}\nUsage: DATABASE_URL=postgres://… npm run group -- publish | subscribe NAME CONNINFO | links`);
  process.exit(2);
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  const url = process.env.DATABASE_URL;
  if (!url) usage('DATABASE_URL is not set');
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    if (command === 'publish' && args.length === 0) {
      console.log(`This database ${await publishToGroup(db, DEFAULT_PROPERTY_ID)} its properties, tables and rollups to a group (publication sabot_group).`);
    } else if (command === 'subscribe' && args.length === 2) {
      await subscribeToProperty(db, args[0], args[1]);
      console.log(`Subscribed to property ${args[0]}: its rows are being copied, then follow as they are committed ("links" shows the state).`);
    } else if (command === 'links' && args.length === 0) {
      console.table(await groupLinks(pgRunner(db)));
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
