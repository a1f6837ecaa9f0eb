import type { Kysely } from 'kysely';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * A user's shelf is read newest first for every shelf page and home page. The index on
 * (user_id, created_at) found the entries, then read each one's row for its book_id: ten random rows of
 * a million-row table per shelf. With id and book_id in the index it answers alone, in the
 * same order. It replaces the old index, so a shelf write updates as many indexes as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('shelf_user_created_book_idx')
    .on('shelf_entries')
    .columns(['user_id', 'created_at', 'id', 'book_id'])
    .execute();
  await db.schema.dropIndex('shelf_user_created_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('shelf_user_created_idx')
    .on('shelf_entries')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.dropIndex('shelf_user_created_book_idx').execute();
}
