import { insertBook } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FREE_READ_ROUND_MS, homeRows } from '../src/reader/home.service.js';
import { type ReaderContext, syncCatalog } from '../src/reader/reader-context.js';
import { ReaderKeeps } from '../src/reader/reader-keeps.js';
import { warmReader } from '../src/reader/warm-up.js';
import { readerContext, statementsOf } from './context.js';

const dialects = await testDialects();
const banner = { img: 'b.png', title: 'Banner', subTitle: '', url: '' };

// A reader builds before it listens what it would otherwise build on its first requests.
describe.each(dialects)('warmReader on $name', (dialect) => {
  let h: Awaited<ReturnType<typeof dialect.create>>;
  let ctx: ReaderContext;
  beforeEach(async () => {
    h = await dialect.create();
    ctx = readerContext(h.db);
    for (let i = 0; i < 6; i++)
      await insertBook(
        h.db,
        sampleBook({ category_id: 1 + (i % 2), author: `Author ${i % 3}`, publisher: `House ${i % 2}` }),
        [],
      );
  });
  afterEach(async () => h.destroy());

  /** 40 more books, two categories: more than a home page draws while warming up */
  const moreBooks = async () => {
    for (let i = 0; i < 40; i++) await insertBook(h.db, sampleBook({ category_id: 1 + (i % 2) }), []);
  };

  it('reports what it built: the book count, every book category, the authors and publishers', async () => {
    const report = await warmReader(ctx, banner);
    expect(report).toMatchObject({ books: 6, categoriesIndexed: true, authors: 3, publishers: 2 });
    expect(report.ms).toBeGreaterThanOrEqual(0);
    // built, not started: without the warm-up the first call starts a load and answers false / nothing
    const view = await ctx.keeps.sync(h.db, Date.now());
    expect(view.bookCategories.ready(h.db)).toBe(true);
    expect(view.popular.get(h.db, 'author')?.values.map((v) => v.value)).toEqual([
      'Author 0',
      'Author 1',
      'Author 2',
    ]);
  });

  it('builds the home page parts every reader shares: the first page is answered from them', async () => {
    await warmReader(ctx, banner);
    // changed behind every keep's back (no catalogue version moves): only a part built before shows
    // the old name, as the first page of a process that did not warm up would not
    await h.db.updateTable('categories').set({ name: 'Renamed' }).where('id', '=', 1).execute();
    const home = await homeRows(ctx, undefined, banner);
    const names = home.category.map((c) => c.categoryText);
    expect(names).toHaveLength(2);
    expect(names).not.toContain('Renamed');

    const cold: ReaderContext = { ...ctx, keeps: new ReaderKeeps() };
    expect((await homeRows(cold, undefined, banner)).category.map((c) => c.categoryText)).toContain(
      'Renamed',
    );
  });

  it("keeps the rows of the books recommendations draw from: pages read no book's row", async () => {
    await moreBooks();
    await warmReader(ctx, banner);
    const view = await syncCatalog(ctx);
    const lists = await view.newestListsOf([1, 2], 200);
    expect(lists.flat()).toHaveLength(46);
    expect(await statementsOf(h.db, () => view.booksByIds(lists.flat()))).toEqual([]);
    const pages = await statementsOf(h.db, async () => {
      for (let i = 0; i < 5; i++) await homeRows(ctx, undefined, banner);
    });
    // the draws themselves (ids of random positions, for the anonymous recommendation's top-up) are
    // made per page; the rows of what they draw are kept
    expect(pages.filter((sql) => /"books"\."id" in/.test(sql))).toEqual([]);
  });

  it('reads the rows of the freeRead pool with the pool, once a round', async () => {
    await moreBooks();
    const at = 3_600_000;
    const cold = readerContext(h.db, { now: () => at });
    await homeRows(cold, undefined, banner);
    const view = await syncCatalog(cold);
    const pool = await view.answer<number[]>(`home:freeRead:${Math.floor(at / FREE_READ_ROUND_MS)}`, () =>
      Promise.reject(new Error('the pool was not kept')),
    );
    // the pool is larger than this catalogue: every book
    expect(pool).toHaveLength(46);
    expect(await statementsOf(h.db, () => view.booksByIds(pool))).toEqual([]);
  });

  it('fails as its reads fail, so the caller can start without it', async () => {
    await h.destroy();
    await expect(warmReader(ctx, banner)).rejects.toThrow();
    h = await dialect.create();
  });
});
