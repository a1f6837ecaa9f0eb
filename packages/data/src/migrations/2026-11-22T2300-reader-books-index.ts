import type { Kysely } from 'kysely';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * A personal recommendation starts from the books a user engaged with, read through book_readers by
 * user. The index on (user_id) alone sent each of those entries (about 20 per user at 100k books) to the
 * table for its book_id; with (user_id, book_id) the index answers alone. It replaces the old index, so a view still updates the same number of indexes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('book_readers_user_book_idx')
    .on('book_readers')
    .columns(['user_id', 'book_id'])
    .execute();
  await db.schema.dropIndex('book_readers_user_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('book_readers_user_idx').on('book_readers').column('user_id').execute();
  await db.schema.dropIndex('book_readers_user_book_idx').execute();
}
