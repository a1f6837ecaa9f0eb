import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * The number of books of each category, kept in step by every book write (as book_values counts
 * authors and publishers). Counting by grouping the books grows with the catalogue,
 * and readers would recount after every book write, so an operator editing books would slow every home
 * page and search of every reader process.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('categories')
    .addColumn('book_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update categories set book_count = (select count(*) from books where books.category_id = categories.id)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('categories').dropColumn('book_count').execute();
}
