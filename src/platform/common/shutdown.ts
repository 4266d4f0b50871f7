/**
 * Whether this instance is shutting down (SIGTERM received): readiness then answers 503, so that a
 * load balancer stops sending it requests while those in flight finish (src/server/main.ts).
 */
export class ShutdownState {
  draining = false;
}
