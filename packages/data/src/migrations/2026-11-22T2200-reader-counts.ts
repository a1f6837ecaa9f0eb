import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * A book detail answers `readerNum`, the distinct viewers of the book. Counting them per request reads
 * every book_readers entry of the book, tens of thousands for a popular one. The count is kept in book_stats by the view write that adds a
 * reader, in the same transaction, and read with the rating figures the detail reads anyway.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('book_stats')
    .addColumn('readers', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // every view writes its book_stats row, so a book with readers has one; the insert is for safety
  await sql`insert into book_stats (book_id)
    select distinct r.book_id from book_readers r
    where not exists (select 1 from book_stats s where s.book_id = r.book_id)`.execute(db);
  await sql`update book_stats set readers =
    (select count(*) from book_readers r where r.book_id = book_stats.book_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('book_stats').dropColumn('readers').execute();
}
