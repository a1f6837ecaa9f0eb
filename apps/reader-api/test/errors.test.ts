import { afterEach, describe, expect, it } from 'vitest';
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
    expect(await get(t, '/book/nothing-here')).toMatchObject({ status: 404, body: { error_code: 1 } });
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
