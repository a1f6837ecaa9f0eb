import type { Kysely } from 'kysely';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * The admin list sorts by language as by its other fields, and each of the others walks an index of
 * its column for a page. Without one, every page sorted by language sorted the whole catalogue first.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('books_language_idx').on('books').column('language').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('books_language_idx').execute();
}
