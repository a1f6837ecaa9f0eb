import { ensureFirstOperator } from '@readlib/catalog';
import { testConfig } from '@readlib/config';
import { testDialects } from '@readlib/data/testing';
import type { App } from '@readlib/http';
import { dropRedisPrefix, testRedisUrl, uniqueRedisPrefix } from '@readlib/http/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index.js';
import { JWT_SECRET, OPERATOR } from './helpers.js';

const redisUrl = await testRedisUrl();
const [dialect] = await testDialects();

describe.skipIf(!redisUrl)(
  'login attempts are counted in Redis across admin replicas (issue: scale-out §1)',
  () => {
    const prefix = uniqueRedisPrefix('login');
    let h: Awaited<ReturnType<NonNullable<typeof dialect>['create']>>;
    let replicas: App[];
    beforeAll(async () => {
      h = await dialect!.create();
      const config = testConfig({
        JWT_SECRET,
        ADMIN_USERNAME: OPERATOR.username,
        ADMIN_PASSWORD: OPERATOR.password,
        REDIS_URL: redisUrl!,
        REDIS_KEY_PREFIX: prefix,
        LOGIN_ATTEMPTS_PER_MINUTE: '3',
      });
      await ensureFirstOperator(h.db, config);
      replicas = [
        await buildApp(config, { db: h.db, logger: false }),
        await buildApp(config, { db: h.db, logger: false }),
      ];
    });
    afterAll(async () => {
      for (const app of replicas ?? []) await app.close();
      await h?.destroy();
      if (redisUrl) await dropRedisPrefix(redisUrl, prefix);
    });

    const attempt = (i: number, ip: string, username: string, password = 'wrong password') =>
      replicas[i % 2]!.inject({
        method: 'POST',
        url: '/user/login',
        remoteAddress: ip,
        payload: { username, password },
      });

    it('per username: guesses spread over replicas and addresses are refused past the limit', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await attempt(i, `203.0.113.${i + 1}`, 'ops')).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const refused = await attempt(0, '203.0.113.99', 'OPS ', OPERATOR.password);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: -1 });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('per client address: one address trying many usernames is refused past the limit', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await attempt(i, '198.51.100.7', `user-${i}`)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429]);
    });
  },
);
