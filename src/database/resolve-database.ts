import { AppConfig } from '../config/config';
import { startEmbeddedDatabase } from './embedded';

/** DATABASE_URL when given; otherwise the embedded PostgreSQL under the data folder. */
export async function resolveDatabase(config: AppConfig): Promise<{ url: string; embedded: boolean; stop(): Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => undefined };
  const db = await startEmbeddedDatabase(config.dataDir, config.embeddedPgPort);
  return { url: db.url, embedded: true, stop: () => db.stop() };
}
