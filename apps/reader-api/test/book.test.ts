import { insertBook } from '@readlib/data';
import { sampleBook } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialects, get, type Harness, harness, register, seedBook, view } from './helpers.js';

describe.each(dialects)('spec §4.7 / decisions.md §3 book detail on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  it('answers the summary plus flags, opf URL, readers and ratings', async () => {
    const b = await seedBook(t, { root_file: 'OEBPS/content.opf', have_read: 0 });
    const res = await get(t, '/book/detail', { fileName: b.file_name });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: b.id,
      fileName: b.file_name,
      bookId: b.file_name,
      cover: `http://files.test/res/${b.cover_path}`,
      title: b.title,
      author: b.author,
      publisher: b.publisher,
      category: 1,
      categoryText: b.category_name,
      language: 'en',
      rootFile: 'OEBPS/content.opf',
      selected: false,
      private: false,
      cache: false,
      haveRead: 0,
      opf: `http://files.test/res/unzip/${b.file_name}/OEBPS/content.opf`,
      readers: [],
      readerNum: 0,
      rank: 0,
      rankNum: 0,
      rankAvg: '0',
    });
  });

  it('takes flags from the record when set', async () => {
    const b = await seedBook(t, { selected: 1, cache: 1, have_read: 3 });
    const { data } = (await get(t, '/book/detail', { fileName: b.file_name })).body;
    expect(data).toMatchObject({ selected: true, private: false, cache: true, haveRead: 3 });
  });

  it('records a view for a registered openId only; readers are the 10 most recent distinct, newest first', async () => {
    const b = await seedBook(t);
    for (let i = 0; i < 12; i++)
      await register(t, `u${i}`, { nickName: `N${i}`, avatarUrl: `http://a/${i}.png` });
    for (let i = 0; i < 12; i++) {
      t.clock.now += 1000;
      await view(t, b.file_name, `u${i}`);
    }
    // u0 comes back: one reader, moved to the front, not a second entry
    t.clock.now += 1000;
    await view(t, b.file_name, 'u0');
    await view(t, b.file_name, 'never-registered');
    // HEAD (link checkers, prefetchers) answers like GET but is no visit
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/book/detail?${new URLSearchParams({ fileName: b.file_name, openId: 'u1' })}`,
    });
    expect([head.statusCode, head.headers['content-type'], head.body]).toEqual([
      200,
      'application/json; charset=utf-8',
      '',
    ]);
    // an empty openId, as a client sends before its login, is an anonymous read (not 400)
    const anonymous = await get(t, '/book/detail', { fileName: b.file_name, openId: '' });
    expect([anonymous.status, anonymous.body.data.rank]).toEqual([200, 0]);
    const data = await view(t, b.file_name, 'u0');
    expect(data.readerNum).toBe(12);
    expect(data.readers).toHaveLength(10);
    expect(data.readers[0]).toEqual({ nickName: 'N0', avatarUrl: 'http://a/0.png', create_dt: t.clock.now });
    expect(data.readers.map((r: { nickName: string }) => r.nickName)).toEqual([
      'N0',
      'N11',
      'N10',
      'N9',
      'N8',
      'N7',
      'N6',
      'N5',
      'N4',
      'N3',
    ]);
    const views = await t.h.db
      .selectFrom('views')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(views.n)).toBe(14);
  });

  it('unknown fileName is 404 error_code 1; missing fileName is 400 error_code 2', async () => {
    expect(await get(t, '/book/detail', { fileName: 'nope' })).toMatchObject({
      status: 404,
      body: { error_code: 1 },
    });
    expect(await get(t, '/book/detail')).toMatchObject({ status: 400, body: { error_code: 2 } });
  });
});

describe.each(dialects)('spec §4.9 / decisions.md §3 rating on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  it('a second rating replaces the first; rank, rankNum and rankAvg follow', async () => {
    const b = await seedBook(t);
    for (const u of ['a', 'b', 'c']) await register(t, u);
    const rate = (openId: string, rank: number) =>
      get(t, '/book/rank/save', { fileName: b.file_name, openId, rank });
    expect(await rate('a', 5)).toEqual(
      expect.objectContaining({ status: 200, body: { error_code: 0, msg: 'success' } }),
    );
    await rate('a', 4);
    await rate('b', 5);
    let data = (await get(t, '/book/detail', { fileName: b.file_name, openId: 'a' })).body.data;
    expect(data).toMatchObject({ rank: 4, rankNum: 2, rankAvg: '4.5' });
    await rate('c', 5);
    data = (await get(t, '/book/detail', { fileName: b.file_name, openId: 'c' })).body.data;
    expect(data).toMatchObject({ rank: 5, rankNum: 3, rankAvg: '4.67' });
    data = (await get(t, '/book/detail', { fileName: b.file_name })).body.data;
    expect(data.rank).toBe(0);
  });

  it('rank outside 1-5 or not an integer is 400 error_code 2', async () => {
    const b = await seedBook(t);
    await register(t, 'a');
    for (const rank of ['0', '6', '2.5', 'x']) {
      const res = await get(t, '/book/rank/save', { fileName: b.file_name, openId: 'a', rank });
      expect(res.status, rank).toBe(400);
      expect(res.body.error_code).toBe(2);
    }
  });

  it('unregistered openId is 404 error_code 4; unknown book is 404 error_code 1', async () => {
    const b = await seedBook(t);
    expect(
      await get(t, '/book/rank/save', { fileName: b.file_name, openId: 'ghost', rank: 3 }),
    ).toMatchObject({
      status: 404,
      body: { error_code: 4 },
    });
    await register(t, 'a');
    expect(await get(t, '/book/rank/save', { fileName: 'nope', openId: 'a', rank: 3 })).toMatchObject({
      status: 404,
      body: { error_code: 1 },
    });
  });
});

describe.each(dialects)('spec §4.7 / decisions.md §3 contents on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  it('answers the detail shape plus flat contents and the nested tree', async () => {
    const entry = (ord: number, id: string, pid: string, level: number) => ({
      ord,
      entry_id: id,
      nav_id: id,
      pid,
      href: `${id}.xhtml#top`,
      label: `Label ${id}`,
      level,
      text: `OEBPS/${id}.xhtml`,
    });
    const b = await insertBook(t.h.db, sampleBook(), [
      entry(1, 'c1', '', 0),
      entry(2, 'c1a', 'c1', 1),
      entry(3, 'c2', '', 0),
    ]);
    const { data } = (await get(t, '/book/contents', { fileName: b.file_name })).body;
    expect(data).toMatchObject({
      fileName: b.file_name,
      readers: [],
      rankAvg: '0',
      opf: expect.stringContaining('/res/unzip/'),
    });
    expect(data.contents.map((c: { id: string }) => c.id)).toEqual(['c1', 'c1a', 'c2']);
    expect(data.contents[1]).toEqual({
      id: 'c1a',
      href: 'c1a.xhtml#top',
      label: 'Label c1a',
      level: 1,
      pid: 'c1',
      navId: 'c1a',
      order: 2,
      text: `http://files.test/res/unzip/${b.file_name}/OEBPS/c1a.xhtml`,
    });
    // decisions.md §4 (verified against the original clients): the array of the top-level entries
    expect(data.contentsTree.map((n: { id: string }) => n.id)).toEqual(['c1', 'c2']);
    expect(data.contentsTree[0].children.map((n: { id: string }) => n.id)).toEqual(['c1a']);
    expect(data.contentsTree[1].children).toEqual([]);
  });

  it('unknown fileName is 404 error_code 1', async () => {
    expect(await get(t, '/book/contents', { fileName: 'nope' })).toMatchObject({
      status: 404,
      body: { error_code: 1 },
    });
  });
});
