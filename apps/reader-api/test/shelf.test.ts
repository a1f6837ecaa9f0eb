import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialects, get, type Harness, harness, register, seedBook, seedBooks, shelfArg } from './helpers.js';

describe.each(dialects)('spec §4.8 / decisions.md §3 shelf on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
    await register(t, 'u1');
  });
  afterEach(async () => t.close());

  const save = (openId: string, fileName: string) =>
    get(t, '/book/shelf/save', { shelf: shelfArg(openId, fileName) });
  const remove = (openId: string, fileName: string) =>
    get(t, '/book/shelf/remove', { shelf: shelfArg(openId, fileName) });

  it('save is idempotent; get lists newest first with owner and date', async () => {
    const [a, b] = await seedBooks(t, 2);
    t.clock.now += 1000;
    expect(await save('u1', a!.file_name)).toMatchObject({ status: 200, body: { error_code: 0 } });
    t.clock.now += 1000;
    await save('u1', b!.file_name);
    t.clock.now += 1000;
    await save('u1', a!.file_name);
    const { data } = (await get(t, '/book/shelf/get', { openId: 'u1' })).body;
    expect(data.map((e: { fileName: string }) => e.fileName)).toEqual([b!.file_name, a!.file_name]);
    expect(data[0]).toMatchObject({
      openId: 'u1',
      date: t.clock.now - 1000,
      bookId: b!.file_name,
      title: b!.title,
    });
  });

  it('HEAD of save, remove and rank save changes nothing: those routes answer GET only', async () => {
    const [a] = await seedBooks(t, 1);
    await save('u1', a!.file_name);
    const head = async (path: string, query: Record<string, string>) =>
      (await t.app.inject({ method: 'HEAD', url: `${path}?${new URLSearchParams(query)}` })).statusCode;
    expect(await head('/book/shelf/remove', { shelf: shelfArg('u1', a!.file_name) })).toBe(404);
    expect(await head('/book/rank/save', { fileName: a!.file_name, openId: 'u1', rank: '5' })).toBe(404);
    const [b] = await seedBooks(t, 1);
    expect(await head('/book/shelf/save', { shelf: shelfArg('u1', b!.file_name) })).toBe(404);
    const { data } = (await get(t, '/book/shelf/get', { openId: 'u1' })).body;
    expect(data.map((e: { fileName: string }) => e.fileName)).toEqual([a!.file_name]);
    expect((await get(t, '/book/detail', { fileName: a!.file_name, openId: 'u1' })).body.data.rank).toBe(0);
    // reads keep their HEAD
    expect(await head('/book/shelf/get', { openId: 'u1' })).toBe(200);
  });

  it('get with fileName answers the shelf status of that book', async () => {
    const [a, b] = await seedBooks(t, 2);
    await save('u1', a!.file_name);
    expect(
      (await get(t, '/book/shelf/get', { openId: 'u1', fileName: a!.file_name })).body.data,
    ).toHaveLength(1);
    expect((await get(t, '/book/shelf/get', { openId: 'u1', fileName: b!.file_name })).body.data).toEqual([]);
    expect(await get(t, '/book/shelf/get', { openId: 'u1', fileName: 'nope' })).toMatchObject({
      status: 404,
      body: { error_code: 1 },
    });
    // reading needs no registration: an unknown user has an empty shelf
    expect((await get(t, '/book/shelf/get', { openId: 'ghost' })).body).toEqual({
      error_code: 0,
      msg: 'success',
      data: [],
    });
  });

  it('remove takes the book off; removing an absent entry succeeds', async () => {
    const a = await seedBook(t);
    await save('u1', a.file_name);
    expect(await remove('u1', a.file_name)).toMatchObject({ status: 200, body: { error_code: 0 } });
    expect((await get(t, '/book/shelf/get', { openId: 'u1' })).body.data).toEqual([]);
    expect(await remove('u1', a.file_name)).toMatchObject({ status: 200, body: { error_code: 0 } });
  });

  it('accepts the JSON URL-encoded twice, as clients calling encodeURIComponent first send it', async () => {
    const a = await seedBook(t);
    const twice = encodeURIComponent(encodeURIComponent(shelfArg('u1', a.file_name)));
    const res = await t.app.inject(`/book/shelf/save?shelf=${twice}`);
    expect(res.json()).toMatchObject({ error_code: 0 });
    expect((await get(t, '/book/shelf/get', { openId: 'u1' })).body.data).toHaveLength(1);
  });

  it.each([
    ['not JSON', '{openId: u1'],
    ['a JSON string', '"u1"'],
    ['a JSON array', '["u1", "b"]'],
    ['null', 'null'],
    ['missing fileName', '{"openId":"u1"}'],
    ['empty openId', '{"openId":"","fileName":"b"}'],
    ['numeric fileName', '{"openId":"u1","fileName":7}'],
  ])('malformed shelf (%s) is 400 error_code 2 on save and remove', async (_label, shelf) => {
    for (const path of ['/book/shelf/save', '/book/shelf/remove']) {
      const res = await get(t, path, { shelf });
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe(2);
    }
  });

  it('missing shelf parameter is 400 error_code 2', async () => {
    expect(await get(t, '/book/shelf/save')).toMatchObject({ status: 400, body: { error_code: 2 } });
  });

  it('unknown fileName is 404 error_code 1; unregistered openId is 404 error_code 4', async () => {
    const a = await seedBook(t);
    expect(await save('u1', 'nope')).toMatchObject({ status: 404, body: { error_code: 1 } });
    expect(await remove('u1', 'nope')).toMatchObject({ status: 404, body: { error_code: 1 } });
    expect(await save('ghost', a.file_name)).toMatchObject({ status: 404, body: { error_code: 4 } });
    expect(await remove('ghost', a.file_name)).toMatchObject({ status: 404, body: { error_code: 4 } });
  });
});
