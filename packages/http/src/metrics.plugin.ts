import { createHash, timingSafeEqual } from 'node:crypto';
import type { PoolStats } from '@readlib/data';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { redactUrl } from './log-redaction.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** this app's Prometheus registry: services add their own counters to it */
    metrics: Registry;
  }
}

export interface MetricsOptions {
  /** when set, GET /metrics requires `Authorization: Bearer <token>` */
  token?: string;
  poolStats?: () => PoolStats | undefined;
  redis?: Redis;
}

// Process metrics (CPU, memory, event loop, GC) are collected once per process: both services of
// `pnpm start`, and the many apps a test run builds, share them instead of each starting collectors.
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The credentials of an `Authorization: Bearer …` header; the scheme's name is any case (RFC 9110 §11.1). */
const BEARER = /^bearer\s+(.*)$/i;

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = header === undefined ? '' : (BEARER.exec(header)?.[1]?.trim() ?? '');
  // compared as digests so neither the length nor the content leaks through timing
  return given !== '' && timingSafeEqual(digest(given), digest(token));
}

/**
 * GET /metrics in the Prometheus text format: request counts and latencies per route pattern, method and
 * status (patterns, not URLs, so the label set stays bounded), database pool and Redis gauges, and the
 * process metrics. Outside the envelopes, the rate limit and the OpenAPI document.
 */
export function registerMetrics(app: FastifyInstance, opts: MetricsOptions): void {
  const registry = new Registry();
  app.decorate('metrics', registry);
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern, method and status',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', (req, reply, done) => {
    const labels = {
      method: req.method,
      route: req.routeOptions.url ?? '<unmatched>',
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  const { poolStats, redis } = opts;
  if (poolStats) {
    new Gauge({
      name: 'readlib_db_pool_connections',
      help: 'Database connections by state (total, idle, waiting); SQLite reports total and waiting (for the writer)',
      labelNames: ['dialect', 'state'] as const,
      registers: [registry],
      collect() {
        const s = poolStats();
        if (!s) return;
        this.set({ dialect: s.dialect, state: 'total' }, s.total);
        if (s.idle !== undefined) this.set({ dialect: s.dialect, state: 'idle' }, s.idle);
        if (s.waiting !== undefined) this.set({ dialect: s.dialect, state: 'waiting' }, s.waiting);
      },
    });
  }
  if (redis) {
    new Gauge({
      name: 'readlib_redis_connected',
      help: '1 while the shared Redis connection is ready',
      registers: [registry],
      collect() {
        this.set(redis.status === 'ready' ? 1 : 0);
      },
    });
  }

  app.get(
    '/metrics',
    { schema: { hide: true }, config: { rateLimit: false }, logLevel: 'warn' },
    async (req, reply) => {
      if (opts.token && !bearerMatches(req.headers.authorization, opts.token)) {
        // the route logs from `warn` only (a scrape every few seconds would fill the log): a refused
        // scrape, a misconfigured scraper or a probe, is still worth a line
        req.log.warn(
          { url: redactUrl(req.url), reason: req.headers.authorization ? 'wrong token' : 'no token' },
          'metrics scrape refused',
        );
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer')
          .type('text/plain; charset=utf-8')
          .send('metrics: a valid Bearer token (METRICS_TOKEN) is required\n');
      }
      const text = `${await processMetrics().metrics()}\n${await registry.metrics()}`;
      return reply.type(registry.contentType).send(text);
    },
  );
}
