import { ensureCategory, insertBook, updateBook } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReaderContext } from '../src/reader/reader-context.js';
import { search } from '../src/reader/search.service.js';
import { drainWrites, readerContext } from './context.js';

const dialects = await testDialects();

// decisions.md §3 Search: `category` holds the non-empty categories whose name contains the keyword.
// The reader keeps the folded category names for a catalogue version: a category
// that gets its first book, by a new book or a moved one, is found by the next search.
describe.each(dialects)('search categories kept per catalogue version on $name', (dialect) => {
  let h: Awaited<ReturnType<typeof dialect.create>>;
  let ctx: ReaderContext;
  beforeEach(async () => {
    h = await dialect.create();
    ctx = readerContext(h.db);
  });
  afterEach(async () => {
    // a search's line is written after its answer
    await drainWrites(h.db);
    await h.destroy();
  });

  const categories = async (keyword: string) =>
    (await search(ctx, { keyword })).category.map((c) => c.categoryText);

  it('finds a category once it has a book, added or moved there', async () => {
    const book = await insertBook(h.db, sampleBook({ title: 'Odes' }), []);
    expect(await categories('Pastoral')).toEqual([]);

    const pastoral = await ensureCategory(h.db, 'Pastoral Ödes');
    await insertBook(h.db, sampleBook({ category_id: pastoral.id }), []);
    // folded as the indexes fold text: case and NFKC
    expect(await categories('pastoral ödes')).toEqual(['Pastoral Ödes']);

    const georgic = await ensureCategory(h.db, 'Georgics');
    expect(await categories('Georgic')).toEqual([]);
    await updateBook(h.db, book.file_name, { category_id: georgic.id });
    expect(await categories('Georgic')).toEqual(['Georgics']);
  });
});
