import { MaxLength } from '@readlib/contracts';
import { deleteBook, updateBook } from '@readlib/data';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialects, get, type Harness, harness, seedBook, settledSearchLog } from './helpers.js';

const names = (list: Array<{ fileName: string }>) => list.map((b) => b.fileName);

describe.each(dialects)('spec §4.5 / decisions.md §3 search on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  it('matches Latin substrings case-insensitively in title, author and publisher, title matches first', async () => {
    const byAuthor = await seedBook(t, { title: 'Other', author: 'Jane Austen', publisher: 'P1' });
    const byTitle = await seedBook(t, { title: 'Pride of AUSTENITE', author: 'X', publisher: 'P2' });
    const byPublisher = await seedBook(t, { title: 'Third', author: 'Y', publisher: 'Austen House' });
    await seedBook(t, { title: 'Unrelated', author: 'Z', publisher: 'Q' });
    const { data } = (await get(t, '/book/search', { keyword: 'austen' })).body;
    expect(names(data.book)[0]).toBe(byTitle.file_name);
    expect(new Set(names(data.book))).toEqual(
      new Set([byAuthor.file_name, byTitle.file_name, byPublisher.file_name]),
    );
    expect(data.author).toEqual([{ author: 'Jane Austen' }]);
    expect(data.publisher).toEqual([{ publisher: 'Austen House' }]);
  });

  it('matches CJK keywords of one and two characters', async () => {
    const a = await seedBook(t, { title: '红楼梦', author: '曹雪芹', publisher: '人民文学出版社' });
    const b = await seedBook(t, { title: '三国演义', author: '罗贯中', publisher: '中华书局' });
    expect(names((await get(t, '/book/search', { keyword: '梦' })).body.data.book)).toEqual([a.file_name]);
    expect(names((await get(t, '/book/search', { keyword: '雪芹' })).body.data.book)).toEqual([a.file_name]);
    expect((await get(t, '/book/search', { keyword: '雪芹' })).body.data.author).toEqual([
      { author: '曹雪芹' },
    ]);
    expect(names((await get(t, '/book/search', { keyword: '三国演义' })).body.data.book)).toEqual([
      b.file_name,
    ]);
    expect(names((await get(t, '/book/search', { keyword: '中' })).body.data.book)).toEqual([b.file_name]);
  });

  it('finds a title or author stored in full-width letters and digits by the keyword typed plainly', async () => {
    const a = await seedBook(t, {
      title: 'ＳＱＬ必知必会 第４版',
      author: 'Ｂｅｎ Ｆｏｒｔａ',
      publisher: 'P',
    });
    for (const keyword of ['sql必知', '第4版', 'SQL', 'ＳＱＬ'])
      expect(names((await get(t, '/book/search', { keyword })).body.data.book), keyword).toEqual([
        a.file_name,
      ]);
    expect((await get(t, '/book/search', { keyword: 'forta' })).body.data.author).toEqual([
      { author: 'Ｂｅｎ Ｆｏｒｔａ' },
    ]);
    expect(names((await get(t, '/book/search-list', { author: 'ben forta' })).body.data)).toEqual([
      a.file_name,
    ]);
  });

  it('groups hold distinct values, most books first, at most 10', async () => {
    for (let i = 0; i < 12; i++)
      await seedBook(t, { title: `T${i}`, author: `Smith ${String.fromCharCode(65 + i)}` });
    await seedBook(t, { title: 'extra', author: 'Smith C' });
    const { data } = (await get(t, '/book/search', { keyword: 'smith' })).body;
    expect(data.author).toHaveLength(10);
    expect(data.author[0]).toEqual({ author: 'Smith C' });
    expect(new Set(data.author.map((a: { author: string }) => a.author)).size).toBe(10);
  });

  it('matches category names and lists the matching non-empty categories', async () => {
    const lit = await seedBook(t, { title: 'Plain', author: 'A', publisher: 'B', category_id: 11 });
    const { data } = (await get(t, '/book/search', { keyword: 'literat' })).body;
    expect(data.category).toEqual([{ category: 11, categoryText: 'Literature' }]);
    expect(names(data.book)).toEqual([lit.file_name]);
  });

  it('pages the books with page/pageSize (defaults 1/20)', async () => {
    for (let i = 0; i < 25; i++) await seedBook(t, { title: `Page book ${i}` });
    const first = (await get(t, '/book/search', { keyword: 'page book' })).body.data.book;
    expect(first).toHaveLength(20);
    const second = (await get(t, '/book/search', { keyword: 'page book', page: 2, pageSize: 20 })).body.data
      .book;
    expect(second).toHaveLength(5);
    expect(new Set([...names(first), ...names(second)]).size).toBe(25);
    expect(
      (await get(t, '/book/search', { keyword: 'page book', page: 3, pageSize: 10 })).body.data.book,
    ).toHaveLength(5);
  });

  it('serves a pageSize over 100 as 100 (decisions.md §3: capped), on search and search-list', async () => {
    for (let i = 0; i < 105; i++) await seedBook(t, { title: `Capped book ${i}`, publisher: 'Capped' });
    const search = async (q: Record<string, number>) =>
      (await get(t, '/book/search', { keyword: 'capped book', ...q })).body.data.book;
    const list = async (q: Record<string, number>) =>
      (await get(t, '/book/search-list', { publisher: 'Capped', ...q })).body.data;
    for (const read of [search, list]) {
      const first = await read({ pageSize: 1000 });
      expect(first).toHaveLength(100);
      // page 2 of the capped size follows page 1: the offset is the served size's, not the asked one's
      const second = await read({ page: 2, pageSize: 5000 });
      expect(second).toHaveLength(5);
      expect(new Set([...names(first), ...names(second)]).size).toBe(105);
    }
  });

  it('logs every search with the openId when sent', async () => {
    await get(t, '/book/search', { keyword: 'alpha', openId: 'u9' });
    await get(t, '/book/search', { keyword: 'beta' });
    // an empty openId, as a client sends before its login, counts as not sent
    expect((await get(t, '/book/search', { keyword: 'gamma', openId: '' })).status).toBe(200);
    // HEAD answers like GET but searches nothing for a reader: not logged
    const head = await t.app.inject({ method: 'HEAD', url: '/book/search?keyword=delta&openId=u9' });
    expect([head.statusCode, head.body]).toEqual([200, '']);
    const rows = await settledSearchLog(t);
    expect(rows.map((r) => [r.keyword, r.open_id, Number(r.created_at)])).toEqual([
      ['alpha', 'u9', t.clock.now],
      ['beta', null, t.clock.now],
      ['gamma', null, t.clock.now],
    ]);
  });

  it('refuses a missing or blank keyword, a page or pageSize below 1 (400, error_code 2)', async () => {
    for (const q of [
      {},
      { keyword: '' },
      { keyword: '   ' },
      { keyword: 'a', pageSize: 0 },
      { keyword: 'a', page: 0 },
    ]) {
      const res = await get(t, '/book/search', q);
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(res.body.error_code).toBe(2);
    }
  });
});

