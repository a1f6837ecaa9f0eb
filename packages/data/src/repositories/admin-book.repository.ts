import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { matchingIds } from '../search/match.js';
import { type BookRow, countBooks, selectBooks } from './book.repository.js';

/** Sortable fields of the admin list (decisions.md §4): anything else is refused by the caller. */
export const SORTABLE_FIELDS = {
  id: 'books.id',
  title: 'books.title',
  author: 'books.author',
  publisher: 'books.publisher',
  language: 'books.language',
  category: 'books.category_id',
  fileName: 'books.file_name',
  createdAt: 'books.created_at',
} as const;
export type SortField = keyof typeof SORTABLE_FIELDS;

export interface AdminListFilter {
  title?: string;
  author?: string;
  category?: string;
}

export async function listBooksAdmin(
  db: Kysely<Database>,
  filter: AdminListFilter,
  sort: { field: SortField; dir: 'asc' | 'desc' },
  page: { offset: number; limit: number },
): Promise<{ rows: BookRow[]; total: number }> {
  let q = selectBooks(db);
  // substring filters through the search indexes (trigram FTS / grams), not a lower() LIKE scan
  if (filter.title) q = q.where('books.id', 'in', matchingIds(db, filter.title, ['title']));
  if (filter.author) q = q.where('books.id', 'in', matchingIds(db, filter.author, ['author']));
  if (filter.category) q = q.where('categories.name', '=', filter.category);
  const [rows, total] = await Promise.all([
    q
      .orderBy(SORTABLE_FIELDS[sort.field], sort.dir)
      .orderBy('books.id', sort.dir)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    // without a filter the total is the maintained book counter, not a COUNT(*) over the catalogue
    filter.title || filter.author || filter.category
      ? q
          .clearSelect()
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n))
      : countBooks(db),
  ]);
  return { rows, total };
}

/** A catalogue book with the same title, author and publisher (decisions.md §4: duplicates refused). */
export async function findDuplicate(
  db: Kysely<Database>,
  b: { title: string; author: string; publisher: string },
) {
  return db
    .selectFrom('books')
    .select(['id', 'file_name'])
    .where('title', '=', b.title)
    .where('author', '=', b.author)
    .where('publisher', '=', b.publisher)
    .executeTakeFirst();
}
