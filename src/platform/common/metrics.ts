import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus registry (prom-client, the client the Node and NestJS ecosystems use),
 * one per application instance (never prom-client's global one), and what the request path counts
 * as it goes: request durations by route and status, coups and wagers settled. What is read from
 * the database at each scrape (the outbox's and surveillance's backlogs, the replica's lag, the
 * pool) is added by src/operations/metrics/. Served by `main.ts` on METRICS_PORT (docs/operations.md, "Metrics").
 */
export class Metrics {
  readonly registry = new Registry();

  readonly requestSeconds = new Histogram({
    name: 'sabot_http_request_duration_seconds',
    help: 'HTTP requests by method, route (as declared, with its parameters) and status code, until the answer is sent',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly coupsSettled = new Counter({
    name: 'sabot_coups_settled_total',
    help: 'Coups recorded with their cards and settled by this instance',
    registers: [this.registry],
  });

  readonly wagersSettled = new Counter({ name: 'sabot_wagers_settled_total', help: 'Wagers settled with those coups', registers: [this.registry] });

  /** A coup settled: once, however many wagers it held. */
  settled(wagers: number): void {
    this.coupsSettled.inc();
    this.wagersSettled.inc(wagers);
  }
}

/**
 * Times every request until its answer is sent, labelled by the route as declared (/v1/shoes/:id/coups,
 * so that ids never multiply the series), the first path segment for what is answered before
 * routing (/docs/*, /app/*, a body refused on /v1/*), and "unmatched" for anything else.
 */
const SERVED = new Set(['v1', 'docs', 'docs-json', 'app', 'health']);

export function requestMetrics(metrics: Metrics) {
  return (req: IncomingMessage & { route?: { path?: unknown }; baseUrl?: string; originalUrl?: string }, res: ServerResponse, next: () => void): void => {
    const end = metrics.requestSeconds.startTimer();
    // 'close' comes after 'finish', and alone when the client went away or the connection was cut
    // first: such a request is counted too (status "aborted"), so that the slowest never drop out.
    res.once('close', () => {
      // A catch-all (Nest's own not-found route, {/*splat}) is no route of the API.
      const declared = typeof req.route?.path === 'string' && !req.route.path.includes('*') ? `${req.baseUrl ?? ''}${req.route.path}` : null;
      // Answered before routing (a refused body, the screens, the docs): by its first path segment
      // when it is one the service serves, else "unmatched", so that no client can mint new series.
      // The original URL: static and docs middleware rewrite req.url on the way.
      const segment = (req.originalUrl ?? req.url ?? '/').split(/[/?]/)[1] ?? '';
      const served = res.statusCode !== 404 && SERVED.has(segment) ? `/${segment}/*` : 'unmatched';
      // Aborted: the answer never went out whole, or the client went away before its request was (an
      // error answer to a closed connection goes nowhere).
      const aborted = !res.writableFinished || req.readableAborted;
      end({ method: req.method ?? 'GET', route: declared ?? served, status: aborted ? 'aborted' : String(res.statusCode) });
    });
    next();
  };
}
