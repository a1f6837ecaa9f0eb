import { type Kysely, sql } from 'kysely';
import { isPostgres } from './migration-helpers.js';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * Every registered reader's first view of a book inserts a book_readers row: on SQLite into the rowid
 * table and three indexes (the primary key on (book_id, user_id), the recent readers', and (user_id,
 * book_id) for a user's engaged books), each at a random place of a table of millions of rows. Keyed by
 * (user_id, book_id), the primary key serves a user's books as well, so the (user_id, book_id) index
 * goes; on SQLite the table becomes WITHOUT ROWID, its rows stored in that key. An insert then writes
 * the table and the recent readers' index only. `on conflict (book_id, user_id)` still names this key: both dialects
 * match a conflict target by its set of columns, so a build from before keeps working during a roll.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table book_readers drop constraint book_readers_pk`.execute(db);
    await sql`alter table book_readers add constraint book_readers_pk primary key (user_id, book_id)`.execute(
      db,
    );
    await db.schema.dropIndex('book_readers_user_book_idx').execute();
    return;
  }
  await rebuildSqlite(db, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await db.schema
      .createIndex('book_readers_user_book_idx')
      .on('book_readers')
      .columns(['user_id', 'book_id'])
      .execute();
    await sql`alter table book_readers drop constraint book_readers_pk`.execute(db);
    await sql`alter table book_readers add constraint book_readers_pk primary key (book_id, user_id)`.execute(
      db,
    );
    return;
  }
  await rebuildSqlite(db, false);
}

/** SQLite cannot change a primary key in place: the table is copied, in one transaction. */
async function rebuildSqlite(db: Kysely<any>, byUser: boolean): Promise<void> {
  const key = byUser ? sql`primary key (user_id, book_id)` : sql`primary key (book_id, user_id)`;
  const rowid = byUser ? sql`without rowid` : sql``;
  await db.transaction().execute(async (trx) => {
    await sql`create table book_readers_next (
      user_id integer not null references users (id) on delete cascade,
      book_id integer not null references books (id) on delete cascade,
      last_viewed_at integer not null,
      constraint book_readers_pk ${key}) ${rowid}`.execute(trx);
    // in key order: the new table's pages are filled one after the other
    await sql`insert into book_readers_next (user_id, book_id, last_viewed_at)
      select user_id, book_id, last_viewed_at from book_readers
      order by ${byUser ? sql`user_id, book_id` : sql`book_id, user_id`}`.execute(trx);
    await sql`drop table book_readers`.execute(trx);
    await sql`alter table book_readers_next rename to book_readers`.execute(trx);
    await trx.schema
      .createIndex('book_readers_recent_idx')
      .on('book_readers')
      .columns(['book_id', 'last_viewed_at', 'user_id'])
      .execute();
    if (!byUser)
      await trx.schema
        .createIndex('book_readers_user_book_idx')
        .on('book_readers')
        .columns(['user_id', 'book_id'])
        .execute();
  });
}
