import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CATALOG_CHANGES_KEPT,
  catalogChangesSince,
  catalogState,
  catalogVersion,
  categoryCounts,
  categoryCovers,
  countBooks,
  type DbHandle,
  deleteBook,
  findBookByFileName,
  findToc,
  insertBook,
  randomBookIds,
  rebuildCategoryCounts,
  updateBook,
} from '../src/index.js';
import { sampleBook, sampleUser, testDialects } from '../src/testing/index.js';

const dialects = await testDialects();

describe.each(dialects)('books repository on $name', (dialect) => {
  let h: DbHandle;
  beforeEach(async () => {
    h = await dialect.create();
  });
  afterEach(async () => h.destroy());

  it('inserts a book with its table of contents and reads it back with the category name', async () => {
    const toc = [
      {
        ord: 1,
        entry_id: 'n1',
        nav_id: 'n1',
        pid: '',
        href: 'a.xhtml',
        label: 'One',
        level: 0,
        text: 'a.xhtml',
      },
      {
        ord: 2,
        entry_id: 'n2',
        nav_id: 'n2',
        pid: 'n1',
        href: 'b.xhtml',
        label: 'Two',
        level: 1,
        text: 'b.xhtml',
      },
    ];
    const book = await insertBook(h.db, sampleBook({ category_id: 11 }), toc);
    expect(book.category_name).toBe('Literature');
    expect(book.pos).toBe(1);
    expect(await findBookByFileName(h.db, book.file_name)).toMatchObject({ id: book.id, title: book.title });
    expect((await findToc(h.db, book.id)).map((e) => e.label)).toEqual(['One', 'Two']);
  });

  it('refuses a second book with the same fileName (unique constraint) and leaves the counter intact', async () => {
    const b = sampleBook();
    await insertBook(h.db, b, []);
    await expect(insertBook(h.db, { ...b }, [])).rejects.toThrow();
    expect(await countBooks(h.db)).toBe(1);
  });

  it('updates only the given fields', async () => {
    const b = await insertBook(h.db, sampleBook({ author: 'Old' }), []);
    const u = await updateBook(h.db, b.file_name, { author: 'New' });
    expect(u).toMatchObject({ author: 'New', title: b.title, publisher: b.publisher });
    expect(await updateBook(h.db, 'missing', { author: 'x' })).toBeUndefined();
  });

  it('keeps positions dense 1..N across deletes, so random draws stay uniform and never short', async () => {
    const books = [];
    for (let i = 0; i < 12; i++) books.push(await insertBook(h.db, sampleBook(), []));
    await deleteBook(h.db, books[3]!.file_name);
    await deleteBook(h.db, books[0]!.file_name);
    await deleteBook(h.db, books[11]!.file_name);
    expect(await deleteBook(h.db, 'missing')).toBeUndefined();
    expect(await countBooks(h.db)).toBe(9);
    const positions = (await h.db.selectFrom('books').select('pos').orderBy('pos').execute()).map(
      (r) => r.pos,
    );
    expect(positions).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (let i = 0; i < 20; i++) {
      const draw = await randomBookIds(h.db, 4);
      expect(draw).toHaveLength(4);
      expect(new Set(draw).size).toBe(4);
    }
    expect(await randomBookIds(h.db, 50)).toHaveLength(9);
    const excluded = new Set(books.slice(4, 8).map((b) => b.id));
    const rest = await randomBookIds(h.db, 9, excluded);
    expect(rest).toHaveLength(5);
    expect(rest.some((id) => excluded.has(id))).toBe(false);
  });

  it('draws each book with equal frequency (chi-square against uniform)', async () => {
    for (let i = 0; i < 10; i++) await insertBook(h.db, sampleBook(), []);
    await deleteBook(
      h.db,
      (await h.db.selectFrom('books').select('file_name').where('pos', '=', 1).executeTakeFirstOrThrow())
        .file_name,
    );
    const counts = new Map<number, number>();
    const rounds = 900;
    for (let i = 0; i < rounds; i++)
      for (const id of await randomBookIds(h.db, 3)) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect(counts.size).toBe(9);
    const expected = (rounds * 3) / 9;
    const chi = [...counts.values()].reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    // 8 degrees of freedom: p = 0.001 at 26.1
    expect(chi).toBeLessThan(26.1);
  });

  it('deleting a book removes its contents, shelf entries, ratings and views', async () => {
    const b = await insertBook(h.db, sampleBook(), [
      { ord: 1, entry_id: 'a', nav_id: 'a', pid: '', href: 'a', label: 'a', level: 0, text: 'a' },
    ]);
    const { id: userId } = await h.db
      .insertInto('users')
      .values(sampleUser('u1'))
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('shelf_entries')
      .values({ user_id: userId, book_id: b.id, created_at: 1 })
      .execute();
    await h.db
      .insertInto('ratings')
      .values({ user_id: userId, book_id: b.id, rank: 4, created_at: 1, updated_at: 1 })
      .execute();
    await h.db.insertInto('views').values({ user_id: userId, book_id: b.id, created_at: 1 }).execute();
    await h.db
      .insertInto('book_readers')
      .values({ user_id: userId, book_id: b.id, last_viewed_at: 1 })
      .execute();
    await deleteBook(h.db, b.file_name);
    for (const t of ['toc_entries', 'shelf_entries', 'ratings', 'views', 'book_readers', 'books'] as const) {
      const { n } = await h.db
        .selectFrom(t)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n), t).toBe(0);
    }
  });

  it('counts books per category and picks two covers of each', async () => {
    await insertBook(h.db, sampleBook({ category_id: 2, cover_path: 'img/a.png' }), []);
    await insertBook(h.db, sampleBook({ category_id: 2, cover_path: 'img/b.png' }), []);
    await insertBook(h.db, sampleBook({ category_id: 2, cover_path: 'img/c.png' }), []);
    await insertBook(h.db, sampleBook({ category_id: 5, cover_path: '' }), []);
    const counts = await categoryCounts(h.db);
    expect(counts.find((c) => c.id === 2)?.num).toBe(3);
    expect(counts.find((c) => c.id === 5)?.num).toBe(1);
    expect(counts.find((c) => c.id === 1)?.num).toBe(0);
    const covers = await categoryCovers(h.db);
    expect(covers.get(2)).toEqual(['img/c.png', 'img/b.png']);
    expect(covers.get(5)).toBeUndefined();
  });

  it('keeps the book count of each category in step with inserts, category moves and deletes', async () => {
    // the recount the maintained column replaced (decisions.md §3: home `category` = every non-empty one with `num`)
    const recount = async () => {
      const rows = await h.db
        .selectFrom('categories')
        .leftJoin('books', 'books.category_id', 'categories.id')
        .select(['categories.id as id', (eb) => eb.fn.count<number>('books.id').as('n')])
        .groupBy('categories.id')
        .execute();
      return new Map(rows.map((r) => [r.id, Number(r.n)]));
    };
    const counted = async () => new Map((await categoryCounts(h.db)).map((c) => [c.id, c.num]));
    const a = await insertBook(h.db, sampleBook({ category_id: 2 }), []);
    const b = await insertBook(h.db, sampleBook({ category_id: 2 }), []);
    await insertBook(h.db, sampleBook({ category_id: 3 }), []);
    expect((await counted()).get(2)).toBe(2);
    await updateBook(h.db, a.file_name, { category_id: 3 });
    await updateBook(h.db, b.file_name, { title: 'Same category', category_id: undefined });
    await updateBook(h.db, b.file_name, { category_id: 2 });
    expect((await counted()).get(2)).toBe(1);
    expect((await counted()).get(3)).toBe(2);
    await deleteBook(h.db, a.file_name);
    expect((await counted()).get(3)).toBe(1);
    expect(await counted()).toEqual(await recount());
    // a bulk load that bypasses insertBook is recounted in one statement
    await h.db.updateTable('categories').set({ book_count: 99 }).execute();
    await rebuildCategoryCounts(h.db);
    expect(await counted()).toEqual(await recount());
  });

  // decisions.md §3 and §4: category num, author/publisher facets counted by book, whatever runs at once
  it('keeps category and facet counts exact under concurrent updates and deletes of the same books', async () => {
    const categories = async () =>
      new Map((await categoryCounts(h.db)).filter((c) => c.num !== 0).map((c) => [c.id, c.num]));
    const facets = async () =>
      (
        await h.db
          .selectFrom('book_values')
          .select(['field', 'value', 'books'])
          .orderBy(['field', 'value'])
          .execute()
      ).map((r) => `${r.field}:${r.value}=${Number(r.books)}`);
    const recounted = async () => {
      const books = await h.db.selectFrom('books').select(['category_id', 'author', 'publisher']).execute();
      const cats = new Map<number, number>();
      const values = new Map<string, number>();
      for (const b of books) {
        cats.set(b.category_id, (cats.get(b.category_id) ?? 0) + 1);
        for (const f of ['author', 'publisher'] as const)
          if (b[f] !== '') values.set(`${f}:${b[f]}`, (values.get(`${f}:${b[f]}`) ?? 0) + 1);
      }
      const sorted = [...values].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${k}=${n}`);
      return { cats, sorted };
    };
    const one = await insertBook(h.db, sampleBook({ category_id: 2, author: 'A' }), []);
    const two = await insertBook(h.db, sampleBook({ category_id: 3, author: 'B' }), []);
    const doomed = await insertBook(h.db, sampleBook({ category_id: 2, author: 'A' }), []);
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) =>
        updateBook(h.db, one.file_name, { author: i % 2 ? 'A' : 'B', category_id: i % 2 ? 3 : 4 }),
      ),
      // two books trading places between the same categories and authors in opposite directions
      ...Array.from({ length: 10 }, (_, i) =>
        updateBook(h.db, i % 2 ? one.file_name : two.file_name, {
          author: i % 2 ? 'B' : 'A',
          category_id: i % 2 ? 2 : 3,
        }),
      ),
      ...Array.from({ length: 6 }, (_, i) =>
        i % 3
          ? updateBook(h.db, doomed.file_name, { category_id: 5, author: 'C' })
          : deleteBook(h.db, doomed.file_name),
      ),
    ]);
    const truth = await recounted();
    expect(await categories()).toEqual(truth.cats);
    expect(await facets()).toEqual(truth.sorted);
  });

  it('moves the catalogue version with every insert, update and delete, and only then', async () => {
    const v0 = await catalogVersion(h.db);
    const b = await insertBook(h.db, sampleBook(), []);
    expect(await catalogVersion(h.db)).toBe(v0 + 1);
    await updateBook(h.db, b.file_name, { title: 'New title' });
    expect(await catalogVersion(h.db)).toBe(v0 + 2);
    expect(await updateBook(h.db, 'no-such-book', { title: 'x' })).toBeUndefined();
    expect(await deleteBook(h.db, 'no-such-book')).toBeUndefined();
    expect(await catalogVersion(h.db)).toBe(v0 + 2);
    await deleteBook(h.db, b.file_name);
    expect(await catalogVersion(h.db)).toBe(v0 + 3);
  });

  it('logs the books each catalogue version changed, the book moved into a freed position included', async () => {
    const [a, b, c] = [
      await insertBook(h.db, sampleBook(), []),
      await insertBook(h.db, sampleBook(), []),
      await insertBook(h.db, sampleBook(), []),
    ];
    const v0 = await catalogVersion(h.db);
    await updateBook(h.db, b.file_name, { title: 'Renamed' });
    const v1 = await catalogVersion(h.db);
    expect(await catalogChangesSince(h.db, v0, v1)).toEqual([b.id]);
    // deleting the first book moves the last one (c) into position 1: both changed
    await deleteBook(h.db, a.file_name);
    const v2 = await catalogVersion(h.db);
    expect((await catalogChangesSince(h.db, v1, v2))?.sort()).toEqual([a.id, c.id].sort());
    expect((await catalogChangesSince(h.db, v0, v2))?.sort()).toEqual([a.id, b.id, c.id].sort());
    expect(await catalogChangesSince(h.db, v2, v2)).toEqual([]);
    // a version missing from the log (pruned, or from before the log): the caller must forget everything
    await h.db.deleteFrom('catalog_changes').where('version', '=', v1).execute();
    expect(await catalogChangesSince(h.db, v0, v2)).toBeUndefined();
    expect(await catalogChangesSince(h.db, v1, v2)).toEqual(expect.arrayContaining([a.id, c.id]));
  });

  it('keeps only the newest CATALOG_CHANGES_KEPT versions of the log', async () => {
    const book = await insertBook(h.db, sampleBook(), []);
    const next = 2 * CATALOG_CHANGES_KEPT;
    await h.db
      .updateTable('counters')
      .set({ value: next - 1 })
      .where('name', '=', 'catalog_version')
      .execute();
    await h.db
      .insertInto('catalog_changes')
      .values([
        { version: CATALOG_CHANGES_KEPT - 1, book_id: book.id },
        { version: CATALOG_CHANGES_KEPT + 1, book_id: book.id },
      ])
      .execute();
    await updateBook(h.db, book.file_name, { title: 'Pruning edit' });
    const versions = await h.db.selectFrom('catalog_changes').select('version').orderBy('version').execute();
    expect(versions.map((r) => Number(r.version))).toEqual([CATALOG_CHANGES_KEPT + 1, next]);
  });

  it('moves the facet version only with writes that change the author and publisher counts', async () => {
    const facets = async () => (await catalogState(h.db)).facetVersion;
    const f0 = await facets();
    const b = await insertBook(h.db, sampleBook({ author: 'Ada Lovelace' }), []);
    expect(await facets()).toBe(f0 + 1);
    await updateBook(h.db, b.file_name, { title: 'Sketch of the Analytical Engine', category_id: 3 });
    expect(await facets()).toBe(f0 + 1);
    await updateBook(h.db, b.file_name, { publisher: 'Taylor' });
    expect(await facets()).toBe(f0 + 2);
    await deleteBook(h.db, b.file_name);
    expect(await facets()).toBe(f0 + 3);
  });
});
