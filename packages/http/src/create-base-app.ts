import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { SharedStore } from '@readlib/cache';
import type { AppConfig } from '@readlib/config';
import { AppError, contractSchemas } from '@readlib/contracts';
import type { PoolStats } from '@readlib/data';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { App } from './app.types.js';
import { installBodyParsers } from './body-parsers.js';
import type { Family } from './envelope.js';
import { clientErrors, frameworkErrors, installErrorHandling, installNotFound } from './error-handler.js';
import { installGracefulClose } from './graceful-close.js';
import { registerHealthRoutes } from './health.routes.js';
import { installBodyBooleanGuard, installInputGuard } from './input-guard.js';
import { requestSerializer } from './log-redaction.js';
import { registerMetrics } from './metrics.plugin.js';
import { type OpenApiInfo, registerOpenApi } from './openapi.plugin.js';
import { openSharedState } from './redis-state.js';
import {
  flushLogOnClose,
  type LogDestination,
  logClosedRequests,
  processLogDestination,
  RequestLogController,
} from './request-log.js';
import { formatSchemaErrors } from './schema-errors.js';
import { installSecurityHeaders } from './security-headers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** the shared Redis connection (REDIS_URL), undefined on a single replica */
    redis: Redis | undefined;
    /** where replicas share kept values: Redis with REDIS_URL, else none (one replica keeps its own) */
    sharedStore: SharedStore | undefined;
  }
}

export interface BaseAppOptions {
  config: AppConfig;
  family: Family;
  openapi: OpenApiInfo;
  /** true when the database (and other dependencies) answer; drives /readyz */
  ready: () => Promise<boolean>;
  bodyLimit?: number;
  /** a pino logger to reuse (tests pass false to silence) */
  logger?: boolean | FastifyBaseLogger;
  /**
   * where log lines go: default, stdout written asynchronously (processLogDestination); tests pass a
   * collecting stream, or a pino.destination of a file (flushed on close as stdout is)
   */
  logStream?: LogDestination;
  /** a Redis connection to borrow instead of opening one from REDIS_URL (the caller closes it) */
  redis?: Redis;
  /** the database pool, for the /metrics gauges */
  poolStats?: () => PoolStats | undefined;
  /** the URL prefix the service serves files under (`/res/`): a miss there is a missing file, not route */
  filesPrefix?: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Seconds a browser may keep a CORS preflight's answer (Chromium keeps at most 7200). */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * Node's own options for a request timeout: how often it looks for requests past their time (a
 * quarter of it, between 0.1 s and Node's 30 s), and a headers timeout no longer than it (Node's 60 s
 * otherwise), without which Node never applies the request timeout at all.
 */
function nodeTimeouts(timeoutMs: number) {
  if (!timeoutMs) return { connectionsCheckingInterval: 30_000, headersTimeout: 60_000 };
  return {
    connectionsCheckingInterval: Math.min(30_000, Math.max(100, timeoutMs >> 2)),
    headersTimeout: Math.min(60_000, timeoutMs),
  };
}

/**
 * The Fastify instance both services start from: the same AJV options in tests and production,
 * every contract schema registered for $ref, envelopes on every error, OpenAPI, health and limits.
 */
export async function createBaseApp(opts: BaseAppOptions): Promise<App> {
  const { config, family } = opts;
  const trust = config.trustProxy;
  const logStream = opts.logger === false ? undefined : (opts.logStream ?? processLogDestination());
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            serializers: { req: requestSerializer },
            redact: {
              paths: ['req.headers.authorization', 'req.headers.cookie', 'body.password'],
              censor: '[redacted]',
            },
            ...(logStream ? { stream: logStream } : {}),
          },
    // one line per request (request-log.ts)
    logController: new RequestLogController(),
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    // a well-formed x-request-id from the proxy is kept so logs line up across tiers
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    ajv: {
      customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false },
    },
    // a union's refusal in one clause, not one per branch
    schemaErrorFormatter: formatSchemaErrors,
    // a URL Fastify cannot decode is answered in the family's envelope too (decisions.md §2)
    frameworkErrors: frameworkErrors(family),
    clientErrorHandler: clientErrors(family),
    // refused by installGracefulClose instead, in the envelope
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Fastify turns Node's limit off, so a body that stops arriving would be held for ever; Node
    // answers 408 then (clientErrors)
    requestTimeout: config.requestTimeoutMs[family],
    // a client that stops reading a download (holding a socket and a file handle, and SIGTERM would
    // wait on it) makes no progress either way, which Node's socket timeout sees
    connectionTimeout: config.socketIdleTimeoutMs,
    http: nodeTimeouts(config.requestTimeoutMs[family]),
    // behind a proxy (TRUST_PROXY), req.ip is the client's, so rate limits count clients
    trustProxy: typeof trust === 'number' ? (_addr: string, hop: number) => hop < trust : trust,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const shared = await openSharedState(config, { redis: opts.redis, name: `readlib-${family}` }, app.log);
  app.decorate('redis', shared.redis);
  app.decorate('sharedStore', shared.store);
  app.addHook('onClose', shared.close);
  const { redis } = shared;

  for (const schema of contractSchemas) app.addSchema(schema);
  installErrorHandling(app, family);
  installInputGuard(app);
  installBodyBooleanGuard(app);
  installBodyParsers(app);
  installGracefulClose(app, family, config.shutdownTimeoutMs);
  flushLogOnClose(app, logStream);
  logClosedRequests(app);
  // callback-style hooks: an async hook costs a promise per request on every route
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id);
    done(null, payload);
  });
  installSecurityHeaders(app, {
    contentSecurityPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
  await app.register(cors, {
    origin: config.corsOrigin,
    // a browser on another origin reads only these: the SDK's retryAfter comes from Retry-After
    exposedHeaders: ['x-request-id', 'retry-after'],
    // any OPTIONS is answered as a preflight: the strict default sent a text/plain 400, no envelope
    strictPreflight: false,
    // a browser keeps a preflight's answer this long, per URL: without it Chromium keeps it 5 s, and
    // nearly every admin call (a Bearer token needs a preflight) cost two round trips
    maxAge: PREFLIGHT_MAX_AGE_S,
  });
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.perMinute,
    timeWindow: '1 minute',
    allowList: (req) => req.url === '/healthz' || req.url === '/readyz',
    // counters shared by every replica; while Redis is away requests pass uncounted rather than fail
    ...(redis ? { redis, nameSpace: `${config.redisKeyPrefix}rl:${family}:`, skipOnError: true } : {}),
    errorResponseBuilder: (_req, ctx) =>
      Object.assign(
        new AppError('rate_limited', `too many requests, retry in ${Math.ceil(ctx.ttl / 1000)} s`),
        {
          statusCode: 429,
          retryAfter: Math.ceil(ctx.ttl / 1000),
        },
      ),
  });
  installNotFound(app, family, app.rateLimit(), opts.filesPrefix);
  await registerOpenApi(app, opts.openapi);
  registerMetrics(app, { token: config.metricsToken, poolStats: opts.poolStats, redis });

  registerHealthRoutes(app, family, opts.ready, redis);
  return app;
}
