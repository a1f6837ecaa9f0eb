import { AppError } from '@readlib/catalog';
import fp from 'fastify-plugin';

/**
 * Login attempts per client IP and per username in a fixed one-minute window (decisions.md §4). The
 * username counter is shared by every IP, so spreading a guessing attack over addresses does not help.
 * In memory: with several admin instances each counts alone (the limit multiplies by the instances).
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
    for (const key of [`ip:${ip}`, `user:${username.trim().toLowerCase()}`]) {
      let entry = this.hits.get(key);
      if (!entry || entry.resetAt <= now) {
        entry = { count: 0, resetAt: now + 60_000 };
        this.hits.set(key, entry);
      }
      entry.count++;
      if (entry.count > this.perMinute)
        retryAfter = Math.max(retryAfter, Math.ceil((entry.resetAt - now) / 1000));
    }
    if (retryAfter > 0) {
      throw Object.assign(new AppError('rate_limited', `too many login attempts, retry in ${retryAfter} s`), {
        retryAfter,
      });
    }
  }

  private prune(now: number): void {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    loginLimiter: LoginLimiter;
  }
}

export const loginLimitPlugin = fp(
  async (app, opts: { perMinute: number; now: () => number }) => {
    app.decorate('loginLimiter', new LoginLimiter(opts.perMinute, opts.now));
  },
  { name: 'admin-login-limit' },
);
