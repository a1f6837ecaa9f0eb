import { describe, expect, it } from 'vitest';
import { MemoryCache } from '../src/cache/cache.js';

describe('MemoryCache', () => {
  it('computes once per key until the ttl passes', async () => {
    let t = 0;
    const cache = new MemoryCache(() => t);
    let calls = 0;
    const f = async () => ++calls;
    expect(await cache.wrap('a', 100, f)).toBe(1);
    expect(await cache.wrap('a', 100, f)).toBe(1);
    t = 101;
    expect(await cache.wrap('a', 100, f)).toBe(2);
  });

  it('shares one computation between concurrent misses', async () => {
    const cache = new MemoryCache();
    let calls = 0;
    const f = () => new Promise<number>((r) => setTimeout(() => r(++calls), 10));
    expect(await Promise.all([cache.wrap('k', 1000, f), cache.wrap('k', 1000, f)])).toEqual([1, 1]);
  });

  it('invalidates by prefix, and a computation in flight during invalidation is not kept', async () => {
    const cache = new MemoryCache();
    let v = 1;
    await cache.wrap('home:hot', 1000, async () => v);
    await cache.wrap('other', 1000, async () => 'x');
    v = 2;
    await cache.invalidate('home:');
    expect(await cache.wrap('home:hot', 1000, async () => v)).toBe(2);
    expect(await cache.wrap('other', 1000, async () => 'y')).toBe('x');
    let release!: () => void;
    const slow = cache.wrap('home:slow', 1000, () => new Promise<number>((r) => (release = () => r(1))));
    await cache.invalidate('home:');
    release();
    await slow;
    expect(await cache.wrap('home:slow', 1000, async () => 3)).toBe(3);
  });

  it('propagates errors and does not cache them', async () => {
    const cache = new MemoryCache();
    await expect(cache.wrap('e', 1000, async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(await cache.wrap('e', 1000, async () => 'ok')).toBe('ok');
  });
});
