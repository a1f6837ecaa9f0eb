import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedKeep } from '../src/shared-keep.js';
import { RedisStore } from '../src/shared-store.js';
import { Versions } from '../src/versions.js';

const URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

async function reachable(): Promise<string | null> {
  const c = new Redis(URL, { lazyConnect: true, connectTimeout: 1500, maxRetriesPerRequest: 0 });
  c.on('error', () => {});
  try {
    await c.connect();
    await c.ping();
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    c.disconnect();
  }
}

const problem = await reachable();
if (problem && process.env.REQUIRE_POSTGRES === '1') {
  throw new Error(`REQUIRE_POSTGRES=1 (CI) but Redis at ${URL} is unreachable: ${problem}`);
}
if (problem) console.warn(`[readlib] Redis tests SKIPPED: ${URL} unreachable (${problem})`);

type V = 'catalog' | 'activity';

describe.skipIf(problem !== null)('SharedKeep over Redis: values replicas share', () => {
  const prefix = `readlib-test:${randomBytes(6).toString('hex')}:`;
  const clients: Redis[] = [];
  const client = async () => {
    const c = new Redis(URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    c.on('error', () => {});
    await c.connect();
    clients.push(c);
    return c;
  };
  /** a replica: its own versions, and the keep of the category list over the shared store */
  const replica = async (catalog: number) => {
    const versions = new Versions<V>(['catalog', 'activity']);
    versions.observe('catalog', catalog);
    const keep = new SharedKeep<V, string[]>(
      versions,
      { name: 'lists', key: '-', dependsOn: ['catalog'], max: 10, ttlMs: 60_000 },
      new RedisStore(await client(), prefix),
    );
    return { versions, keep };
  };
  beforeAll(async () => {
    await client();
  });
  afterAll(async () => {
    const keys = await clients[0]!.keys(`${prefix}*`);
    if (keys.length) await clients[0]!.unlink(...keys);
    for (const c of clients) await c.quit().catch(() => c.disconnect());
  });

  it('a value one replica computed is read by another at the same versions, under a key naming them', async () => {
    const a = await replica(7);
    const b = await replica(7);
    let computed = 0;
    const compute = async () => {
      computed++;
      return ['fiction', 'history'];
    };
    expect(await a.keep.read('all', a.versions.seen, compute)).toEqual(['fiction', 'history']);
    expect(await b.keep.read('all', b.versions.seen, compute)).toEqual(['fiction', 'history']);
    expect(computed).toBe(1);
    expect(await clients[0]!.keys(`${prefix}keep:lists@7:all`)).toHaveLength(1);
  });

  it('a replica at a newer version never reads what was kept for an older one', async () => {
    const old = await replica(20);
    await old.keep.read('all', old.versions.seen, async () => ['before the change']);
    const moved = await replica(21);
    expect(await moved.keep.read('all', moved.versions.seen, async () => ['after the change'])).toEqual([
      'after the change',
    ]);
    // and the older replica, once it observes the move, drops its own copy and reads the new one
    old.versions.observe('catalog', 21);
    expect(await old.keep.read('all', old.versions.seen, async () => ['computed again'])).toEqual([
      'after the change',
    ]);
  });

  it('computes instead of failing while the store is unreachable, and says so', async () => {
    const versions = new Versions<V>(['catalog', 'activity']);
    versions.observe('catalog', 1);
    const dead = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    });
    dead.on('error', () => {});
    const errors: string[] = [];
    const keep = new SharedKeep<V, number>(
      versions,
      { name: 'n', key: '-', dependsOn: ['catalog'], max: 1, ttlMs: 1000 },
      new RedisStore(dead, prefix),
      (err) => errors.push(err.message),
    );
    expect(await keep.read('x', versions.seen, async () => 42)).toBe(42);
    expect(errors.length).toBeGreaterThanOrEqual(1);
    dead.disconnect();
  });
});
