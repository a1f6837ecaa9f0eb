import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets for these options, computed once. Without a Content-Security-Policy (each
 * route that serves documents sets its own) helmet's headers do not depend on the request, and running
 * its dozen middlewares per request (what @fastify/helmet does) cost ~4% of a small JSON response.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  if (options.contentSecurityPolicy !== false) throw new Error('a CSP may depend on the request');
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as never, res as never, () => {});
  return headers;
}

/** Every response carries the security headers (set before routing, so errors and 404s too). */
export function installSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
