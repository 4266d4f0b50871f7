/**
 * npm run openapi: writes the served OpenAPI document to openapi.json, so that every change to
 * the API shows in review as a diff. `--check` fails (exit 1) when the file is stale; the suite
 * runs the same comparison. No database is needed: the client connects lazily.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createApp, openApiJson } from './app';
import { loadConfig } from '../platform/config/config';

export const OPENAPI_FILE = path.join(__dirname, '..', '..', '..', 'openapi.json');

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const config = loadConfig({ LOG_LEVEL: 'error', ADMIN_API_KEY: 'x'.repeat(32), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
  const app = await createApp(config, config.databaseUrl!, config.adminApiKey!);
  const text = openApiJson(app);
  await app.close();
  const current = fs.existsSync(OPENAPI_FILE) ? fs.readFileSync(OPENAPI_FILE, 'utf8') : '';
  if (check) {
    if (current !== text) {
      console.error('openapi.json is stale: run `npm run openapi` and commit the file');
      process.exit(1);
    }
    console.log('openapi.json is up to date');
    return;
  }
  fs.writeFileSync(OPENAPI_FILE, text);
  console.log(current === text ? 'openapi.json unchanged' : `openapi.json written (${text.length} bytes)`);
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
