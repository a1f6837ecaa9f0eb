import { type Kysely, sql } from 'kysely';
import { compiledOnce, compiledStatement } from '../compiled-once.js';
import { isForeignKeyViolation } from '../constraint-errors.js';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';
import { longRead } from '../sqlite/read-worker.js';
import { prepareOnPostgres } from '../statement-marks.js';
import { inTransaction } from '../write-batcher.js';
import { type BookStats, bookStats, countBookView, toBookStats } from './activity-stats.repository.js';
import { numberKey } from './group-keys.js';
import { userRank } from './rating.repository.js';

/** What a book detail shows after a reader's view, read in the view's own write (recordView, recordViews). */
export interface ViewedBook {
  stats: BookStats;
  /** the book's most recent distinct readers after the view, newest first, as recentReaderKeys has them */
  readers: ReaderKeyRow[];
  /** the viewer's own rating, 0 for none */
  rank: number;
}

/**
 * A detail view: one log row (screens), the latest view per reader (readers), and the book's view counts
 * (hot lists) and reader count (readerNum), in one transaction.
 *
 * With `readers` > 0 it also returns what the detail shows next (`ViewedBook`, with up to `readers`
 * readers), read inside the write. On PostgreSQL the same statement returns it: read after the commit
 * it would be three more round trips. On SQLite it is read on the writer before the commit, where the
 * pages just written are in the writer's cache: read after the commit on the other connection, which
 * drops its cache when another one commits, those pages are read again from the write-ahead log.
 * With `readers` = 0 it returns undefined on SQLite.
 */
export async function recordView(
  db: Kysely<Database>,
  userId: number,
  bookId: number,
  now = Date.now(),
  readers = 0,
): Promise<ViewedBook | undefined> {
  if (dialectOf(db) === 'postgres') {
    const [viewed] = await recordViewsPg(db, [{ userId, bookId, at: now }], readers);
    // a book or reader that is gone fails as the portable version's foreign key does
    if (viewed === 'gone')
      throw Object.assign(new Error('view of a book or reader that is gone'), { code: '23503' });
    return viewed;
  }
  return inTransaction(db, async (trx) => {
    await logView(trx, userId, bookId, now);
    // two statements rather than one upsert: the count must know whether this viewer is new
    const added = await addReader(trx, bookId, userId, now);
    const newReader = Number(added.numAffectedRows ?? 0) > 0;
    if (!newReader) await touchReader(trx, now, bookId, userId);
    await countBookView(trx, bookId, now, newReader);
    return readers > 0 ? viewedBook(trx, { userId, bookId }, readers, new Map()) : undefined;
  });
}

/**
 * What a book detail shows after a view, read in the view's transaction (SQLite). A book's counts and
 * readers are the same for every view of it in a batch, read after them all: `books` holds them once read.
 */
async function viewedBook(
  trx: Kysely<Database>,
  v: Pick<ViewItem, 'userId' | 'bookId'>,
  readers: number,
  books: Map<number, Omit<ViewedBook, 'rank'>>,
): Promise<ViewedBook> {
  let book = books.get(v.bookId);
  if (!book) {
    book = { stats: await bookStats(trx, v.bookId), readers: await recentReaderKeys(trx, v.bookId, readers) };
    books.set(v.bookId, book);
  }
  return { ...book, rank: await userRank(trx, v.userId, v.bookId) };
}

export interface ViewItem {
  userId: number;
  bookId: number;
  at: number;
}

/**
 * The views of several readers, as recordView would record them one after another (the service hands
 * the views of a moment over together: MergedWrite). Each item's answer: with `readers` > 0 what its
 * detail shows next (`ViewedBook`, the counts and readers after all of them), else 'recorded' on
 * SQLite; 'gone' when its book or reader was deleted since the request read it (nothing of that view
 * is written, the others are).
 */
