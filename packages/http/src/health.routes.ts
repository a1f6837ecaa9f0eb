import { healthRoutes } from '@readlib/contracts';
import type { Redis } from 'ioredis';
import type { App } from './create-base-app.js';
import type { Family } from './envelope.js';
import { redisAnswers } from './redis.js';
import { serve } from './route.js';

/** Liveness and readiness (decisions.md §1): outside the envelopes, the rate limit and the token. */
export function registerHealthRoutes(
  app: App,
  family: Family,
  ready: () => Promise<boolean>,
  redis: Redis | undefined,
): void {
  const options = { config: { rateLimit: false as const } };
  serve(app, family, healthRoutes, 'health', async () => ({ status: 'ok' as const }), options);
  serve(
    app,
    family,
    healthRoutes,
    'ready',
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
    options,
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
