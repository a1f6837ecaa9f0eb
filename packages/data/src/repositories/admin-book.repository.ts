import type { BookListSortField } from '@readlib/contracts';
import { type Expression, type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';
import { matchingIds, pgFieldMatch } from '../search/match.js';
import { type BookRow, findBooksByIds, selectBooks } from './book.repository.js';
import { countBooks } from './book-draw.repository.js';

/**
 * The column of each sortable field of the admin list: exactly the contracts' BOOK_LIST_SORT_FIELDS
 * (the compiler refuses a field missing or added here); anything else is refused by the caller.
 */
const SORTABLE_FIELDS = {
  id: 'books.id',
  title: 'books.title',
  author: 'books.author',
  publisher: 'books.publisher',
  language: 'books.language',
  category: 'books.category_id',
  fileName: 'books.file_name',
  createdAt: 'books.created_at',
} as const satisfies Record<BookListSortField, string>;

export interface AdminListFilter {
  title?: string;
  author?: string;
  category?: string;
}

export async function listBooksAdmin(
  db: Kysely<Database>,
  filter: AdminListFilter,
  sort: { field: BookListSortField; dir: 'asc' | 'desc' },
  page: { offset: number; limit: number },
): Promise<{ rows: BookRow[]; total: number }> {
  const matchSets = [
    filter.title ? matchingIds(db, filter.title, ['title']) : undefined,
    filter.author ? matchingIds(db, filter.author, ['author']) : undefined,
  ].filter((m) => m !== undefined);
  if (dialectOf(db) === 'sqlite' && matchSets.length > 0 && !filter.category)
    return matchesPage(db, matchSets, sort, page);
  let q = selectBooks(db);
  // substring filters through the search indexes (trigram FTS / grams), not a lower() LIKE scan
  for (const m of matchSets) q = q.where('books.id', 'in', m);
  if (filter.category) q = q.where('categories.name', '=', filter.category);
  const [rows, total] = await Promise.all([
    q
      .orderBy(SORTABLE_FIELDS[sort.field], sort.dir)
      .orderBy('books.id', sort.dir)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    // without a filter the total is the maintained book counter, not a COUNT(*) over the catalogue
    matchSets.length > 0 || filter.category ? countFiltered(db, filter) : countBooks(db),
  ]);
  return { rows, total };
}

/**
 * How many books the filters select, with every condition on the books row itself and no join (a
 * book always has its category): PostgreSQL then counts from a bitmap of the trigram and category
 * indexes, where `id in (matches)` joined to categories read the whole catalogue once more.
 */
async function countFiltered(db: Kysely<Database>, filter: AdminListFilter): Promise<number> {
  const postgres = dialectOf(db) === 'postgres';
  let q = db.selectFrom('books').select((eb) => eb.fn.countAll<number>().as('n'));
  for (const field of ['title', 'author'] as const) {
    const keyword = filter[field];
    if (!keyword) continue;
    q = postgres
      ? q.where(pgFieldMatch(keyword, [field]))
      : q.where('books.id', 'in', matchingIds(db, keyword, [field]));
  }
  if (filter.category)
    q = q.where(
      'books.category_id',
      'in',
      db.selectFrom('categories').select('categories.id').where('categories.name', '=', filter.category),
    );
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/**
 * SQLite, title and/or author filters only: the FTS match sets are counted and, sorted by id, paged
 * themselves (their rowids are the book ids), and only the page's books are read. Through the books
 * table, counting and paging a title filter would read every book the filter matches.
 */
async function matchesPage(
  db: Kysely<Database>,
  [first, ...others]: Expression<any>[],
  sort: { field: BookListSortField; dir: 'asc' | 'desc' },
  page: { offset: number; limit: number },
): Promise<{ rows: BookRow[]; total: number }> {
  const also = others.map((o) => sql`m.id in ${o}`);
  const matches = sql`${first} m ${also.length ? sql`where ${sql.join(also, sql` and `)}` : sql``}`;
  const [{ n }] = (await sql<{ n: number }>`select count(*) as n from ${matches}`.execute(db)).rows as [
    { n: number },
  ];
  if (sort.field !== 'id') {
    const rows = await selectBooks(db)
      .where('books.id', 'in', sql<number>`(select m.id from ${matches})`)
      .orderBy(SORTABLE_FIELDS[sort.field], sort.dir)
      .orderBy('books.id', sort.dir)
      .offset(page.offset)
      .limit(page.limit)
      .execute();
    return { rows, total: Number(n) };
  }
  const ids = await sql<{ id: number }>`select m.id from ${matches}
    order by m.id ${sql.raw(sort.dir)} limit ${page.limit} offset ${page.offset}`.execute(db);
  return {
    rows: await findBooksByIds(
      db,
      ids.rows.map((r) => Number(r.id)),
    ),
    total: Number(n),
  };
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
