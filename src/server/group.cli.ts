/**
 * npm run group -- publish                      on a property's database (DATABASE_URL: its owner)
 * npm run group -- subscribe NAME CONNINFO      on the group's database (DATABASE_URL: a superuser)
 * npm run group -- links                        on the group's database
 *
 * Joins a property to a casino group, or shows the group's links (docs/decisions.md "A casino group").
 */
import { databaseCli } from '../platform/database/cli';
import { groupLinks, publishToGroup, subscribeToProperty } from '../platform/database/group';
import { pgRunner } from '../platform/database/sql';
import { DEFAULT_PROPERTY_ID } from '../foundation/pit/table-rules';

databaseCli('npm run group -- publish | subscribe NAME CONNINFO | links', async (db, command, args) => {
  if (command === 'publish' && args.length === 0) {
    console.log(`This database ${await publishToGroup(db, DEFAULT_PROPERTY_ID)} its properties, tables and rollups to a group (publication sabot_group).`);
  } else if (command === 'subscribe' && args.length === 2) {
    await subscribeToProperty(db, args[0], args[1]);
    console.log(`Subscribed to property ${args[0]}: its rows are being copied, then follow as they are committed ("links" shows the state).`);
  } else if (command === 'links' && args.length === 0) {
    console.table(await groupLinks(pgRunner(db)));
  } else {
    return false;
  }
  return true;
});
