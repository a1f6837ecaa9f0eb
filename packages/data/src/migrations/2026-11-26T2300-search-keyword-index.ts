import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * The searches' top keywords (the dashboard's ten, the word cloud's hundred) count each keyword's
 * searches and distinct searchers in a window. Read through the index by time, every search of the
 * window was fetched from the table for its reader and then sorted by keyword twice (grouping,
 * distinct readers). This index holds the three columns in keyword order, so the count reads it alone,
 * one keyword after another; the index by time stays for the window's totals. The table is analyzed
 * here: on a database whose statistics describe the index by time alone, SQLite keeps to that index
 * and never reads this one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('search_log_keyword_idx')
    .on('search_log')
    .columns(['keyword', 'created_at', 'open_id'])
    .execute();
  await sql`analyze search_log`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('search_log_keyword_idx').execute();
}
