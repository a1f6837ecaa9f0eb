import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { type Cache, MemoryCache } from './cache.js';

export interface RedisCacheOptions {
  /** namespace of every key and channel, e.g. `readlib:` (REDIS_KEY_PREFIX) */
  prefix: string;
  /**
   * How long a replica keeps a value in its own memory in front of Redis (default 5 s). Writes drop it
   * at once through pub/sub; the bound covers messages lost while the subscriber reconnects.
   */
  localTtlMs?: number;
  /** Redis failures are not the caller's: the value is computed instead, and this is told */
  onError?: (err: Error, op: 'get' | 'set' | 'invalidate' | 'message') => void;
}

// Stores only while no invalidation has happened since the caller read the generation, so a value
// computed from rows that a write has since changed never outlives that write.
const SET_IF_GENERATION = `
local gen = redis.call('GET', KEYS[2]) or '0'
if gen == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`;

type WithSetIfGen = Redis & {
  readlibCacheSet(key: string, genKey: string, gen: string, value: string, ttlMs: number): Promise<number>;
};

const globEscape = (s: string) => s.replace(/[*?[\]\\]/g, '\\$&');

/**
 * The cache shared by replicas: values live in Redis with their TTL (JSON, so they must be plain data),
 * with a short-lived in-process layer in front. `invalidate(prefix)` bumps a generation counter, deletes
 * the matching keys (SCAN + UNLINK) and publishes the prefix so every replica drops its own layer too.
 * While Redis is unreachable, values are computed (and kept only in the local layer, briefly).
 */
export class RedisCache implements Cache {
  private readonly local = new MemoryCache();
  private readonly id = randomUUID();
  private readonly localTtlMs: number;
  private readonly valuePrefix: string;
  private readonly genKey: string;
  private readonly channel: string;
  private subscriber: Redis | undefined;
  /**
   * Prefixes whose invalidation did not reach Redis (it was away): made again before Redis is read,
   * or its values written before the change were served until their TTL once Redis was back (a
   * category list stayed stale for a minute after an outage: found by an audit).
   */
  private readonly missed = new Set<string>();

  private constructor(
    private readonly client: WithSetIfGen,
    private readonly opts: RedisCacheOptions,
  ) {
    this.localTtlMs = opts.localTtlMs ?? 5000;
    this.valuePrefix = `${opts.prefix}cache:v:`;
    this.genKey = `${opts.prefix}cache:gen`;
    this.channel = `${opts.prefix}cache:invalidate`;
    if (!this.client.readlibCacheSet) {
      this.client.defineCommand('readlibCacheSet', { numberOfKeys: 2, lua: SET_IF_GENERATION });
    }
  }

  /** Borrows `client` for commands (the caller closes it) and opens its own subscriber connection. */
  static async connect(client: Redis, opts: RedisCacheOptions): Promise<RedisCache> {
    const cache = new RedisCache(client as WithSetIfGen, opts);
    await cache.subscribe();
    return cache;
  }

  async wrap<T>(key: string, ttlMs: number, compute: () => Promise<T>): Promise<T> {
    return this.local.wrap(key, Math.min(ttlMs, this.localTtlMs), () => this.shared(key, ttlMs, compute));
  }

  async invalidate(prefix: string): Promise<void> {
    await this.local.invalidate(prefix);
    this.missed.add(prefix);
    await this.replayMissed();
  }

  /** Whether every invalidation this replica made has reached Redis. */
  private async replayMissed(): Promise<boolean> {
    for (const prefix of [...this.missed]) {
      try {
        await this.invalidateShared(prefix);
        this.missed.delete(prefix);
      } catch (err) {
        this.opts.onError?.(err as Error, 'invalidate');
        return false;
      }
    }
    return true;
  }

  private async invalidateShared(prefix: string): Promise<void> {
    await this.client.incr(this.genKey);
    const match = `${globEscape(this.valuePrefix + prefix)}*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.client.scan(cursor, 'MATCH', match, 'COUNT', 500);
      if (keys.length > 0) await this.client.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
    // after the delete: a replica that drops its layer on this message must not re-read the old value
    await this.client.publish(this.channel, JSON.stringify({ from: this.id, prefix }));
  }

  async close(): Promise<void> {
    const sub = this.subscriber;
    this.subscriber = undefined;
    if (sub) {
      if (sub.status === 'ready') await sub.quit().catch(() => sub.disconnect());
      else sub.disconnect();
    }
    await this.local.close();
  }

  private async shared<T>(key: string, ttlMs: number, compute: () => Promise<T>): Promise<T> {
    const vkey = this.valuePrefix + key;
    if (this.missed.size > 0 && !(await this.replayMissed())) return compute();
    let gen: string;
    try {
      const [stored, g] = await this.client.mget(vkey, this.genKey);
      if (stored != null) return (JSON.parse(stored) as { v: T }).v;
      gen = g ?? '0';
    } catch (err) {
      this.opts.onError?.(err as Error, 'get');
      return compute();
    }
    const value = await compute();
    try {
      await this.client.readlibCacheSet(vkey, this.genKey, gen, JSON.stringify({ v: value }), ttlMs);
    } catch (err) {
      this.opts.onError?.(err as Error, 'set');
    }
    return value;
  }

  private async subscribe(): Promise<void> {
    const sub = this.client.duplicate();
    sub.on('error', () => {}); // the command connection's watcher reports outages
    let wasDown = false;
    sub.on('close', () => {
      wasDown = true;
    });
    sub.on('ready', () => {
      // messages published while this replica was cut off are lost: start its layer afresh
      if (wasDown) void this.local.invalidate('');
      wasDown = false;
    });
    sub.on('message', (channel: string, raw: string) => {
      if (channel !== this.channel) return;
      try {
        const msg = JSON.parse(raw) as { from: string; prefix: string };
        if (msg.from !== this.id) void this.local.invalidate(msg.prefix);
      } catch (err) {
        this.opts.onError?.(err as Error, 'message');
      }
    });
    if (sub.status === 'wait') await sub.connect();
    await sub.subscribe(this.channel);
    this.subscriber = sub;
  }
}
