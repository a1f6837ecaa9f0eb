import { logSearch } from '@readlib/data';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DAY,
  dialects,
  get,
  type Harness,
  harness,
  register,
  seedBook,
  seedBooks,
  settledSearchLog,
  shelfArg,
  view,
} from './helpers.js';

describe.each(dialects)('spec §4.1 / decisions.md §3 home page on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  it('answers every section for an unknown openId on an empty catalogue', async () => {
    const res = await get(t, '/book/home/v2', { openId: 'nobody' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ error_code: 0 });
    expect(res.body.data).toEqual({
      hotSearch: { num: 0, keyword: '' },
      shelf: [],
      recommend: [],
      freeRead: [],
      hotBook: [],
      category: [],
      banner: {
        img: '',
        title: 'Read something new today',
        subTitle: 'Fresh picks from the catalogue',
        url: '',
      },
      shelfCount: 0,
    });
  });

  it('fills every section with the documented sizes and shapes', async () => {
    await seedBooks(t, 12);
    await register(t, 'u1');
    const { data } = (await get(t, '/book/home/v2', { openId: 'u1' })).body;
    expect(data.recommend).toHaveLength(3);
    expect(data.freeRead).toHaveLength(4);
    expect(data.hotBook).toHaveLength(4);
    expect(data.freeRead[0]).toMatchObject({
      bookId: data.freeRead[0].fileName,
      categoryText: expect.any(String),
    });
    expect(data.freeRead[0].cover).toMatch(/^http:\/\/files\.test\/res\/img\//);
  });

  it('shelf = 3 most recently shelved, shelfCount = shelf size', async () => {
    const books = await seedBooks(t, 5);
    await register(t, 'u1');
    for (const b of books) {
      t.clock.now += 1000;
      await get(t, '/book/shelf/save', { shelf: shelfArg('u1', b.file_name) });
    }
    const { data } = (await get(t, '/book/home/v2', { openId: 'u1' })).body;
    expect(data.shelfCount).toBe(5);
    expect(data.shelf.map((b: { fileName: string }) => b.fileName)).toEqual(
      books
        .slice(2)
        .reverse()
        .map((b) => b.file_name),
    );
  });

  it('category = every non-empty category with num and two cover URLs', async () => {
    await seedBook(t, { category_id: 2, cover_path: 'img/a.png' });
    await seedBook(t, { category_id: 2, cover_path: 'img/b.png' });
    await seedBook(t, { category_id: 5, cover_path: 'img/c.png' });
    const { data } = (await get(t, '/book/home/v2', { openId: 'x' })).body;
    expect(data.category).toHaveLength(2);
    expect(data.category[0]).toMatchObject({
      category: 2,
      num: 2,
      cover: 'http://files.test/res/img/b.png',
      cover2: 'http://files.test/res/img/a.png',
    });
    // a one-book category repeats its cover rather than show a hole
    expect(data.category[1]).toMatchObject({ category: 5, num: 1, cover2: data.category[1].cover });
    expect((await get(t, '/book/category/list/v2')).body.data).toEqual(data.category);
  });

  it('hotSearch = most searched keyword of the last 30 days with its count', async () => {
    const now = t.clock.now;
    for (let i = 0; i < 5; i++) await logSearch(t.h.db, 'old', null, now - 40 * DAY);
    for (let i = 0; i < 2; i++) await logSearch(t.h.db, 'fresh', null, now - DAY);
    await get(t, '/book/search', { keyword: 'fresh' });
    // one keyword however it is typed, as search ignores case: 'Fresh' and full-width 'ＦＲＥＳＨ' count
    await get(t, '/book/search', { keyword: 'Fresh' });
    await get(t, '/book/search', { keyword: 'ＦＲＥＳＨ' });
    for (let i = 0; i < 4; i++) await get(t, '/book/search', { keyword: `other${i % 2}` });
    // the lines of the searches are committed right after their answers
    await settledSearchLog(t);
    const { data } = (await get(t, '/book/home/v2', { openId: 'x' })).body;
    expect(data.hotSearch).toEqual({ num: 5, keyword: 'fresh' });
  });

  it('hotBook = most viewed of the last 30 days, all time when too few, then random fill', async () => {
    const books = await seedBooks(t, 10);
    for (const u of ['a', 'b', 'c']) await register(t, u);
    const at = (ms: number) => {
      t.clock.now = ms;
    };
    const now = t.clock.now;
    // old views: book 0 is the all-time favourite
    at(now - 60 * DAY);
    for (const u of ['a', 'b', 'c']) await view(t, books[0]!.file_name, u);
    at(now - DAY);
    for (const u of ['a', 'b']) await view(t, books[1]!.file_name, u);
    await view(t, books[2]!.file_name, 'a');
    at(now);
    const { data } = (await get(t, '/book/home/v2', { openId: 'x' })).body;
    const names = data.hotBook.map((b: { fileName: string }) => b.fileName);
    expect(names).toHaveLength(4);
    expect(names.slice(0, 3)).toEqual([books[1]!.file_name, books[2]!.file_name, books[0]!.file_name]);
    expect(new Set(names).size).toBe(4);
  });

  it('recommend is personalised: liked categories, never a book on the shelf', async () => {
    const liked = await seedBooks(t, 6, { category_id: 3 });
    await seedBooks(t, 20, { category_id: 4 });
    await register(t, 'u1');
    await view(t, liked[0]!.file_name, 'u1');
    await get(t, '/book/shelf/save', { shelf: shelfArg('u1', liked[1]!.file_name) });
    await get(t, '/book/shelf/save', { shelf: shelfArg('u1', liked[2]!.file_name) });
    const onShelf = new Set([liked[1]!.file_name, liked[2]!.file_name]);
    const seen = new Set<string>();
    for (let i = 0; i < 15; i++) {
      const { data } = (await get(t, '/book/home/v2', { openId: 'u1' })).body;
      expect(data.recommend).toHaveLength(3);
      for (const b of data.recommend) {
        expect(b.category).toBe(3);
        expect(onShelf.has(b.fileName)).toBe(false);
        seen.add(b.fileName);
      }
    }
    // drawn at random from the liked category, not always the same three
    expect(seen.size).toBeGreaterThan(3);
  });

  it('recommend for a user with no history is well-rated books first', async () => {
    const books = await seedBooks(t, 10);
    await register(t, 'rater');
    await get(t, '/book/rank/save', { fileName: books[7]!.file_name, openId: 'rater', rank: 5 });
    await register(t, 'fresh');
    // the rater's history makes their own recommend personal; "fresh" gets the general pool
    for (let i = 0; i < 5; i++) {
      const { data } = (await get(t, '/book/home/v2', { openId: 'fresh' })).body;
      expect(data.recommend.map((b: { fileName: string }) => b.fileName)).toContain(books[7]!.file_name);
    }
  });
});

