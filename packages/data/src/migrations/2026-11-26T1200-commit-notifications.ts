import { type Kysely, sql } from 'kysely';
import { isPostgres } from './migration-helpers.js';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * PostgreSQL: a commit that changes a table reader answers are made of notifies the channel
 * `readlib_commit:<schema>` (once per transaction: PostgreSQL folds equal notifications), so a reader
 * process listening there knows when what it keeps may be stale without reading the versions at every
 * request. The logs (views, search_log) and what only screens read are left out: a view's transaction
 * also writes book_stats and book_readers, which notify. SQLite needs none of this: its readers watch
 * the wal-index.
 */
const TABLES = [
  'categories',
  'counters',
  'catalog_changes',
  'books',
  'toc_entries',
  'users',
  'shelf_entries',
  'ratings',
  'book_readers',
  'book_stats',
  'book_values',
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create or replace function readlib_notify_commit() returns trigger language plpgsql as $$
    begin
      perform pg_notify('readlib_commit:' || current_schema(), '');
      return null;
    end $$`.execute(db);
  for (const table of TABLES)
    await sql`create trigger readlib_commit_notify after insert or update or delete or truncate
      on ${sql.table(table)} for each statement execute function readlib_notify_commit()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of TABLES)
    await sql`drop trigger readlib_commit_notify on ${sql.table(table)}`.execute(db);
  await sql`drop function readlib_notify_commit()`.execute(db);
}
