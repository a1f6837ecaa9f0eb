import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * A book detail with an openId writes a view: a views row, the reader's book_readers row and the book's
 * book_stats row, with every index of the three. Two of those indexes served no query: views(user_id)
 * (a user's books are read from book_readers) and book_stats(views_total desc) (the all-time list is
 * only the fallback when fewer than four books were viewed in 30 days; it can sort book_stats). Each index
 * a view does not have to update makes it cheaper (figures in BENCHMARKS.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('views_user_idx').execute();
  await db.schema.dropIndex('book_stats_total_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('views_user_idx').on('views').columns(['user_id', 'created_at']).execute();
  await sql`create index book_stats_total_idx on book_stats (views_total desc, book_id)`.execute(db);
}
