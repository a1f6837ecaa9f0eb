import type { Kysely } from 'kysely';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * 1. `counters.catalog_version`, moved by every book insert, update and delete in its transaction:
 *    reader processes drop their catalogue caches when it moves (catalog-version.repository.ts).
 * 2. A book's recent readers are ordered by (last_viewed_at desc, user_id desc). With user_id missing from
 *    the index, SQLite finishes the order in a temporary B-tree over every reader of the book (a popular
 *    book has tens of thousands). With it, the first ten entries are read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.insertInto('counters').values({ name: 'catalog_version', value: 0 }).execute();
  await db.schema.dropIndex('book_readers_recent_idx').execute();
  await db.schema
    .createIndex('book_readers_recent_idx')
    .on('book_readers')
    .columns(['book_id', 'last_viewed_at', 'user_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('counters').where('name', '=', 'catalog_version').execute();
  await db.schema.dropIndex('book_readers_recent_idx').execute();
  await db.schema
    .createIndex('book_readers_recent_idx')
    .on('book_readers')
    .columns(['book_id', 'last_viewed_at'])
    .execute();
}
