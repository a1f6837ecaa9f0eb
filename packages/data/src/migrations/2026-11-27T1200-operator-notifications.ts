import { type Kysely, sql } from 'kysely';
import { isPostgres } from './migration-helpers.js';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * PostgreSQL: a commit that changes an operator (a password reset moves its token version) notifies
 * the commit channel with the payload `operators`, so an admin process listening there can keep each
 * operator's token version until an operator changes, instead of reading it at every request. The
 * payload is its own: the commits readers cause (views, shelves) do not make the admin read again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create or replace function readlib_notify_operators() returns trigger language plpgsql as $$
    begin
      perform pg_notify('readlib_commit:' || current_schema(), 'operators');
      return null;
    end $$`.execute(db);
  await sql`create trigger readlib_operators_notify after insert or update or delete or truncate
    on operators for each statement execute function readlib_notify_operators()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger readlib_operators_notify on operators`.execute(db);
  await sql`drop function readlib_notify_operators()`.execute(db);
}
