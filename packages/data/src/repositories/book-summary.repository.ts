import { compiledOnce } from '../compiled-once.js';
import type { Db } from '../database.js';
import { BOOK_SUMMARY_COLUMNS, type BookRow } from './book.repository.js';

/**
 * The columns a book summary shows (search pages, search-list pages). A search page shows twenty books in
 * part; the rest of their rows (paths, flags, times) is about a quarter of reading them whole.
 */
export type BookSummaryRow = Pick<
  BookRow,
  | 'id'
  | 'file_name'
  | 'title'
  | 'author'
  | 'publisher'
  | 'language'
  | 'category_id'
  | 'root_file'
  | 'cover_path'
  | 'category_name'
>;

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