export async function recordViews(
  db: Kysely<Database>,
  items: readonly ViewItem[],
  readers = 0,
): Promise<Array<ViewedBook | 'recorded' | 'gone'>> {
  if (items.length === 0) return [];
  if (dialectOf(db) === 'postgres') return recordViewsPg(db, items, readers);
  return inTransaction(db, async (trx) => {
    const done: Array<'recorded' | 'gone'> = [];
    for (const v of items) {
      try {
        await recordView(trx, v.userId, v.bookId, v.at);
        done.push('recorded');
      } catch (err) {
        // the view's first statement (its log row) refers to both: it fails alone, before any other write
        if (!isForeignKeyViolation(err)) throw err;
        done.push('gone');
      }
    }
    if (readers === 0) return done;
    // after them all, as PostgreSQL's statement answers (recordView explains why before the commit)
    const viewed: Array<ViewedBook | 'gone'> = [];
    const books = new Map<number, Omit<ViewedBook, 'rank'>>();
    for (const [i, v] of items.entries())
      viewed.push(done[i] === 'gone' ? 'gone' : await viewedBook(trx, v, readers, books));
    return viewed;
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
 * recordViews on PostgreSQL as one statement, whatever the number of views: each statement is a round
 * trip, and in the group commit's transaction the views of a batch would otherwise run one after
 * another. Same effects as recordView's portable version, view by view: the log rows, each reader's row
 * (its last view of the book in the batch; `xmax = 0` tells an insert from an update), and each book's
 * counts, the in-window one against the cut read under a share lock as countBookView does. It returns,
 * per view, its book's counts as the upsert left them, the viewer's rating, and the book's readers:
 * the statement's own changes are not visible to its reads, so the batch's readers are merged into
 * those seen before it, in recentReaderKeys' order.
 */
async function recordViewsPg(
  db: Kysely<Database>,
  items: readonly ViewItem[],
  readers: number,
): Promise<Array<ViewedBook | 'gone'>> {
  const query = viewsPg(
    items.map((v) => v.userId),
    items.map((v) => v.bookId),
    items.map((v) => v.at),
    readers,
  ).compile(db);
  prepareOnPostgres(query.sql);
  const { rows } = await db.executeQuery(query);
  const byItem = new Map(rows.map((r) => [Number(r.i), r]));
  return items.map((_, i) => {
    const row = byItem.get(i + 1);
    if (!row) return 'gone';
    return {
      stats: toBookStats(row),
      readers: row.recent.map(([user_id, at]) => ({ user_id, last_viewed_at: Number(at) })),
      rank: row.rank ?? 0,
    };
  });
}

const viewsPg = (userIds: number[], bookIds: number[], ats: number[], readers: number) => sql<{
  i: number | string;
  readers: number | string;
  rating_num: number | string;
  rating_avg: number | string;
  views_total: number | string;
  rank: number | null;
  recent: Array<[number, number | string]>;
}>`
  with given as (
    select g.user_id, g.book_id, g.at, g.i
    from unnest(cast(${userIds} as integer[]), cast(${bookIds} as integer[]), cast(${ats} as bigint[]))
      with ordinality as g(user_id, book_id, at, i)
    where exists (select from books where books.id = g.book_id)
      and exists (select from users where users.id = g.user_id)),
  cut as (select upto from stat_cuts where name = 'views' for share),
  logged as (insert into views (user_id, book_id, created_at) select user_id, book_id, at from given order by i),
  latest as (
    select distinct on (user_id, book_id) user_id, book_id, at from given order by user_id, book_id, i desc),
  reader as (
    insert into book_readers (book_id, user_id, last_viewed_at) select book_id, user_id, at from latest
    on conflict (user_id, book_id) do update set last_viewed_at = excluded.last_viewed_at
    returning book_id, (xmax = 0) as added),
  counts as (
    select book_id, count(*) as views,
      count(*) filter (where at >= coalesce((select upto from cut), 0)) as recent
    from given group by book_id),
  stats as (
    insert into book_stats (book_id, views_total, views_recent, readers)
    select c.book_id, c.views, c.recent, (select count(*) from reader r where r.book_id = c.book_id and r.added)
    from counts c
    on conflict (book_id) do update set
      views_total = book_stats.views_total + excluded.views_total,
      views_recent = book_stats.views_recent + excluded.views_recent,
      readers = book_stats.readers + excluded.readers
    returning book_id, readers, rating_num, rating_avg, views_total),
  recent as (
    select c.book_id, (
      select coalesce(json_agg(json_build_array(user_id, at) order by at desc, user_id desc), '[]')
      from (
        select user_id, at from (
          select l.user_id, l.at from latest l where l.book_id = c.book_id
          union all
          (select r.user_id, r.last_viewed_at from book_readers r
            where r.book_id = c.book_id
              and not exists (select from latest l where l.book_id = c.book_id and l.user_id = r.user_id)
            order by r.last_viewed_at desc, r.user_id desc limit ${readers})) u
        order by at desc, user_id desc limit ${readers}) top) as recent
    from counts c)
  select g.i, s.readers, s.rating_num, s.rating_avg, s.views_total, recent.recent,
    (select rank from ratings where ratings.user_id = g.user_id and ratings.book_id = g.book_id) as rank
  from given g join stats s on s.book_id = g.book_id join recent on recent.book_id = g.book_id`;

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
