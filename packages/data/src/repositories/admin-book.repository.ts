import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../database.js';
import { type BookRow, selectBooks } from './book.repository.js';

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

function likeCi(column: 'books.title' | 'books.author', value: string) {
  const pattern = `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

export async function listBooksAdmin(
  db: Kysely<Database>,
  filter: AdminListFilter,
  sort: { field: SortField; dir: 'asc' | 'desc' },
  page: { offset: number; limit: number },
): Promise<{ rows: BookRow[]; total: number }> {
  let q = selectBooks(db);
  if (filter.title) q = q.where(likeCi('books.title', filter.title));
  if (filter.author) q = q.where(likeCi('books.author', filter.author));
  if (filter.category) q = q.where('categories.name', '=', filter.category);
  const [rows, total] = await Promise.all([
    q
      .orderBy(SORTABLE_FIELDS[sort.field], sort.dir)
      .orderBy('books.id', sort.dir)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
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
