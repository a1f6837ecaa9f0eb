import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AdminListFilter,
  BOOK_SUMMARY_COLUMNS,
  type DbHandle,
  DEFAULT_CATEGORIES,
  deleteBook,
  ensureCategory,
  insertBook,
  listBooksAdmin,
  updateBook,
} from '../src/index.js';
import { sampleBook, statementsOf, testDialects } from '../src/testing/index.js';

const dialects = await testDialects();

// 12 "Dune" books by Frank and 11 "Emma" books by Jane, alternating between two categories
const DUNES = 12;
const EMMAS = 11;
const [FIRST, SECOND] = [DEFAULT_CATEGORIES[0]!, DEFAULT_CATEGORIES[1]!];

/** Every filter the console sends, with how many books meet it. */
const FILTERS: Array<[AdminListFilter, number]> = [
  [{}, DUNES + EMMAS],
  [{ title: 'dune' }, DUNES],
  [{ author: 'jane' }, EMMAS],
  [{ category: SECOND }, Math.floor((DUNES + EMMAS) / 2)],
  [{ title: 'emma', category: FIRST }, Math.ceil(EMMAS / 2)],
  [{ title: 'dune', author: 'frank' }, DUNES],
];

describe.each(dialects)('the admin book list on $name', (dialect) => {
  let h: DbHandle;
  beforeEach(async () => {
    h = await dialect.create();
    for (let i = 0; i < DUNES + EMMAS; i++) {
      const dune = i < DUNES;
      await insertBook(
        h.db,
        sampleBook({
          title: dune ? `Dune ${i}` : `Emma ${i}`,
          author: dune ? 'Frank' : 'Jane',
          category_id: i % 2 === 0 ? 1 : 2,
        }),
        [],
      );
    }
  });
  afterEach(async () => h.destroy());

  const byId = { field: 'id', dir: 'asc' } as const;

  it('reads a page and its total, on PostgreSQL in one statement (one round trip), whatever the filter', async () => {
    for (const [filter, total] of FILTERS) {
      let page = { rows: [] as unknown[], total: -1 };
      const sent = await statementsOf(h.db, async () => {
        page = await listBooksAdmin(h.db, filter, byId, { offset: 0, limit: 5 });
      });
      expect([filter, page.total, page.rows.length]).toEqual([filter, total, 5]);
      // SQLite's statements are calls within the process, and it counts its FTS match sets apart
      if (dialect.name === 'postgres') expect([filter, sent.length]).toEqual([filter, 1]);
    }
  });

  it('a page past the last still has the total, and a filter meeting no book has none', async () => {
    for (const [filter, total] of FILTERS) {
      const past = await listBooksAdmin(h.db, filter, byId, { offset: total, limit: 5 });
      expect([filter, past]).toEqual([filter, { rows: [], total }]);
      const far = await listBooksAdmin(h.db, filter, byId, { offset: 1000, limit: 5 });
      expect([filter, far]).toEqual([filter, { rows: [], total }]);
    }
    for (const filter of [
      { title: 'persuasion' },
      { author: 'austen' },
      { category: DEFAULT_CATEGORIES[5]! },
    ]) {
      for (const offset of [0, 20])
        expect(await listBooksAdmin(h.db, filter, byId, { offset, limit: 5 })).toEqual({
          rows: [],
          total: 0,
        });
    }
  });

  it('a filter finds a book by its title and author as they are now, and a deleted book not at all', async () => {
    const titles = async (filter: AdminListFilter, sort: Parameters<typeof listBooksAdmin>[2] = byId) =>
      (await listBooksAdmin(h.db, filter, sort, { offset: 0, limit: 50 })).rows.map((r) => r.title);
    const { rows } = await listBooksAdmin(h.db, { title: 'dune 3' }, byId, { offset: 0, limit: 5 });
    const dune3 = rows[0]!;
    await updateBook(h.db, dune3.file_name, { title: 'Children of Dune', author: 'Brian' });
    // in id order (on PostgreSQL, through book_keys) and in another (through books)
    for (const sort of [byId, { field: 'title', dir: 'asc' } as const]) {
      expect(await titles({ title: 'dune 3' }, sort)).toEqual([]);
      expect(await titles({ title: 'children' }, sort)).toEqual(['Children of Dune']);
      expect(await titles({ author: 'brian' }, sort)).toEqual(['Children of Dune']);
      expect(await titles({ author: 'frank' }, sort)).toHaveLength(DUNES - 1);
    }
    await deleteBook(h.db, dune3.file_name);
    expect(await titles({ title: 'children' })).toEqual([]);
    expect(await titles({ author: 'brian' })).toEqual([]);
  });

  it('builds a page of the whole list, and on PostgreSQL of a filter on keys, once per shape: later calls bind their values', async () => {
    let built = 0;
    // a plugin sees every query (and sub-query) the builder compiles; a statement built once is sent
    // compiled, unseen
    const counting = h.db.withPlugin({
      transformQuery: ({ node }) => {
        built += 1;
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    const ids = (await listBooksAdmin(h.db, {}, byId, { offset: 0, limit: 50 })).rows.map((r) => r.id);
    const pageIds = async (dir: 'asc' | 'desc', offset: number) =>
      (await listBooksAdmin(counting, {}, { field: 'id', dir }, { offset, limit: 5 })).rows.map((r) => r.id);
    // the first calls of each shape may build it; the later ones of the same shapes build nothing
    expect([await pageIds('asc', 0), await pageIds('desc', 0)]).toEqual([
      ids.slice(0, 5),
      ids.toReversed().slice(0, 5),
    ]);
    const afterFirst = built;
    for (const offset of [5, 10, 20]) {
      expect(await pageIds('asc', offset)).toEqual(ids.slice(offset, offset + 5));
      expect(await pageIds('desc', offset)).toEqual(ids.toReversed().slice(offset, offset + 5));
    }
    expect(built).toBe(afterFirst);
    if (dialect.name !== 'postgres') return;
    const total = async (title: string) =>
      (await listBooksAdmin(counting, { title }, byId, { offset: 0, limit: 5 })).total;
    expect(await total('dune')).toBe(DUNES);
    const afterTitle = built;
    expect([await total('emma'), await total('dune 1'), await total('persuasion')]).toEqual([EMMAS, 3, 0]);
    expect(built).toBe(afterTitle);
  });

  it("a page's rows hold what the list shows (a book's summary), without the total they were read with", async () => {
    const shown = [...BOOK_SUMMARY_COLUMNS.map((c) => c.slice('books.'.length)), 'category_name'].sort();
    for (const [filter] of FILTERS) {
      const { rows } = await listBooksAdmin(h.db, filter, byId, { offset: 0, limit: 5 });
      for (const row of rows) expect([filter, Object.keys(row).sort()]).toEqual([filter, shown]);
    }
  });

  it('in category order, books follow their categories by name, not by id (a category added later among them)', async () => {
    // added after the defaults: the highest id, the first name
    const added = await ensureCategory(h.db, 'Aardvark studies');
    const all = await listBooksAdmin(h.db, {}, byId, { offset: 0, limit: 100 });
    for (const row of all.rows.filter((_, i) => i % 3 === 0))
      await updateBook(h.db, row.file_name, { category_id: added.id });
    for (const [filter] of FILTERS.filter(([f]) => !f.category))
      for (const dir of ['asc', 'desc'] as const) {
        const listed = async (offset: number, limit: number) =>
          (await listBooksAdmin(h.db, filter, { field: 'category', dir }, { offset, limit })).rows;
        const rows = await listed(0, 100);
        const sign = dir === 'asc' ? 1 : -1;
        const expected = [...rows].sort(
          (a, b) =>
            sign * (a.category_name < b.category_name ? -1 : a.category_name > b.category_name ? 1 : 0) ||
            sign * (a.id - b.id),
        );
        expect([filter, dir, rows.map((r) => r.id)]).toEqual([filter, dir, expected.map((r) => r.id)]);
        const names = rows.map((r) => r.category_name);
        expect([filter, dir, names.at(dir === 'asc' ? 0 : -1)]).toEqual([filter, dir, 'Aardvark studies']);
        // a page further on continues the same order
        expect((await listed(5, 5)).map((r) => r.id)).toEqual(rows.slice(5, 10).map((r) => r.id));
      }
  });
});
