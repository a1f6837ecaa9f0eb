import {
  type BookRow,
  categoriesOfBooks,
  type Database,
  deleteBook,
  engagedBookIds,
  insertBook,
  recordView,
  saveRating,
  saveShelf,
  updateBook,
  upsertUser,
} from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BookCategories } from '../src/reader/book-categories.js';
import { topCategories } from '../src/reader/liked-categories.js';
import { ReaderKeeps } from '../src/reader/reader-keeps.js';

const dialects = await testDialects();

/** Asks until the index has loaded (it loads in the background on first use), for up to 10 s on a loaded machine. */
async function loaded(index: BookCategories, db: Kysely<Database>): Promise<void> {
  for (let i = 0; i < 2_000 && !index.ready(db); i++) await new Promise((r) => setTimeout(r, 5));
  expect(index.ready(db)).toBe(true);
}

// decisions.md §3 Home: `recommend` favours the categories a reader likes (ratings, shelf, views). The
// reader counts them from an in-memory category of every book once loaded, from the database before;
// both must give the same liked categories, through category moves, deletes and new books made anywhere.
describe.each(dialects)('every book category in memory, for liked categories, on $name', (dialect) => {
  let h: Awaited<ReturnType<typeof dialect.create>>;
  let books: BookRow[];
  let users: number[];
  beforeEach(async () => {
    h = await dialect.create();
    books = [];
    for (let i = 0; i < 24; i++)
      books.push(await insertBook(h.db, sampleBook({ category_id: 1 + (i % 5) }), []));
    users = [];
    for (let u = 0; u < 6; u++) {
      const user = await upsertUser(h.db, { openId: `reader-${u}`, platform: 'wx' });
      users.push(user.id);
      for (let j = 0; j < 5 + u; j++) {
        const b = books[(u * 7 + j * 3) % books.length]!;
        if (j % 3 === 0) await recordView(h.db, user.id, b.id, 1000 + j);
        if (j % 3 === 1) await saveRating(h.db, user.id, b.id, 1 + ((u + j) % 5), 1000 + j);
        if (j % 3 === 2) await saveShelf(h.db, user.id, b.id, 1000 + j);
      }
    }
  });
  afterEach(async () => h.destroy());

  const agrees = async (index: BookCategories, step: string) => {
    let ranked = 0;
    for (const u of users) {
      const engaged = await engagedBookIds(h.db, u);
      const stored = await categoriesOfBooks(h.db, engaged);
      const fromDatabase = topCategories(engaged, (id) => stored.get(id), 3);
      expect(
        topCategories(engaged, (id) => index.of(id), 3),
        `${step}, user ${u}`,
      ).toEqual(fromDatabase);
      if (fromDatabase.length >= 2) ranked++;
    }
    // the fixture gives most readers several liked categories, so the order is checked, not only sets
    expect(ranked).toBeGreaterThanOrEqual(4);
  };

  it('loads in pages and knows what the database knows, before and after changes', async () => {
    const keeps = new ReaderKeeps();
    const { bookCategories: index } = await keeps.sync(h.db, 0);
    expect(index.ready(h.db)).toBe(false);
    await loaded(index, h.db);
    await agrees(index, 'loaded');

    await updateBook(h.db, books[3]!.file_name, { category_id: 5 });
    await updateBook(h.db, books[10]!.file_name, { category_id: 2 });
    await deleteBook(h.db, books[7]!.file_name);
    const added = await insertBook(h.db, sampleBook({ category_id: 4 }), []);
    await saveShelf(h.db, users[0]!, added.id, 5000);
    await keeps.sync(h.db, 0);
    expect(index.ready(h.db)).toBe(true);
    expect(index.of(books[3]!.id)).toBe(5);
    expect(index.of(books[7]!.id)).toBeUndefined();
    expect(index.of(added.id)).toBe(4);
    await agrees(index, 'after moves, a delete and an insert');
  });

  it('small pages read the whole catalogue; a change made while loading is applied after the last page', async () => {
    const index = new BookCategories(true, 5);
    expect(index.ready(h.db)).toBe(false);
    // the load has read nothing yet: this change's row must win over the page that still says 1 + 0
    index.apply([books[0]!.id], [{ id: books[0]!.id, category_id: 3 }]);
    await loaded(index, h.db);
    expect(index.of(books[0]!.id)).toBe(3);
    for (const b of books.slice(1)) expect(index.of(b.id)).toBe(b.category_id);
    expect(index.of(999_999)).toBeUndefined();
    index.clear();
    expect(index.of(books[1]!.id)).toBeUndefined();
    expect(index.ready(h.db)).toBe(false);
  });
});
