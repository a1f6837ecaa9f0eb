import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies read over the wire
const body = async (res: Response): Promise<any> => res.json();

import { dialects, type Harness, harness, seedBook } from './helpers.js';

describe.each(dialects)('smoke: the real server over HTTP on $name', (dialect) => {
  let t: Harness;
  let base: string;
  beforeAll(async () => {
    t = await harness(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address() as { port: number };
    base = `http://127.0.0.1:${addr.port}`;
  });
  afterAll(async () => t.close());

  it('registers, shelves, reads the home page and the detail over fetch', async () => {
    const book = await seedBook(t, { title: 'Over the wire' });
    const reg = await fetch(`${base}/user/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ openId: 'net-user', nickName: 'Net' }),
    });
    expect(await body(reg)).toEqual({ error_code: 0, msg: 'success' });
    const shelf = encodeURIComponent(JSON.stringify({ openId: 'net-user', fileName: book.file_name }));
    expect((await body(await fetch(`${base}/book/shelf/save?shelf=${shelf}`))).error_code).toBe(0);
    const home = await body(await fetch(`${base}/book/home/v2?openId=net-user`));
    expect(home.data.shelfCount).toBe(1);
    expect(home.data.shelf[0].title).toBe('Over the wire');
    const detail = await fetch(`${base}/book/detail?fileName=${book.file_name}&openId=net-user`);
    expect(detail.headers.get('x-request-id')).toBeTruthy();
    expect((await body(detail)).data.readers[0].nickName).toBe('Net');
    expect(await body(await fetch(`${base}/healthz`))).toEqual({ status: 'ok' });
    expect(await body(await fetch(`${base}/readyz`))).toEqual({ status: 'ok', database: true });
    const missing = await fetch(`${base}/nowhere`);
    expect(missing.status).toBe(404);
    expect((await body(missing)).error_code).toBe(1);
  });
});
