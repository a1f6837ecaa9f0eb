import { ACTIVITY_PERIOD_MS } from '@readlib/catalog';
import { deleteBook, insertBook, updateBook } from '@readlib/data';
import { sampleBook } from '@readlib/data/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  dialects,
  get,
  type Harness,
  harness,
  register,
  seedBooks,
  settledSearchLog,
  view,
} from './helpers.js';

// Issue: performance — catalogue rows and lists are kept per process with honest invalidation:
// a write by any process (here: straight through the data layer, as the admin API, a CLI import or
// another replica would) moves counters.catalog_version, and the next reader request sees it.
describe.each(dialects)('catalogue caches of the reader on $name', (dialect) => {
  let t: Harness;
  afterEach(async () => t.close());

  const hotTitles = async () =>
    ((await get(t, '/book/hot-search')).body.data as Array<{ title: string }>).map((b) => b.title);

  it('a book renamed or deleted outside this process is seen by the next request', async () => {
    t = await harness(dialect);
    const books = await seedBooks(t, 3);
    await register(t, 'u1');
    for (const b of books) await view(t, b.file_name, 'u1');
    expect(await hotTitles()).toContain(books[0]!.title);

    await updateBook(t.h.db, books[0]!.file_name, { title: 'Renamed elsewhere' });
    const after = await hotTitles();
    expect(after).toContain('Renamed elsewhere');
    expect(after).not.toContain(books[0]!.title);

    await deleteBook(t.h.db, books[1]!.file_name);
    expect(await hotTitles()).not.toContain(books[1]!.title);
    const home = (await get(t, '/book/home/v2', { openId: 'u1' })).body.data;
    const shown = [...home.hotBook, ...home.recommend, ...home.freeRead].map(
      (b: { title: string }) => b.title,
    );
    expect(shown).not.toContain(books[1]!.title);
  });

  it('a search is answered from the catalogue cache until the catalogue changes anywhere; every search is logged', async () => {
    t = await harness(dialect);
    const [book] = await seedBooks(t, 1);
    const titles = async () =>
      (
        (await get(t, '/book/search', { keyword: 'Zanzibar' })).body.data.book as Array<{ title: string }>
      ).map((b) => b.title);
    await updateBook(t.h.db, book!.file_name, { title: 'Zanzibar Nights' });
    expect(await titles()).toEqual(['Zanzibar Nights']);
    // behind every cache's back (no catalogue version move): the indexes see it, the cached answer not
    await t.h.db.updateTable('books').set({ title: 'Zanzibar Days' }).where('id', '=', book!.id).execute();
    expect(await titles()).toEqual(['Zanzibar Nights']);
    // a write as any process makes it, moving the catalogue version: the next search is fresh
    await updateBook(t.h.db, book!.file_name, { title: 'Zanzibar Mornings' });
    expect(await titles()).toEqual(['Zanzibar Mornings']);
    await deleteBook(t.h.db, book!.file_name);
    expect(await titles()).toEqual([]);
    const logged = await settledSearchLog(t);
    // logged folded (search ignores case): one keyword however it was typed
    expect(logged.filter((r) => r.keyword === 'zanzibar')).toHaveLength(4);
  });

  it('a search-list page, kept and sent as kept bytes, is fresh once the catalogue changes anywhere', async () => {
    t = await harness(dialect);
    const [book] = await seedBooks(t, 1);
    await updateBook(t.h.db, book!.file_name, { author: 'Zora Quill', title: '第一版' });
    const titles = async () =>
      (
        (await get(t, '/book/search-list', { author: 'Zora Quill' })).body.data as Array<{ title: string }>
      ).map((b) => b.title);
    // asked three times: kept by the memo, then its envelope kept from the second answer on
    for (let i = 0; i < 3; i++) expect(await titles()).toEqual(['第一版']);
    await updateBook(t.h.db, book!.file_name, { title: '第二版' });
    expect(await titles()).toEqual(['第二版']);
    expect(await titles()).toEqual(['第二版']);
  });

  it('a change elsewhere makes the reader forget only the books the change log names', async () => {
    t = await harness(dialect);
    // b last: deleting it moves no other book into its position (a moved book is forgotten as well)
    const [a, c, b] = await seedBooks(t, 3);
    const title = async (fileName: string) =>
      ((await get(t, '/book/detail', { fileName })).body.data as { title: string }).title;
    for (const book of [a!, b!, c!]) await title(book.file_name);
    // a row changed without moving the version: only a reader that kept c's row still shows the old title
    const sneak = (fileName: string, to: string) =>
      t.h.db.updateTable('books').set({ title: to }).where('file_name', '=', fileName).execute();
    await sneak(c!.file_name, 'Changed without a version');
    await updateBook(t.h.db, a!.file_name, { title: 'Renamed elsewhere' });
    expect(await title(a!.file_name)).toBe('Renamed elsewhere');
    expect(await title(c!.file_name)).toBe(c!.title);
    // a deleted book is forgotten too (its name no longer resolves)
    await deleteBook(t.h.db, b!.file_name);
    expect((await get(t, '/book/detail', { fileName: b!.file_name })).body.error_code).not.toBe(0);
    expect(await title(c!.file_name)).toBe(c!.title);
    // when the log no longer covers the versions in between, every kept row is forgotten
    await updateBook(t.h.db, a!.file_name, { title: 'Renamed again' });
    await t.h.db.deleteFrom('catalog_changes').execute();
    expect(await title(c!.file_name)).toBe('Changed without a version');
  });

  it('freeRead/v2 draws from the books and titles committed elsewhere, even as its first request', async () => {
    t = await harness(dialect);
    const books = await seedBooks(t, 4);
    const titles = async () =>
      ((await get(t, '/book/home/freeRead/v2')).body.data as Array<{ title: string }>)
        .map((b) => b.title)
        .sort();
    // the memo holds all four rows and the count 4
    expect(await titles()).toEqual(books.map((b) => b.title).sort());
    await updateBook(t.h.db, books[0]!.file_name, { title: 'Renamed elsewhere' });
    await deleteBook(t.h.db, books[1]!.file_name);
    const added = await insertBook(t.h.db, sampleBook(), []);
    // no other request synced the memo in between: the batch itself must
    expect(await titles()).toEqual(
      ['Renamed elsewhere', books[2]!.title, books[3]!.title, added.title].sort(),
    );
  });

  it('a book added outside this process shows in the category list at once (was up to 60 s)', async () => {
    t = await harness(dialect);
    await seedBooks(t, 2, { category_id: 1 });
    const counts = async () =>
      ((await get(t, '/book/category/list/v2')).body.data as Array<{ category: number; num: number }>).map(
        (c) => `${c.category}:${c.num}`,
      );
    expect(await counts()).toEqual(['1:2']);
    await insertBook(t.h.db, sampleBook({ category_id: 2 }), []);
    expect(await counts()).toEqual(['1:2', '2:1']);
  });

  it('activity rankings are reused within one ACTIVITY_PERIOD_MS of the clock, then recomputed', async () => {
    t = await harness(dialect);
    // the start of a period: rankings depend on the clock's period (the activity version)
    t.clock.now = Math.ceil(t.clock.now / ACTIVITY_PERIOD_MS) * ACTIVITY_PERIOD_MS;
    const [a, b] = await seedBooks(t, 2);
    await register(t, 'u1');
    await register(t, 'u2');
    await view(t, a!.file_name, 'u1');
    expect(await hotTitles()).toEqual([a!.title]);
    await view(t, b!.file_name, 'u1');
    await view(t, b!.file_name, 'u2');
    // within the period the ranking read a moment ago is served again
    t.clock.now += ACTIVITY_PERIOD_MS - 1;
    expect(await hotTitles()).toEqual([a!.title]);
    t.clock.now += 1;
    expect(await hotTitles()).toEqual([b!.title, a!.title]);
  });
});
