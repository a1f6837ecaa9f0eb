import { testConfig } from '@readlib/config';
import { createDb } from '@readlib/data';
import { refusingPostgresUrl, silentPostgres } from '@readlib/data/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index.js';
import { dialects, get, type Harness, harness, seedBook } from './helpers.js';

describe.each(dialects)('decisions.md §2 error rows of the reader API on $name', (dialect) => {
  let t: Harness | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('invalid parameter: 400, error_code 2', async () => {
    t = await harness(dialect);
    const res = await get(t, '/book/home/v2');
    expect(res).toMatchObject({ status: 400, body: { error_code: 2, msg: expect.any(String) } });
  });

  it('book not found: 404, error_code 1; unknown route: 404, error_code 1', async () => {
    t = await harness(dialect);
    expect(await get(t, '/book/detail', { fileName: 'missing' })).toMatchObject({
      status: 404,
      body: { error_code: 1 },
    });
    expect(await get(t, '/book/nothing-here')).toMatchObject({
      status: 404,
      body: { error_code: 1, msg: 'route GET /book/nothing-here not found' },
    });
    // under /res/ a miss is a file the store does not hold, not a route
    expect(await get(t, '/res/epub/nothing-here.epub')).toMatchObject({
      status: 404,
      body: { error_code: 1, msg: 'file /res/epub/nothing-here.epub not found' },
    });
    const post = await t.app.inject({ method: 'POST', url: '/book/detail' });
    expect(post.statusCode).toBe(404);
    expect(post.json().error_code).toBe(1);
  });

  it('write by an unregistered openId: 404, error_code 4', async () => {
    t = await harness(dialect);
    const b = await seedBook(t);
    const res = await get(t, '/book/shelf/save', {
      shelf: JSON.stringify({ openId: 'ghost', fileName: b.file_name }),
    });
    expect(res).toMatchObject({ status: 404, body: { error_code: 4 } });
  });

  it('malformed shelf JSON: 400, error_code 2', async () => {
    t = await harness(dialect);
    expect(await get(t, '/book/shelf/save', { shelf: '{oops' })).toMatchObject({
      status: 400,
      body: { error_code: 2 },
    });
  });

  it('rate limited: 429, error_code 5, with retry-after', async () => {
    t = await harness(dialect, { RATE_LIMIT_PER_MINUTE: '3' });
    for (let i = 0; i < 3; i++) expect((await get(t, '/book/category/list/v2')).status).toBe(200);
    const res = await get(t, '/book/category/list/v2');
    expect(res).toMatchObject({ status: 429, body: { error_code: 5 } });
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('internal error: 500, error_code -1, no stack or SQL in the body', async () => {
    t = await harness(dialect);
    // the database going away under a running app is the realistic internal failure
    await t.h.db.destroy();
    const res = await t.app.inject('/book/home/v2?openId=u');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error_code: -1, msg: 'internal error' });
    expect(res.body).not.toMatch(/select|stack|at \//i);
    await t.app.close();
    t = undefined;
  });
});

// Added to decisions.md §2's table (docs/errors.md): a database that cannot take the request now is
// worth a retry, so it is told apart from an internal error. No server needs to run for this one.
describe('database unavailable: 503, error_code -1, retry-after', () => {
  it('PostgreSQL unreachable: every route that reads answers the envelope with retry-after, /readyz says so', async () => {
    const h = createDb({ dialect: 'postgres', url: await refusingPostgresUrl() });
    const app = await buildApp(testConfig({ PUBLIC_BASE_URL: 'http://files.test' }), {
      db: h.db,
      logger: false,
    });
    try {
      for (const url of ['/book/home/v2?openId=u', '/book/detail?fileName=x', '/book/search?keyword=dune']) {
        const res = await app.inject(url);
        expect(res.statusCode, url).toBe(503);
        expect(res.json()).toEqual({ error_code: -1, msg: 'service busy, retry shortly' });
        expect(res.headers['retry-after']).toBe('1');
      }
      const ready = await app.inject('/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ database: false });
    } finally {
      await app.close();
      await h.destroy();
    }
  });

  it('PostgreSQL accepting connections and never answering: 503 after the connect timeout, not a hang', async () => {
    const silent = await silentPostgres();
    const config = testConfig({ PUBLIC_BASE_URL: 'http://files.test', DATABASE_CONNECT_TIMEOUT_MS: '300' });
    const h = createDb(
      { dialect: 'postgres', url: silent.url },
      { connectTimeoutMs: config.databaseTimeouts.connectMs },
    );
    const app = await buildApp(config, { db: h.db, logger: false });
    try {
      const t = Date.now();
      const res = await app.inject('/book/detail?fileName=x&openId=u');
      expect(Date.now() - t).toBeLessThan(3000);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
    } finally {
      await app.close();
      await h.destroy();
      await silent.close();
    }
  });
});
