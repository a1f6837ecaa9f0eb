import { RedisStore, type SharedStore } from '@readlib/cache';
import type { AppConfig } from '@readlib/config';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { closeRedis, connectRedis, watchRedis } from './redis.js';

export interface SharedState {
  /** the connection rate limits, login counters and readiness use; undefined without REDIS_URL */
  redis: Redis | undefined;
  /** where replicas share kept values (Redis); undefined on a single replica */
  store: SharedStore | undefined;
  /** closes what this function opened; a supplied redis belongs to the caller */
  close(): Promise<void>;
}

/**
 * Where a service keeps state that replicas must share. Without REDIS_URL everything stays in this
 * process (one replica); with it, a Redis that does not answer at start is an error, not a fallback,
 * so that a misconfigured replica does not silently count and keep alone.
 */
export async function openSharedState(
  config: AppConfig,
  given: { redis?: Redis; name: string },
  log: FastifyBaseLogger,
): Promise<SharedState> {
  const ownsRedis = !given.redis && config.redisUrl !== undefined;
  const redis =
    given.redis ?? (config.redisUrl ? await connectRedis(config.redisUrl, { name: given.name }) : undefined);
  if (redis && ownsRedis) watchRedis(redis, log);
  return {
    redis,
    store: redis ? new RedisStore(redis, config.redisKeyPrefix) : undefined,
    close: async () => {
      if (redis && ownsRedis) await closeRedis(redis);
    },
  };
}
