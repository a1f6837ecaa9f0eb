import { randomBytes } from 'node:crypto';
import { closeRedis, connectRedis } from './redis.js';

const DEFAULT_REDIS = 'redis://127.0.0.1:6379';
let cached: Promise<string | undefined> | undefined;

/**
 * The Redis tests use: TEST_REDIS_URL or 127.0.0.1:6379. When it does not answer the skip is printed,
 * and under REQUIRE_POSTGRES=1 (CI, which runs both servers) it is a failure, as for PostgreSQL.
 */
export function testRedisUrl(): Promise<string | undefined> {
  cached ??= (async () => {
    const url = process.env.TEST_REDIS_URL || DEFAULT_REDIS;
    try {
      await closeRedis(await connectRedis(url, { connectTimeoutMs: 1500 }));
      return url;
    } catch (err) {
      const problem = (err as Error).message;
      if (process.env.REQUIRE_POSTGRES === '1' || process.env.REQUIRE_REDIS === '1') {
        throw new Error(`REQUIRE_POSTGRES=1 (CI) but ${problem}`);
      }
      console.warn(`[readlib] Redis tests SKIPPED: ${problem}`);
      return undefined;
    }
  })();
  return cached;
}

/** A key prefix of its own per test run, so parallel runs sharing one Redis never see each other. */
export const uniqueRedisPrefix = (label = 'test') => `readlib-${label}-${randomBytes(6).toString('hex')}:`;

/** Removes every key a test run left under its prefix. */
export async function dropRedisPrefix(url: string, prefix: string): Promise<void> {
  const client = await connectRedis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await client.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await closeRedis(client);
  }
}
