import { BoundedMap } from '../bounded-map.js';

/**
 * Cached values are derived data (hot lists, category counts, pools). Every write that can change one
 * calls `invalidate` with the key prefix it affects; a shared implementation (Redis) also tells every
 * other replica. TTLs bound staleness for what no write invalidates (time windows moving on).
 * Values must be plain JSON data (no Date, Map, undefined inside arrays): RedisCache stores them serialised.
 */
export interface Cache {
  /** the value under `key`, computed by `compute` and kept for `ttlMs` when absent or expired */
  wrap<T>(key: string, ttlMs: number, compute: () => Promise<T>): Promise<T>;
  /** drops every key that starts with `prefix`, in this process and, for shared caches, everywhere */
  invalidate(prefix: string): Promise<void>;
  close(): Promise<void>;
}

/** The in-process cache of a single replica; concurrent misses of one key share one computation. */
export class MemoryCache implements Cache {
  private readonly entries: BoundedMap<string, { value: unknown; expires: number }>;
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(
    private readonly now: () => number = Date.now,
    maxEntries = 10_000,
  ) {
    // per-user keys (liked categories) fill it on a busy service: the oldest key makes room
    this.entries = new BoundedMap(maxEntries);
  }

  async wrap<T>(key: string, ttlMs: number, compute: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) return hit.value as T;
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight as Promise<T>;
    const p: Promise<T> = compute().then(
      (value) => {
        // invalidated while computing: hand the value to the callers but do not keep it
        if (this.pending.get(key) !== p) return value;
        this.pending.delete(key);
        this.entries.set(key, { value, expires: this.now() + ttlMs });
        return value;
      },
      (err) => {
        if (this.pending.get(key) === p) this.pending.delete(key);
        throw err;
      },
    );
    this.pending.set(key, p);
    return p;
  }

  async invalidate(prefix: string): Promise<void> {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
    // a computation started before the write must not store its stale result afterwards
    for (const key of [...this.pending.keys()]) if (key.startsWith(prefix)) this.pending.delete(key);
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}

/** A cache that keeps nothing: for tests that must see every write at once. */
export class NoCache implements Cache {
  wrap<T>(_key: string, _ttlMs: number, compute: () => Promise<T>): Promise<T> {
    return compute();
  }
  async invalidate(): Promise<void> {}
  async close(): Promise<void> {}
}
