import type { Kysely } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { Book, BookSearchColumns, BookUpdate, Database, Db, NewBook, NewTocEntry } from '../database.js';
import { bookSearchColumns } from '../search/grams.js';
import { inTransaction } from '../write-batcher.js';
import { countBookValues } from './book-values.repository.js';
import { bumpCatalogVersion } from './catalog-version.repository.js';
import { countCategoryBooks } from './category.repository.js';
import { insertToc } from './toc.repository.js';
import { moveRolledUpViews } from './view-days.repository.js';

/**
 * A book row with its category name: what every book-returning query yields. Without the columns only
 * the search indexes read: at ~300 characters `grams` is the widest column, and decoding it for every
 * row is a measurable share of reading a shelf of ten books.
 */
export type BookRow = Omit<Book, BookSearchColumns> & { category_name: string };

/** The columns a book summary shows (search and search-list pages read only these). */
export const BOOK_SUMMARY_COLUMNS = [
  'books.id',
  'books.file_name',
  'books.title',
  'books.author',
  'books.publisher',
  'books.language',
  'books.category_id',
  'books.root_file',
  'books.cover_path',
] as const;

const BOOK_COLUMNS = [
  ...BOOK_SUMMARY_COLUMNS,
  'books.file_path',
  'books.unzip_path',
  'books.original_name',
  'books.url',
  'books.description',
  'books.selected',
  'books.private',
  'books.cache',
  'books.have_read',
  'books.pos',
  'books.created_at',
  'books.updated_at',
] as const satisfies ReadonlyArray<`books.${Exclude<keyof Book, BookSearchColumns>}`>;

export function selectBooks(db: Db) {
  return db
    .selectFrom('books')
    .innerJoin('categories', 'categories.id', 'books.category_id')
    .select(BOOK_COLUMNS)
    .select('categories.name as category_name');
}

export async function findBookByFileName(db: Db, fileName: string): Promise<BookRow | undefined> {
  return selectBooks(db).where('books.file_name', '=', fileName).executeTakeFirst();
}

// shelves, home sections and search pages read their books by id: built once per list length
const booksOfIds = compiledOnce((db, ids: readonly number[]) => selectBooks(db).where('books.id', 'in', ids));

export async function findBooksByIds(db: Db, ids: readonly number[]): Promise<BookRow[]> {
  if (ids.length === 0) return [];
  const rows = await booksOfIds(db, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is BookRow => r !== undefined);
}

/**
 * Inserts a book and its table of contents in one transaction. The counter update comes first so the
 * transaction takes the write lock before reading (no SQLITE_BUSY upgrade deadlock, a row lock on PG).
 */
export async function insertBook(db: Kysely<Database>, book: NewBook, toc: NewTocEntry[]): Promise<BookRow> {
  return inTransaction(db, async (trx) => {
    const { value: pos } = await trx
      .updateTable('counters')
      .set((eb) => ({ value: eb('value', '+', 1) }))
      .where('name', '=', 'books')
      .returning('value')
      .executeTakeFirstOrThrow();
    const now = Date.now();
    const { id } = await trx
      .insertInto('books')
      .values({ ...book, pos: Number(pos), ...bookSearchColumns(book), created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertToc(trx, id, toc);
    await countBookValues(trx, undefined, book);
    await countCategoryBooks(trx, undefined, book);
    await bumpCatalogVersion(trx, [id]);
    return (await selectBooks(trx).where('books.id', '=', id).executeTakeFirst())!;
  });
}

/** Changes only the given fields; the search columns follow title, author and publisher. */
export async function updateBook(
  db: Kysely<Database>,
  fileName: string,
  patch: BookUpdate,
): Promise<BookRow | undefined> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockBook(trx, fileName))) return undefined;
    const current = await findBookByFileName(trx, fileName);
    if (!current) return undefined;
    const next = { ...current, ...patch };
    const textChanged =
      next.title !== current.title || next.author !== current.author || next.publisher !== current.publisher;
    await trx
      .updateTable('books')
      .set({ ...patch, ...(textChanged ? bookSearchColumns(next) : {}), updated_at: Date.now() })
      .where('id', '=', current.id)
      .execute();
    await countBookValues(trx, current, next);
    // a field sent as undefined is left as it is (Kysely skips it in the update too)
    const category = next.category_id ?? current.category_id;
    await countCategoryBooks(trx, current, { category_id: category });
    if (category !== current.category_id)
      await moveRolledUpViews(trx, current.id, current.category_id, category);
    await bumpCatalogVersion(trx, [current.id]);
    return findBookByFileName(trx, fileName);
  });
}

/**
 * Holds the book's row until the transaction ends, so the row read next is the latest committed one and
 * the counts moved from it (category, author, publisher, rolled-up views) are exact: on PostgreSQL two
 * updates of one book otherwise both read the row before either commits, and each moves the counts
 * from the same old values. A no-op update rather than `FOR UPDATE`, which SQLite lacks; there it takes
 * the write lock before the read, as insertBook's first statement does. False when there is no such book.
 */
async function lockBook(trx: Kysely<Database>, fileName: string): Promise<boolean> {
  const locked = await trx
    .updateTable('books')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('file_name', '=', fileName)
    .executeTakeFirst();
  return Number(locked.numUpdatedRows) > 0;
}

/**
 * Deletes a book with its contents, shelf entries, ratings and views (cascades) in one transaction,
 * moving the last book into the freed position so positions stay dense for random draws.
 */
export async function deleteBook(db: Kysely<Database>, fileName: string): Promise<BookRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const { value: remaining } = await trx
      .updateTable('counters')
      .set((eb) => ({ value: eb('value', '-', 1) }))
      .where('name', '=', 'books')
      .returning('value')
      .executeTakeFirstOrThrow();
    const book = (await lockBook(trx, fileName)) ? await findBookByFileName(trx, fileName) : undefined;
    if (!book) {
      await trx
        .updateTable('counters')
        .set((eb) => ({ value: eb('value', '+', 1) }))
        .where('name', '=', 'books')
        .execute();
      return undefined;
    }
    await moveRolledUpViews(trx, book.id, book.category_id);
    // explicit deletes (not only FK cascades) so the outcome does not depend on foreign_keys being on
    for (const table of [
      'toc_entries',
      'shelf_entries',
      'ratings',
      'views',
      'book_readers',
      'book_stats',
    ] as const) {
      await trx.deleteFrom(table).where('book_id', '=', book.id).execute();
    }
    await trx.deleteFrom('books').where('id', '=', book.id).execute();
    const last = Number(remaining) + 1;
    // the book moved into the freed position changed too (its pos)
    const moved =
      book.pos === last
        ? []
        : await trx
            .updateTable('books')
            .set({ pos: book.pos })
            .where('pos', '=', last)
            .returning('id')
            .execute();
    await countBookValues(trx, book, undefined);
    await countCategoryBooks(trx, book, undefined);
    await bumpCatalogVersion(trx, [book.id, ...moved.map((m) => m.id)]);
    return book;
  });
}
