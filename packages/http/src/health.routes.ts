import { AdminError, Health, ReaderError, Ready, ref } from '@readlib/contracts';
import { Type } from '@sinclair/typebox';
import type { Redis } from 'ioredis';
import type { App } from './create-base-app.js';
import type { Family } from './envelope.js';
import { redisAnswers } from './redis.js';

/** Liveness and readiness (decisions.md §1): outside the envelopes, the rate limit and the token. */
export function registerHealthRoutes(
  app: App,
  family: Family,
  ready: () => Promise<boolean>,
  redis: Redis | undefined,
): void {
  // while the service shuts down, every route answers 503 in the family's envelope (graceful-close.ts)
  const closing = ref(family === 'reader' ? ReaderError : AdminError);
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'health',
        tags: ['health'],
        security: [],
        response: { 200: ref(Health), 503: closing },
      },
      config: { rateLimit: false },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'ready',
        tags: ['health'],
        security: [],
        response: { 200: ref(Ready), 503: Type.Union([ref(Ready), closing]) },
      },
      config: { rateLimit: false },
    },
    async (_req, reply) => {
      const [database, redisUp] = await Promise.all([
        within(ready(), 2000),
        redis ? redisAnswers(redis) : undefined,
      ]);
      const up = database && redisUp !== false;
      return reply
        .code(up ? 200 : 503)
        .send({ status: up ? 'ok' : 'unavailable', database, ...(redis ? { redis: redisUp } : {}) });
    },
  );
}

/** A readiness check that hangs (a database behind a dropped network) counts as a failure. */
async function within(check: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([check.catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}
