import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * Search facets list the matching authors and publishers with the most books first. A reader process
 * keeps the most frequent values of each field in memory and answers common keywords from them; this
 * index reads those values in order instead of sorting every value of the field (99k authors at a
 * million books).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index book_values_popular_idx on book_values (field, books desc, value)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('book_values_popular_idx').execute();
}
