import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';

/** SQLite's full-text indexes of the search: book texts, their one- and two-character grams, facet values. */
export const SEARCH_INDEXES = [
  'book_fts',
  'book_title_fts',
  'book_grams',
  'book_value_fts',
  'book_value_grams',
] as const;

/**
 * Merges each full-text index into one segment (FTS5 `optimize`). An index grows by segments that
 * FTS5 merges only now and then, and every query walks every segment; a bulk load leaves a dozen or
 * so per index. It writes the whole index, other writers waiting, so it runs after bulk imports and on demand (`pnpm cli optimize`), not per
 * write. PostgreSQL's trigram indexes keep no segments: nothing to do there.
 * @returns the indexes merged
 */
export async function optimizeSearchIndexes(db: Kysely<Database>): Promise<string[]> {
  if (dialectOf(db) !== 'sqlite') return [];
  for (const t of SEARCH_INDEXES)
    await sql`insert into ${sql.table(t)}(${sql.table(t)}) values ('optimize')`.execute(db);
  return [...SEARCH_INDEXES];
}
