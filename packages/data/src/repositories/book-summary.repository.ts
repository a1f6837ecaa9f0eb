import { compiledOnce } from '../compiled-once.js';
import type { Db } from '../database.js';
import { BOOK_SUMMARY_COLUMNS, type BookRow } from './book.repository.js';

/**
 * The columns a book summary shows (search pages, search-list pages). A search page shows twenty books in
 * part; the rest of their rows (paths, flags, times) is about a quarter of reading them whole.
 */
export type BookSummaryRow = Pick<BookRow, SummaryColumn | 'category_name'>;

/** `books.title` -> `title`: the row fields BOOK_SUMMARY_COLUMNS selects, so the list is written once. */
type SummaryColumn = Unprefixed<(typeof BOOK_SUMMARY_COLUMNS)[number]>;
type Unprefixed<T> = T extends `books.${infer C}` ? C : never;

export function selectBookSummaries(db: Db) {
  return db
    .selectFrom('books')
    .innerJoin('categories', 'categories.id', 'books.category_id')
    .select(BOOK_SUMMARY_COLUMNS)
    .select('categories.name as category_name');
}

// built once per list length
const summariesOfIds = compiledOnce((db, ids: readonly number[]) =>
  selectBookSummaries(db).where('books.id', 'in', ids),
);

/** The summaries of the books of these ids, in their order (ids of no book are left out). */
export async function findBookSummariesByIds(db: Db, ids: readonly number[]): Promise<BookSummaryRow[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await summariesOfIds(db, ids)).map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
