import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AppError } from '@readlib/catalog';
import type { AppConfig } from '@readlib/config';
import { contractSchemas, Health, Ready, ref } from '@readlib/contracts';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify';
import type { Family } from './envelope.js';
import { installErrorHandling } from './error-handler.js';
import { type OpenApiInfo, registerOpenApi } from './openapi.plugin.js';

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface BaseAppOptions {
  config: AppConfig;
  family: Family;
  openapi: OpenApiInfo;
  /** true when the database (and other dependencies) answer; drives /readyz */
  ready: () => Promise<boolean>;
  bodyLimit?: number;
  /** a pino logger to reuse (tests pass false to silence) */
  logger?: boolean | FastifyBaseLogger;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The Fastify instance both services start from: the same AJV options in tests and production,
 * every contract schema registered for $ref, envelopes on every error, OpenAPI, health and limits.
 */
export async function createBaseApp(opts: BaseAppOptions): Promise<App> {
  const { config, family } = opts;
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: {
              paths: ['req.headers.authorization', 'req.headers.cookie', 'body.password'],
              censor: '[redacted]',
            },
          },
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    // a well-formed x-request-id from the proxy is kept so logs line up across tiers
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    ajv: {
      customOptions: { coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false },
    },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  for (const schema of contractSchemas) app.addSchema(schema);
  installErrorHandling(app, family);
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
  await app.register(cors, { origin: config.corsOrigin, exposedHeaders: ['x-request-id'] });
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.perMinute,
    timeWindow: '1 minute',
    allowList: (req) => req.url === '/healthz' || req.url === '/readyz',
    errorResponseBuilder: (_req, ctx) =>
      Object.assign(
        new AppError('rate_limited', `too many requests, retry in ${Math.ceil(ctx.ttl / 1000)} s`),
        {
          statusCode: 429,
          retryAfter: Math.ceil(ctx.ttl / 1000),
        },
      ),
  });
  await registerOpenApi(app, opts.openapi);

  app.get(
    '/healthz',
    {
      schema: { operationId: 'health', tags: ['health'], response: { 200: ref(Health) } },
      config: { rateLimit: false },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: { operationId: 'ready', tags: ['health'], response: { 200: ref(Ready), 503: ref(Ready) } },
      config: { rateLimit: false },
    },
    async (_req, reply) => {
      const up = await opts.ready().catch(() => false);
      return reply.code(up ? 200 : 503).send({ status: up ? 'ok' : 'unavailable', database: up });
    },
  );
  return app;
}
