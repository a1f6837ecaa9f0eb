import { type Kysely, sql } from 'kysely';
import { isPostgres } from './migration-helpers.js';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * SQLite: a trigram index of titles alone. Search pages title matches first, and a title match read
 * through book_fts (title, author and publisher in one index) walks the postings of all three columns:
 * "Press" is in no title but in half the publishers, so finding that no title has it walks half the
 * catalogue, twice per search. PostgreSQL has one trigram index per column already.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`create virtual table book_title_fts using fts5(title, content='books', content_rowid='id', tokenize='trigram')`.execute(
    db,
  );
  await sql`insert into book_title_fts(book_title_fts) values ('rebuild')`.execute(db);
  await sql`create trigger books_title_ai after insert on books begin
    insert into book_title_fts(rowid, title) values (new.id, new.title);
  end`.execute(db);
  await sql`create trigger books_title_ad after delete on books begin
    insert into book_title_fts(book_title_fts, rowid, title) values ('delete', old.id, old.title);
  end`.execute(db);
  await sql`create trigger books_title_au after update of title on books begin
    insert into book_title_fts(book_title_fts, rowid, title) values ('delete', old.id, old.title);
    insert into book_title_fts(rowid, title) values (new.id, new.title);
  end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  for (const t of ['books_title_ai', 'books_title_ad', 'books_title_au'])
    await sql`drop trigger ${sql.id(t)}`.execute(db);
  await sql`drop table book_title_fts`.execute(db);
}
