import { adminQuery } from './database';

export default async function globalTeardown(): Promise<void> {
  const adminUrl = process.env.SABOT_TEST_ADMIN_URL;
  const template = process.env.SABOT_TEST_TEMPLATE;
  if (adminUrl && template) await adminQuery(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`));
  const embedded = (globalThis as { __sabotEmbedded?: { stop(): Promise<void> } }).__sabotEmbedded;
  if (embedded) await embedded.stop();
}
