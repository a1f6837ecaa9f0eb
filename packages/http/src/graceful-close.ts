import type { FastifyInstance } from 'fastify';

/**
 * Draining on close (found by tests/reliability, SIGTERM under load): `forceCloseConnections: 'idle'`
 * closes the connections idle *at* close time, but a keep-alive connection busy then (a download in
 * flight) stayed open after its response until the 72 s keep-alive timeout, so the process took over a
 * minute to exit, past any orchestrator's grace period (whose SIGKILL then cuts what is still in flight).
 * While closing, every response says `connection: close`, and connections whose last response has
 * ended are closed every 100 ms; requests in flight still finish.
 */
export function installGracefulClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    const server = app.server;
    if (typeof server?.closeIdleConnections !== 'function') return;
    const timer = setInterval(() => server.closeIdleConnections(), 100);
    timer.unref();
    server.once('close', () => clearInterval(timer));
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
