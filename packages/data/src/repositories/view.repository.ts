import { type Kysely, sql } from 'kysely';
import { compiledOnce, compiledStatement } from '../compiled-once.js';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';
import { longRead } from '../sqlite/read-worker.js';
import { inTransaction } from '../write-batcher.js';
import { countBookView } from './activity-stats.repository.js';
import { numberKey } from './group-keys.js';

/**
 * A detail view: one log row (screens), the latest view per reader (readers), and the book's view counts
 * (hot lists) and reader count (readerNum), in one transaction.
 */
export async function recordView(db: Kysely<Database>, userId: number, bookId: number, now = Date.now()) {
  if (dialectOf(db) === 'postgres') return recordViewPg(db, userId, bookId, now);
  await inTransaction(db, async (trx) => {
    await logView(trx, userId, bookId, now);
    // two statements rather than one upsert: the count must know whether this viewer is new
    const added = await addReader(trx, bookId, userId, now);
    const newReader = Number(added.numAffectedRows ?? 0) > 0;
    if (!newReader) await touchReader(trx, now, bookId, userId);
    await countBookView(trx, bookId, now, newReader);
  });
}

// every book detail of a registered reader writes these: built once
const logView = compiledStatement((db, userId: number, bookId: number, at: number) =>
  db.insertInto('views').values({ user_id: userId, book_id: bookId, created_at: at }),
);
const addReader = compiledStatement((db, bookId: number, userId: number, at: number) =>
  db
    .insertInto('book_readers')
    .values({ book_id: bookId, user_id: userId, last_viewed_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'book_id']).doNothing()),
);
const touchReader = compiledStatement((db, at: number, bookId: number, userId: number) =>
  db
    .updateTable('book_readers')
    .set({ last_viewed_at: at })
    .where('book_id', '=', bookId)
    .where('user_id', '=', userId),
);

/**
 * recordView on PostgreSQL as one statement: each statement is a round trip to the server, and the four
 * of the portable version would be most of a detail's cost there. Same effects: the log row, the reader's
 * row (`xmax = 0` tells an insert from an update), and the book's counts, the in-window one against
 * the cut read under a share lock as countBookView does.
 */
async function recordViewPg(db: Kysely<Database>, userId: number, bookId: number, now: number) {
  await sql`
    with cut as (select upto from stat_cuts where name = 'views' for share),
    logged as (insert into views (user_id, book_id, created_at) values (${userId}, ${bookId}, ${now})),
    reader as (
      insert into book_readers (book_id, user_id, last_viewed_at) values (${bookId}, ${userId}, ${now})
      on conflict (user_id, book_id) do update set last_viewed_at = excluded.last_viewed_at
      returning (xmax = 0) as added)
    insert into book_stats (book_id, views_total, views_recent, readers)
    select ${bookId}, 1,
      case when ${now} >= coalesce((select upto from cut), 0) then 1 else 0 end,
      (select count(*) from reader where added)
    on conflict (book_id) do update set
      views_total = book_stats.views_total + 1,
      views_recent = book_stats.views_recent + excluded.views_recent,
      readers = book_stats.readers + excluded.readers`.execute(db);
}

export interface ReaderRow {
  avatar_url: string;
  nick_name: string;
  last_viewed_at: number;
}

/** The most recent distinct viewers of a book, newest first. */
// every book detail: built once
const readersOf = compiledOnce((db, bookId: number, limit: number) =>
  db
    .selectFrom('book_readers')
    .innerJoin('users', 'users.id', 'book_readers.user_id')
    .select(['users.avatar_url', 'users.nick_name', 'book_readers.last_viewed_at'])
    .where('book_readers.book_id', '=', bookId)
    .orderBy('book_readers.last_viewed_at', 'desc')
    .orderBy('book_readers.user_id', 'desc')
    .limit(limit),
);

export async function recentReaders(db: Kysely<Database>, bookId: number, limit = 10): Promise<ReaderRow[]> {
  const rows = await readersOf(db, bookId, limit);
  return rows.map((r) => ({ ...r, last_viewed_at: Number(r.last_viewed_at) }));
}

export interface ReaderKeyRow {
  user_id: number;
  last_viewed_at: number;
}

/** recentReaders' users and times only, from the readers' index alone (their profiles kept elsewhere). */
// every registered book detail: built once
const readerKeysOf = compiledOnce((db, bookId: number, limit: number) =>
  db
    .selectFrom('book_readers')
    .select(['user_id', 'last_viewed_at'])
    .where('book_id', '=', bookId)
    .orderBy('last_viewed_at', 'desc')
    .orderBy('user_id', 'desc')
    .limit(limit),
);

export async function recentReaderKeys(
  db: Kysely<Database>,
  bookId: number,
  limit = 10,
): Promise<ReaderKeyRow[]> {
  const rows = await readerKeysOf(db, bookId, limit);
  return rows.map((r) => ({ user_id: Number(r.user_id), last_viewed_at: Number(r.last_viewed_at) }));
}

/** Most viewed books since `since` (ms), by view count, ties by id. */
export async function topViewedBookIds(
  db: Kysely<Database>,
  since: number,
  limit: number,
): Promise<Array<{ bookId: number; views: number }>> {
  const rows = await longRead(
    db,
    db
      .selectFrom('views')
      .select([numberKey('book_id').as('book_id'), (eb) => eb.fn.countAll<number>().as('n')])
      .where('created_at', '>=', since)
      .groupBy(numberKey('book_id')) // not by the column: see group-keys.ts
      .orderBy('n', 'desc')
      .orderBy('book_id')
      .limit(limit),
  );
  return rows.map((r) => ({ bookId: r.book_id, views: Number(r.n) }));
}

export async function countViews(db: Kysely<Database>, since?: number, until?: number): Promise<number> {
  let q = db.selectFrom('views').select((eb) => eb.fn.countAll<number>().as('n'));
  if (since !== undefined) q = q.where('created_at', '>=', since);
  if (until !== undefined) q = q.where('created_at', '<', until);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
