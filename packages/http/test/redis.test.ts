import { SharedKeep, Versions } from '@readlib/cache';
import { testConfig } from '@readlib/config';
import { TcpRelay } from '@readlib/data/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBaseApp, type Family, RedisUnavailableError, success } from '../src/index.js';
import { dropRedisPrefix, testRedisUrl, uniqueRedisPrefix } from '../src/redis-testing.js';

const redisUrl = await testRedisUrl();

async function appOn(url: string, prefix: string, family: Family = 'reader', perMinute = '1000') {
  const app = await createBaseApp({
    config: testConfig({ REDIS_URL: url, REDIS_KEY_PREFIX: prefix, RATE_LIMIT_PER_MINUTE: perMinute }),
    family,
    logger: false,
    openapi: { title: 't', version: '1', description: 'd' },
    ready: async () => true,
  });
  // a value shared through the store only (this process keeps none), so every request reads Redis
  const versions = new Versions(['v'] as const);
  versions.observe('v', 1);
  const shared = new SharedKeep(
    versions,
    { name: 'thing', key: '-', dependsOn: ['v'], max: 0, ttlMs: 60_000 },
    app.sharedStore,
  );
  const read = (key: string, value: string) => shared.read(key, versions.seen, async () => value);
  app.get('/thing', async () => success(family, await read('thing', 'v')));
  return Object.assign(app, { read });
}

describe('Redis unreachable at start (issue: scale-out §1)', () => {
  it('refuses to build the app with a message naming the URL, without its password', async () => {
    const err = await appOn('redis://:hunter2@127.0.0.1:1', 'x:').catch((e: Error) => e);
    expect(err).toBeInstanceOf(RedisUnavailableError);
    expect((err as Error).message).toMatch(/^Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1\/? is unreachable/);
    expect((err as Error).message).not.toContain('hunter2');
  });
});

describe.skipIf(!redisUrl)('with REDIS_URL (issue: scale-out §1, §3)', () => {
  const prefix = uniqueRedisPrefix('http');
  afterAll(async () => {
    if (redisUrl) await dropRedisPrefix(redisUrl, prefix);
  });

  it('refuses a database number the server does not have instead of using database 0', async () => {
    const url = new URL(redisUrl!);
    url.pathname = '/99999';
    const err = await appOn(url.toString(), `${prefix}db:`).catch((e: Error) => e);
    expect(err).toBeInstanceOf(RedisUnavailableError);
    expect((err as Error).message).toMatch(
      /refused the connection's setup \(ERR DB index is out of range\): fix REDIS_URL$/,
    );
  });

  it('a server that refuses CLIENT commands (a managed Redis) is still used: only a refused database stops the start', async () => {
    const admin = new Redis(redisUrl!);
    const user = `${prefix}noclient`.replace(/[^A-Za-z0-9_-]/g, '_');
    await admin.call('ACL', 'SETUSER', user, 'on', '>noclient-pass', '~*', '&*', '+@all', '-client');
    try {
      const url = new URL(redisUrl!);
      url.username = user;
      url.password = 'noclient-pass';
      const app = await appOn(url.toString(), `${prefix}noclient:`);
      try {
        expect((await app.inject('/readyz')).json()).toEqual({ status: 'ok', database: true, redis: true });
        expect((await app.inject('/thing')).statusCode).toBe(200);
      } finally {
        await app.close();
      }
    } finally {
      await admin.call('ACL', 'DELUSER', user);
      admin.disconnect();
    }
  });

  it('counts the rate limit in Redis: two instances share one budget', async () => {
    const a = await appOn(redisUrl!, `${prefix}rl1:`, 'reader', '4');
    const b = await appOn(redisUrl!, `${prefix}rl1:`, 'reader', '4');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await (i % 2 ? a : b).inject('/thing')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await a.inject('/thing');
    expect(refused.json()).toMatchObject({ error_code: 5 });
    expect(refused.headers['retry-after']).toBeDefined();
    await Promise.all([a.close(), b.close()]);
  });

  describe('while Redis goes away and comes back', () => {
    const target = new URL(redisUrl ?? 'redis://127.0.0.1:6379');
    const relay = new TcpRelay(target.hostname, Number(target.port || 6379));
    // the relay's URL keeps TEST_REDIS_URL's database: the instances compared below share keys, and the
    // prefix is dropped from that database
    const relayed = () => {
      const url = new URL(target);
      url.hostname = '127.0.0.1';
      url.port = String(relay.port);
      return url.toString();
    };
    beforeAll(() => relay.up());
    afterAll(() => relay.down());

    it('readiness fails, requests still answer in their envelopes, and both recover', async () => {
      const app = await appOn(relayed(), `${prefix}down:`, 'admin', '2');
      expect((await app.inject('/readyz')).json()).toEqual({ status: 'ok', database: true, redis: true });
      expect(app.sharedStore?.constructor.name).toBe('RedisStore');

      await relay.down();
      await expect.poll(async () => (await app.inject('/readyz')).statusCode, { timeout: 15_000 }).toBe(503);
      expect((await app.inject('/readyz')).json()).toEqual({
        status: 'unavailable',
        database: true,
        redis: false,
      });
      // the limiter skips instead of failing: more requests than the limit of 2 all pass
      for (let i = 0; i < 4; i++) {
        const res = await app.inject('/thing');
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ code: 0, msg: 'success', data: 'v' });
      }
      expect((await app.inject('/metrics')).body).toMatch(/^readlib_redis_connected 0$/m);

      await relay.up();
      await expect.poll(async () => (await app.inject('/readyz')).statusCode, { timeout: 10_000 }).toBe(200);
      // shared values flow again: what another instance stores is read by this one
      const other = await appOn(redisUrl!, `${prefix}down:`, 'admin');
      expect(await other.read('list', 'from the other instance')).toBe('from the other instance');
      expect(await app.read('list', 'computed here')).toBe('from the other instance');
      await Promise.all([app.close(), other.close()]);
    });

    // a Redis that stops answering without closing the connection must not hold every request
    it('a Redis that stops answering but stays connected: requests answer after the command timeout, close ends', async () => {
      const app = await appOn(relayed(), `${prefix}hang:`, 'reader', '1000');
      expect((await app.inject('/thing')).statusCode).toBe(200);
      relay.freeze(true);
      try {
        for (const path of ['/thing', '/thing']) {
          const started = Date.now();
          const res = await app.inject(path);
          expect(res.statusCode).toBe(200);
          expect(Date.now() - started).toBeLessThan(2500);
        }
        expect((await app.inject('/readyz')).statusCode).toBe(503);
        const closing = Date.now();
        await app.close();
        expect(Date.now() - closing).toBeLessThan(3000);
      } finally {
        relay.freeze(false);
      }
    }, 20_000);
  });
});