describe.each(dialects)('spec §4.6 / decisions.md §3 search-list on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  it('combines the filters sent with AND', async () => {
    const both = await seedBook(t, { author: 'Ann Lee', publisher: 'North Books', category_id: 11 });
    const authorOnly = await seedBook(t, { author: 'Ann Lee', publisher: 'South', category_id: 11 });
    await seedBook(t, { author: 'Bob', publisher: 'North Books', category_id: 2 });
    expect(names((await get(t, '/book/search-list', { author: 'ann' })).body.data)).toEqual([
      both.file_name,
      authorOnly.file_name,
    ]);
    expect(
      names((await get(t, '/book/search-list', { author: 'lee', publisher: 'north' })).body.data),
    ).toEqual([both.file_name]);
    expect(
      names((await get(t, '/book/search-list', { category: 'Literature', publisher: 'South' })).body.data),
    ).toEqual([authorOnly.file_name]);
    expect(
      names((await get(t, '/book/search-list', { categoryId: '11', author: 'Ann' })).body.data),
    ).toHaveLength(2);
    // a blank filter counts as not sent, categoryId included: forms send every key
    expect(
      names(
        (await get(t, '/book/search-list', { categoryId: '', category: ' ', publisher: '', author: 'Ann' }))
          .body.data,
      ).sort(),
    ).toEqual(names((await get(t, '/book/search-list', { author: 'Ann' })).body.data).sort());
    expect(
      names((await get(t, '/book/search-list', { categoryId: ' 11 ', author: 'Ann' })).body.data),
    ).toHaveLength(2);
    // category is the exact name, not a substring
    expect((await get(t, '/book/search-list', { category: 'Literat' })).body.data).toEqual([]);
  });

  it('an author or publisher as long as a book stores one lists its books, as a detail page links them', async () => {
    const author = `Collective ${'of many hands, '.repeat(20)}`.slice(0, MaxLength.text);
    const publisher = `Press ${'and partners, '.repeat(20)}`.slice(0, MaxLength.text);
    const book = await seedBook(t, { title: 'Long credits', author, publisher });
    await seedBook(t, { title: 'Other', author: 'Someone', publisher: 'Elsewhere' });
    for (const query of [{ author }, { publisher }, { author, publisher }]) {
      const res = await get(t, '/book/search-list', query);
      expect(res.status).toBe(200);
      expect(names(res.body.data)).toEqual([book.file_name]);
    }
    const tooLong = await get(t, '/book/search-list', { author: `${author}x` });
    expect([tooLong.status, tooLong.body.error_code]).toEqual([400, 2]);
  });

  // Issue: performance — pages are kept per catalogue version, which every book write moves in its
  // transaction: a change made elsewhere (here straight through the data layer) is in the next page
  it('keeps a page until the catalogue changes, in whichever process', async () => {
    const list = async () =>
      ((await get(t, '/book/search-list', { publisher: 'Kept' })).body.data as Array<{ title: string }>)
        .map((b) => b.title)
        .sort();
    const first = await seedBook(t, { publisher: 'Kept', title: 'One' });
    expect(await list()).toEqual(['One']);
    // behind every cache's back (no catalogue version): the kept page still answers
    await t.h.db.updateTable('books').set({ title: 'Sneaky' }).where('id', '=', first.id).execute();
    expect(await list()).toEqual(['One']);
    await updateBook(t.h.db, first.file_name, { title: 'Renamed' });
    expect(await list()).toEqual(['Renamed']);
    await seedBook(t, { publisher: 'Kept', title: 'Two' });
    expect(await list()).toEqual(['Renamed', 'Two']);
    await deleteBook(t.h.db, first.file_name);
    expect(await list()).toEqual(['Two']);
  });

  it('pages with page/pageSize', async () => {
    for (let i = 0; i < 7; i++) await seedBook(t, { publisher: 'Paged' });
    expect((await get(t, '/book/search-list', { publisher: 'Paged', pageSize: 5 })).body.data).toHaveLength(
      5,
    );
    expect(
      (await get(t, '/book/search-list', { publisher: 'Paged', pageSize: 5, page: 2 })).body.data,
    ).toHaveLength(2);
  });

  it('no filter, only blank filters or a non-digit categoryId is 400 error_code 2 (spec §7.2)', async () => {
    for (const q of [{}, { author: '  ' }, { page: 1 }, { categoryId: 'abc' }, { categoryId: ' ' }]) {
      const res = await get(t, '/book/search-list', q);
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(res.body.error_code).toBe(2);
    }
  });
});