describe.each(dialects)('spec §4.2 / decisions.md §3 "another batch" sections on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  it.each([
    ['/book/home/recommend/v2', 3],
    ['/book/home/freeRead/v2', 4],
    ['/book/home/hotBook/v2', 4],
  ])('%s is never short, has no duplicates and varies between calls', async (path, size) => {
    await seedBooks(t, 15);
    const draws = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const res = await get(t, path);
      expect(res.status).toBe(200);
      const names = res.body.data.map((b: { fileName: string }) => b.fileName);
      expect(names).toHaveLength(size);
      expect(new Set(names).size).toBe(size);
      draws.add(names.slice().sort().join(','));
    }
    expect(draws.size).toBeGreaterThan(1);
  });

  it('answers what there is when the catalogue is smaller than a batch', async () => {
    await seedBooks(t, 2);
    expect((await get(t, '/book/home/freeRead/v2')).body.data).toHaveLength(2);
    expect((await get(t, '/book/home/hotBook/v2')).body.data).toHaveLength(2);
  });

  it('recommend/v2 draws from the top-rated pool', async () => {
    const books = await seedBooks(t, 12);
    await register(t, 'r');
    for (const b of books.slice(0, 3))
      await get(t, '/book/rank/save', { fileName: b.file_name, openId: 'r', rank: 5 });
    const top = new Set(books.slice(0, 3).map((b) => b.file_name));
    for (let i = 0; i < 5; i++) {
      const names = (await get(t, '/book/home/recommend/v2')).body.data.map(
        (b: { fileName: string }) => b.fileName,
      );
      expect(names.every((n: string) => top.has(n))).toBe(true);
    }
  });

  it('hotBook/v2 draws from the most viewed of the window; hot-search lists the 10 most viewed', async () => {
    const books = await seedBooks(t, 20);
    await register(t, 'v');
    const now = t.clock.now;
    t.clock.now = now - 45 * DAY;
    await view(t, books[19]!.file_name, 'v');
    t.clock.now = now - DAY;
    for (const b of books.slice(0, 12)) await view(t, b.file_name, 'v');
    await view(t, books[3]!.file_name, 'v');
    t.clock.now = now;
    const hot = (await get(t, '/book/hot-search')).body.data;
    expect(hot).toHaveLength(10);
    expect(hot[0]).toEqual({ title: books[3]!.title, fileName: books[3]!.file_name });
    expect(hot.map((h: { fileName: string }) => h.fileName)).not.toContain(books[19]!.file_name);
    const pool = new Set(books.slice(0, 12).map((b) => b.file_name));
    for (let i = 0; i < 5; i++) {
      const names = (await get(t, '/book/home/hotBook/v2')).body.data.map(
        (b: { fileName: string }) => b.fileName,
      );
      expect(names.every((n: string) => pool.has(n))).toBe(true);
    }
  });
});
