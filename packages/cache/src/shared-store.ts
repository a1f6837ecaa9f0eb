import type { Redis } from 'ioredis';

/**
 * Where replicas share kept values: text under a key, for a time. Keys name the versions the value
 * depends on (SharedKeep), so a change is never invalidated here: it moves the versions, and the next
 * value lives under a new key while the old one expires unread.
 */
export interface SharedStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

/** Values in Redis under `prefix` (REDIS_KEY_PREFIX), so deployments may share one Redis. */
export class RedisStore implements SharedStore {
  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
  ) {}

  async get(key: string): Promise<string | undefined> {
    return (await this.client.get(`${this.prefix}keep:${key}`)) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.client.set(`${this.prefix}keep:${key}`, value, 'PX', Math.max(1, Math.round(ttlMs)));
  }
}
