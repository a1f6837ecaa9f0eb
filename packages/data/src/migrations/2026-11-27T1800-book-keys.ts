import { type Kysely, sql } from 'kysely';
import { isPostgres } from './migration-helpers.js';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * PostgreSQL: each book's title and author keys (2026-11-26T1600-search-keys) in a narrow table of
 * their own, `book_keys`, with trigram indexes. `pg_trgm` cannot tell a match from its trigrams, so a
 * filter tests every candidate on its row: on books, rows of about 640 bytes, a common word's 2,400
 * matches sit on 2,100 of its pages; here, on rows of about 60, on 700. The admin list counts a title
 * or author filter's matches here.
 *
 * Kept by statement triggers on books (a statement inserting many books adds all their keys in one):
 * an insert adds the keys, an update that changes a key rewrites it, a delete cascades. Ids never
 * change.
 * The keys keep no statistics, as books' do: the statements hide their keywords from the planner.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create table book_keys (
    id integer primary key references books (id) on delete cascade,
    title_key text not null,
    author_key text not null
  )`.execute(db);
  await sql`insert into book_keys (id, title_key, author_key)
    select id, title_key, author_key from books`.execute(db);
  for (const col of ['title_key', 'author_key']) {
    await sql`alter table book_keys alter column ${sql.id(col)} set statistics 0`.execute(db);
    await sql`create index ${sql.id(`book_keys_${col}_trgm`)} on book_keys
      using gin (${sql.id(col)} gin_trgm_ops)`.execute(db);
  }
  await sql`create function readlib_book_keys_insert() returns trigger language plpgsql as $$
    begin
      insert into book_keys (id, title_key, author_key)
        select id, title_key, author_key from inserted_books;
      return null;
    end $$`.execute(db);
  await sql`create trigger readlib_book_keys_insert after insert on books
    referencing new table as inserted_books
    for each statement execute function readlib_book_keys_insert()`.execute(db);
  await sql`create function readlib_book_keys_update() returns trigger language plpgsql as $$
    begin
      update book_keys k set title_key = n.title_key, author_key = n.author_key
        from updated_books n
        where k.id = n.id and (k.title_key <> n.title_key or k.author_key <> n.author_key);
      return null;
    end $$`.execute(db);
  await sql`create trigger readlib_book_keys_update after update on books
    referencing new table as updated_books
    for each statement execute function readlib_book_keys_update()`.execute(db);
  await sql`analyze book_keys`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger readlib_book_keys_update on books`.execute(db);
  await sql`drop trigger readlib_book_keys_insert on books`.execute(db);
  await sql`drop function readlib_book_keys_update()`.execute(db);
  await sql`drop function readlib_book_keys_insert()`.execute(db);
  await sql`drop table book_keys`.execute(db);
}
