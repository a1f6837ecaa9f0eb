import { type Cache, MemoryCache, RedisCache } from '@readlib/catalog';
import type { AppConfig } from '@readlib/config';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { closeRedis, connectRedis, watchRedis } from './redis.js';

export interface SharedState {
  /** the connection rate limits, login counters and readiness use; undefined without REDIS_URL */
  redis: Redis | undefined;
  /** RedisCache with REDIS_URL, else MemoryCache, unless the caller supplied one */
  cache: Cache;
  /** closes what this function opened; a supplied redis or cache belongs to the caller */
  close(): Promise<void>;
}

/**
 * Where a service keeps state that replicas must share. Without REDIS_URL everything stays in this
 * process (one replica); with it, a Redis that does not answer at start is an error, not a fallback,
 * so that a misconfigured replica does not silently count and cache alone.
 */
export async function openSharedState(
  config: AppConfig,
  given: { redis?: Redis; cache?: Cache; name: string },
  log: FastifyBaseLogger,
): Promise<SharedState> {
  const ownsRedis = !given.redis && config.redisUrl !== undefined;
  const redis =
    given.redis ?? (config.redisUrl ? await connectRedis(config.redisUrl, { name: given.name }) : undefined);
  if (redis && ownsRedis) watchRedis(redis, log);
  let cache = given.cache;
  try {
    cache ??= redis
      ? await RedisCache.connect(redis, {
          prefix: config.redisKeyPrefix,
          onError: (err, op) => log.debug({ err: err.message, op }, 'cache: Redis failed, value computed'),
        })
      : new MemoryCache();
  } catch (err) {
    if (redis && ownsRedis) await closeRedis(redis);
    throw err;
  }
  const ownedCache = given.cache ? undefined : cache;
  return {
    redis,
    cache,
    close: async () => {
      await ownedCache?.close();
      if (redis && ownsRedis) await closeRedis(redis);
    },
  };
}
