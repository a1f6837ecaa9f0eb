import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { ValueField } from './book-values.repository.js';

/**
 * Ids of the newest books (highest id first), one page: a walk of the primary key from its end. The
 * caller reads the rows (through the reader's catalogue memo), as for every other book list.
 */
export async function newestBookIds(
  db: Kysely<Database>,
  page: { offset: number; limit: number },
): Promise<number[]> {
  const rows = await db
    .selectFrom('books')
    .select('id')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Ids of the books whose author (or publisher) is exactly `value`, in id order, one page: the feed of
 * one value of book_values, which counts exact values. Search-list matches substrings, so `Li` would
 * also list Lin's books. Served by the author's or publisher's index, in (value, id) order: the page is
 * a walk of it (SQLite's books_author_idx holds the rowid beside the value; PostgreSQL's
 * books_author_id_idx the id, migration 2026-11-27T1000-list-page-indexes).
 */
export async function bookIdsWithValue(
  db: Kysely<Database>,
  field: ValueField,
  value: string,
  page: { offset: number; limit: number },
): Promise<number[]> {
  const rows = await db
    .selectFrom('books')
    .select('id')
    .where(field, '=', value)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((r) => r.id);
}
