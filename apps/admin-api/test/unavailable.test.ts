import { createDb } from '@readlib/data';
import { refusingPostgresUrl, testDialects } from '@readlib/data/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index.js';
import { type Harness, harness, OPERATOR } from './helpers.js';

const sqlite = (await testDialects()).find((d) => d.name === 'sqlite')!;

// docs/errors.md: the database away is 503 code -1 with retry-after, for login and behind the token
// alike; a valid token must not turn into a 401 because its operator could not be read.
describe('admin API with its database unreachable', () => {
  let t: Harness | undefined;
  afterAll(async () => t?.close());

  it('login and token-protected routes answer 503 code -1 with retry-after', async () => {
    t = await harness(sqlite);
    const h = createDb({ dialect: 'postgres', url: await refusingPostgresUrl() });
    const app = await buildApp(t.config, { db: h.db, store: t.store, logger: false });
    try {
      const answers = [
        await app.inject({ method: 'POST', url: '/user/login', payload: OPERATOR }),
        await app.inject({ url: '/user/info', headers: t.auth }),
        await app.inject({ url: '/book/list?page=1&pageSize=5', headers: t.auth }),
      ];
      for (const res of answers) {
        expect(res.statusCode, res.body).toBe(503);
        expect(res.json()).toEqual({ code: -1, msg: 'service busy, retry shortly' });
        expect(res.headers['retry-after']).toBe('1');
      }
    } finally {
      await app.close();
      await h.destroy();
    }
  });
});
