import { AppError } from '@readlib/contracts';

import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';

const WINDOW_MS = 60_000;

function refuse(retryAfter: number): never {
  throw Object.assign(new AppError('rate_limited', `too many login attempts, retry in ${retryAfter} s`), {
    retryAfter,
  });
}

const keysOf = (ip: string, username: string) => [`ip:${ip}`, `user:${username.trim().toLowerCase()}`];

/**
 * Login attempts per client IP and per username in a fixed one-minute window (decisions.md §4). The
 * username counter is shared by every IP, so spreading a guessing attack over addresses does not help.
 * In memory: the counters of one admin instance (with REDIS_URL, RedisLoginLimiter counts for all).
 */
export class LoginLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  /** Counts one attempt; throws a 429 refusal once either counter is over the limit. */
  hit(ip: string, username: string): void {
    const now = this.now();
    if (this.hits.size > 10_000) this.prune(now);
    let retryAfter = 0;
    for (const key of keysOf(ip, username)) {
      let entry = this.hits.get(key);
      if (!entry || entry.resetAt <= now) {
        entry = { count: 0, resetAt: now + WINDOW_MS };
        this.hits.set(key, entry);
      }
      entry.count++;
      if (entry.count > this.perMinute)
        retryAfter = Math.max(retryAfter, Math.ceil((entry.resetAt - now) / 1000));
    }
    if (retryAfter > 0) refuse(retryAfter);
  }

  private prune(now: number): void {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}

// INCR and the window's expiry in one step, so a crash between them cannot leave a counter forever
const COUNT_IN_WINDOW = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {c, redis.call('PTTL', KEYS[1])}`;

type WithCount = Redis & { readlibLoginCount(key: string, windowMs: number): Promise<[number, number]> };

/**
 * The same counters in Redis, so every admin replica counts every attempt. While Redis is unreachable
 * each replica falls back to its own memory counters: weaker, but logins stay limited and answered.
 */
export class RedisLoginLimiter {
  private readonly redis: WithCount;
  private readonly fallback: LoginLimiter;

  constructor(
    redis: Redis,
    private readonly perMinute: number,
    private readonly prefix: string,
    now: () => number,
  ) {
    this.redis = redis as WithCount;
    if (!this.redis.readlibLoginCount) {
      this.redis.defineCommand('readlibLoginCount', { numberOfKeys: 1, lua: COUNT_IN_WINDOW });
    }
    this.fallback = new LoginLimiter(perMinute, now);
  }

  async hit(ip: string, username: string): Promise<void> {
    let counts: Array<[number, number]>;
    try {
      counts = await Promise.all(
        keysOf(ip, username).map((k) => this.redis.readlibLoginCount(`${this.prefix}login:${k}`, WINDOW_MS)),
      );
    } catch {
      return this.fallback.hit(ip, username);
    }
    let retryAfter = 0;
    for (const [count, ttl] of counts) {
      if (count > this.perMinute) retryAfter = Math.max(retryAfter, Math.ceil(Math.max(ttl, 1000) / 1000));
    }
    if (retryAfter > 0) refuse(retryAfter);
  }
}

/** Either limiter: callers await `hit`, which throws the 429 refusal. */
export interface LoginLimits {
  hit(ip: string, username: string): void | Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    loginLimiter: LoginLimits;
  }
}

export const loginLimitPlugin = fp(
  async (app, opts: { perMinute: number; now: () => number; redis?: Redis; prefix?: string }) => {
    const limiter: LoginLimits = opts.redis
      ? new RedisLoginLimiter(opts.redis, opts.perMinute, opts.prefix ?? '', opts.now)
      : new LoginLimiter(opts.perMinute, opts.now);
    app.decorate('loginLimiter', limiter);
  },
  { name: 'admin-login-limit' },
);
