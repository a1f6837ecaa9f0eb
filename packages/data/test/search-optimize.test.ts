import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type DbHandle,
  insertBook,
  optimizeSearchIndexes,
  SEARCH_INDEXES,
  searchBooks,
  searchFacet,
} from '../src/index.js';
import { sampleBook, testDialects } from '../src/testing/index.js';

const dialects = await testDialects();
const page = { offset: 0, limit: 50 };

// Issue: performance — full-text indexes merged into one segment after bulk imports answer searches
// faster at a million books; the answers must not change (decisions.md §3 Search).
describe.each(dialects)('optimizeSearchIndexes on $name', (dialect) => {
  let h: DbHandle;
  beforeEach(async () => {
    h = await dialect.create();
  });
  afterEach(async () => h.destroy());

  const segments = async (table: string) =>
    Number(
      (
        await sql<{ n: number }>`select count(distinct segid) as n from ${sql.table(`${table}_idx`)}`.execute(
          h.db,
        )
      ).rows[0]?.n,
    );

  it('merges every search index into one segment, and searches answer as before', async () => {
    // one transaction per book: each leaves a segment of its own in every SQLite index
    for (let i = 0; i < 12; i++)
      await insertBook(
        h.db,
        sampleBook({
          title: `Glass ocean ${i}`,
          author: `Ann Marsh ${i % 3}`,
          publisher: `Harbour ${i % 2}`,
        }),
        [],
      );
    const ask = async () => ({
      title: (await searchBooks(h.db, 'ocean', page)).map((b) => b.id),
      author: (await searchBooks(h.db, 'Marsh', page)).map((b) => b.id),
      short: (await searchBooks(h.db, 'an', page)).map((b) => b.id),
      facet: await searchFacet(h.db, 'arbou', 'publisher', 10),
    });
    if (dialect.name === 'sqlite') expect(await segments('book_title_fts')).toBeGreaterThan(1);
    const before = await ask();
    expect(before.title).toHaveLength(12);
    expect(before.facet).toHaveLength(2);

    const merged = await optimizeSearchIndexes(h.db);
    if (dialect.name === 'sqlite') {
      expect(merged).toEqual([...SEARCH_INDEXES]);
      for (const t of SEARCH_INDEXES) expect(await segments(t), t).toBeLessThanOrEqual(1);
      expect(await segments('book_title_fts')).toBe(1);
    } else {
      // pg_trgm indexes keep no segments
      expect(merged).toEqual([]);
    }
    expect(await ask()).toEqual(before);
  });
});
