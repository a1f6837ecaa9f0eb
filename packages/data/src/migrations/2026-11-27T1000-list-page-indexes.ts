import type { Kysely } from 'kysely';
import { isPostgres } from './migration-helpers.js';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * A page of the admin list reads its books' ids from an index alone, in the sort's order with the id
 * as its tie-break, and only then the page's rows: an OFFSET steps over index entries, not over whole
 * rows joined to their category (the middle page of 100k books read 50,000 rows for 20).
 *
 * SQLite: an index of a column holds (value, rowid), so each sort's index already gives the ids; the
 * id order itself is the table's, whose leaves hold whole rows, and a narrow index of the id is the
 * walk an OFFSET in id order can take.
 *
 * PostgreSQL: an index holds only its columns, so each sort column's index gets the id beside it (the
 * single-column indexes, which the new ones serve as well, are dropped); the primary key serves the
 * id order.
 */
const SORT_COLUMNS = ['title', 'author', 'publisher', 'language', 'created_at'] as const;
const SINGLE_COLUMN_INDEX = {
  title: 'books_title_idx',
  author: 'books_author_idx',
  publisher: 'books_publisher_idx',
  language: 'books_language_idx',
  created_at: 'books_created_idx',
} as const;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) {
    await db.schema.createIndex('books_id_idx').on('books').column('id').execute();
    return;
  }
  for (const col of SORT_COLUMNS) {
    await db.schema.createIndex(`books_${col}_id_idx`).on('books').columns([col, 'id']).execute();
    await db.schema.dropIndex(SINGLE_COLUMN_INDEX[col]).execute();
  }
  // file_name is unique (books_file_name_key), but the list orders by it and the id alike
  await db.schema.createIndex('books_file_name_id_idx').on('books').columns(['file_name', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) {
    await db.schema.dropIndex('books_id_idx').execute();
    return;
  }
  await db.schema.dropIndex('books_file_name_id_idx').execute();
  for (const col of SORT_COLUMNS) {
    await db.schema.createIndex(SINGLE_COLUMN_INDEX[col]).on('books').column(col).execute();
    await db.schema.dropIndex(`books_${col}_id_idx`).execute();
  }
}
