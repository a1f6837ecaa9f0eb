import type { FastifyInstance } from 'fastify';
import { type Family, failure } from './envelope.js';
import { UNAVAILABLE_RETRY_AFTER_S } from './error-handler.js';

/**
 * Draining on close (tests/reliability, SIGTERM under load): `forceCloseConnections: 'idle'`
 * closes the connections idle *at* close time, but a keep-alive connection busy then (a download in
 * flight) would stay open after its response until the keep-alive timeout, so the process could take
 * over a minute to exit, past any orchestrator's grace period (whose SIGKILL then cuts what is still in flight).
 * While closing, every response says `connection: close`, and connections whose last response has
 * ended are closed on a short timer; requests in flight still finish. A request that arrives on an open
 * connection after that is refused 503 in the family's envelope (Fastify's own `return503OnClosing` body
 * has no `error_code`, and the SDK's `ready()` would take it for a health answer), with `Retry-After` for the
 * client to go to another replica.
 */
export function installGracefulClose(app: FastifyInstance, family: Family, deadlineMs = 0): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    const server = app.server;
    if (typeof server?.closeIdleConnections !== 'function') return;
    const timer = setInterval(() => server.closeIdleConnections(), 100);
    timer.unref();
    // past the deadline, what is still in flight is cut, so the process exits before the orchestrator's
    // SIGKILL would, and a client that never reads cannot hold it open (SHUTDOWN_TIMEOUT_MS)
    const cut = deadlineMs > 0 ? setTimeout(() => server.closeAllConnections(), deadlineMs) : undefined;
    cut?.unref();
    server.once('close', () => {
      clearInterval(timer);
      clearTimeout(cut);
    });
  });
  app.addHook('onRequest', (_req, reply, done) => {
    if (!closing) return done();
    const { status, body } = failure(family, 'unavailable', 'the service is shutting down, retry shortly');
    // serialised here: a route's own schema for the status (/readyz declares its 503 as a readiness
    // report) would otherwise reshape the envelope, and it failed to
    reply
      .code(status)
      .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S))
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(body));
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
