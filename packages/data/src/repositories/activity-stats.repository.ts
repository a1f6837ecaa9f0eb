import { type Kysely, sql, type Transaction } from 'kysely';
import { compiledOnce, compiledStatement } from '../compiled-once.js';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';
import { lockCut, readCut } from './stat-cuts.js';

type Db = Kysely<Database> | Transaction<Database>;
type CutName = 'views' | 'searches';

/** The cut only moves when it lags the window start by more than this; the gap is subtracted on the fly. */
const SWEEP_LAG_MS = 60_000;

const LOGS = {
  views: { log: 'views', key: 'book_id', stats: 'book_stats', recent: 'views_recent' },
  searches: { log: 'search_log', key: 'keyword', stats: 'search_stats', recent: 'recent' },
} as const;

/**
 * The cut, read inside a write transaction. On PostgreSQL the row is share-locked so a concurrent
 * sweep (which takes it for update) cannot move it between this read and the commit of the counter.
 */
async function cutFor(trx: Db, name: CutName): Promise<number> {
  const [row] = await cutOf(trx, name);
  return row ? Number(row.upto) : 0;
}

// read in every view's and search's transaction: built once per dialect
const cutOf = compiledOnce((db, name: CutName) => {
  const q = db.selectFrom('stat_cuts').select('upto').where('name', '=', name);
  return dialectOf(db) === 'postgres' ? q.forShare() : q;
});

/** Part of recordView's transaction: the book's all-time and in-window counts, and its readers. */
export async function countBookView(trx: Db, bookId: number, at: number, newReader: boolean): Promise<void> {
  await countView(trx, bookId, at >= (await cutFor(trx, 'views')) ? 1 : 0, newReader ? 1 : 0);
}

const countView = compiledStatement((db, bookId: number, recent: number, reader: number) =>
  db
    .insertInto('book_stats')
    .values({ book_id: bookId, views_total: 1, views_recent: recent, readers: reader })
    .onConflict((oc) =>
      oc.column('book_id').doUpdateSet((eb) => ({
        views_total: eb('book_stats.views_total', '+', 1),
        views_recent: eb('book_stats.views_recent', '+', eb.ref('excluded.views_recent')),
        readers: eb('book_stats.readers', '+', eb.ref('excluded.readers')),
      })),
    ),
);

/** Part of saveRating's transaction: `previous` is the rank replaced (undefined for a first rating). */
export async function countBookRating(
  trx: Db,
  bookId: number,
  rank: number,
  previous?: number,
): Promise<void> {
  const dn = previous === undefined ? 1 : 0;
  const ds = rank - (previous ?? 0);
  await trx
    .insertInto('book_stats')
    .values({ book_id: bookId, rating_num: 1, rating_sum: rank, rating_avg: rank })
    .onConflict((oc) =>
      oc.column('book_id').doUpdateSet({
        rating_num: sql`book_stats.rating_num + ${dn}`,
        rating_sum: sql`book_stats.rating_sum + ${ds}`,
        rating_avg: sql`(book_stats.rating_sum + ${ds}) * 1.0 / (book_stats.rating_num + ${dn})`,
      }),
    )
    .execute();
}

/**
 * Part of logSearches' transaction: each keyword's count moved once, by its searches at or after the
 * cut (a keyword whose searches are all older still gets its row). Keywords in their order, so two
 * transactions lock the counts they share in the same order.
 */
export async function countKeywordSearches(
  trx: Db,
  searches: ReadonlyArray<{ keyword: string; at: number }>,
): Promise<void> {
  const cut = await cutFor(trx, 'searches');
  const recent = new Map<string, number>();
  for (const { keyword, at } of searches)
    recent.set(keyword, (recent.get(keyword) ?? 0) + (at >= cut ? 1 : 0));
  for (const keyword of [...recent.keys()].sort()) await countKeyword(trx, keyword, recent.get(keyword)!);
}

// every search's transaction: built once
const countKeyword = compiledStatement((db, keyword: string, recent: number) =>
  db
    .insertInto('search_stats')
    .values({ keyword, recent })
    .onConflict((oc) =>
      oc
        .column('keyword')
        .doUpdateSet((eb) => ({ recent: eb('search_stats.recent', '+', eb.ref('excluded.recent')) })),
    ),
);

/**
 * Moves the cut of `name` up to `to`, subtracting the events in [cut, to) from the recent counts, in
 * one transaction that starts with a write (SQLite: the write lock; PostgreSQL: the cut row's lock).
 */
async function sweep(db: Kysely<Database>, name: CutName, to: number): Promise<void> {
  const l = LOGS[name];
  await db.transaction().execute(async (trx) => {
    const from = (await lockCut(trx, name)) ?? 0;
    if (from >= to) return;
    const aged = await sql<{ k: string | number; n: number }>`
      select ${sql.ref(l.key)} as k, count(*) as n from ${sql.table(l.log)}
      where created_at >= ${from} and created_at < ${to} group by ${sql.ref(l.key)}`.execute(trx);
    for (const r of aged.rows) {
      await sql`update ${sql.table(l.stats)} set ${sql.ref(l.recent)} = ${sql.ref(l.recent)} - ${Number(r.n)}
        where ${sql.ref(l.key)} = ${r.k}`.execute(trx);
    }
    await trx.updateTable('stat_cuts').set({ upto: to }).where('name', '=', name).execute();
  });
}

/**
 * The `limit` keys with the most events at or after `since`, most first, ties by key: exactly what
 * aggregating the log would answer, read from the precomputed counts. Events in [cut, since) (at most
 * SWEEP_LAG_MS of them) are subtracted on the fly from a list over-fetched by that many keys. Returns
 * undefined when `since` is before the cut (a clock that went back): the caller aggregates the log.
 */
async function windowTop<K extends string | number>(
  db: Kysely<Database>,
  name: CutName,
  since: number,
  limit: number,
): Promise<Array<{ key: K; n: number }> | undefined> {
  const l = LOGS[name];
  const cutNow = async () => (await readCut(db, name)) ?? 0;
  let cut = await cutNow();
  if (since < cut) return undefined;
  if (since - cut > SWEEP_LAG_MS) {
    await sweep(db, name, since);
    cut = await cutNow();
    if (since < cut) return undefined;
  }
  const gap = new Map<K, number>();
  if (since > cut) {
    const rows = await sql<{ k: K; n: number }>`
      select ${sql.ref(l.key)} as k, count(*) as n from ${sql.table(l.log)}
      where created_at >= ${cut} and created_at < ${since} group by ${sql.ref(l.key)}`.execute(db);
    for (const r of rows.rows) gap.set(r.k, Number(r.n));
  }
  const top = await sql<{ k: K; n: number }>`
    select ${sql.ref(l.key)} as k, ${sql.ref(l.recent)} as n from ${sql.table(l.stats)}
    where ${sql.ref(l.recent)} > 0
    order by ${sql.ref(l.recent)} desc, ${sql.ref(l.key)} limit ${limit + gap.size}`.execute(db);
  const adjusted = top.rows
    .map((r) => ({ key: r.k, n: Number(r.n) - (gap.get(r.k) ?? 0) }))
    .filter((r) => r.n > 0);
  if (gap.size > 0) adjusted.sort((a, b) => b.n - a.n || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return adjusted.slice(0, limit);
}

/** Most viewed books since `since` (exact), or undefined when `since` is before the maintained window. */
export async function hotBookIdsFromStats(
  db: Kysely<Database>,
  since: number,
  limit: number,
): Promise<Array<{ bookId: number; views: number }> | undefined> {
  const top = await windowTop<number>(db, 'views', since, limit);
  return top?.map((t) => ({ bookId: Number(t.key), views: t.n }));
}

/**
 * A detail's figures in one primary-key read, from the counts the view and rating writes keep in their
 * transactions: distinct readers, number and average of ratings. Aggregating instead would read every rating
 * and every reader of the book (tens of thousands for a popular one) per detail.
 * `views` (all time) moves with every view, so it also tells whether the book's readers changed.
 */
// every book detail: built once
const statsOfBook = compiledOnce((db, bookId: number) =>
  db
    .selectFrom('book_stats')
    .select(['readers', 'rating_num', 'rating_avg', 'views_total'])
    .where('book_id', '=', bookId),
);

export interface BookStats {
  readers: number;
  ratingNum: number;
  ratingAvg: number;
  views: number;
}

export async function bookStats(db: Kysely<Database>, bookId: number): Promise<BookStats> {
  const [row] = await statsOfBook(db, bookId);
  return row ? toBookStats(row) : { readers: 0, ratingNum: 0, ratingAvg: 0, views: 0 };
}

/** A book_stats row's counts as a detail shows them (no average without ratings). */
export function toBookStats(row: {
  readers: number | string;
  rating_num: number | string;
  rating_avg: number | string;
  views_total: number | string;
}): BookStats {
  const ratingNum = Number(row.rating_num);
  return {
    readers: Number(row.readers),
    ratingNum,
    ratingAvg: ratingNum > 0 ? Number(row.rating_avg) : 0,
    views: Number(row.views_total),
  };
}

/** Most viewed books of all time, by the maintained totals. */
export async function allTimeViewedBookIds(
  db: Kysely<Database>,
  limit: number,
): Promise<Array<{ bookId: number; views: number }>> {
  const rows = await db
    .selectFrom('book_stats')
    .select(['book_id', 'views_total'])
    .where('views_total', '>', 0)
    .orderBy('views_total', 'desc')
    .orderBy('book_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ bookId: r.book_id, views: Number(r.views_total) }));
}

/**
 * The average (of ranks 1 to 5) a book needs to count as well rated: without it, a young catalogue
 * with fewer rated books than the pool holds recommends its 1-star books as well rated.
 */
export const WELL_RATED_MIN_AVG = 4;

/** Well-rated books from the maintained averages: best average, then most ratings, then id. */
export async function wellRatedBookIds(
  db: Kysely<Database>,
  limit: number,
  { minVotes = 1, minAvg = WELL_RATED_MIN_AVG } = {},
): Promise<number[]> {
  const rows = await db
    .selectFrom('book_stats')
    .select('book_id')
    .where('rating_num', '>=', minVotes)
    .where('rating_avg', '>=', minAvg)
    .orderBy('rating_avg', 'desc')
    .orderBy('rating_num', 'desc')
    .orderBy('book_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.book_id);
}

/** Most searched keywords since `since` (exact), or undefined when `since` is before the window. */
export async function hotKeywordsFromStats(
  db: Kysely<Database>,
  since: number,
  limit: number,
): Promise<Array<{ keyword: string; count: number }> | undefined> {
  const top = await windowTop<string>(db, 'searches', since, limit);
  return top?.map((t) => ({ keyword: String(t.key), count: t.n }));
}

/**
 * Recomputes every count from the logs with the window starting at `cut` (bulk loads, repairs). The
 * write paths keep them in step afterwards.
 */
export async function rebuildActivityStats(db: Kysely<Database>, cut: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('book_stats').execute();
    await trx.deleteFrom('search_stats').execute();
    await trx.deleteFrom('stat_cuts').where('name', 'in', ['views', 'searches']).execute();
    await sql`insert into book_stats
        (book_id, views_total, views_recent, rating_num, rating_sum, rating_avg, readers)
      select b.id, coalesce(v.total, 0), coalesce(v.recent, 0), coalesce(r.num, 0), coalesce(r.total, 0),
             case when r.num > 0 then r.total * 1.0 / r.num else 0 end, coalesce(br.n, 0)
      from books b
      left join (select book_id, count(*) as total,
                        sum(case when created_at >= ${cut} then 1 else 0 end) as recent
                 from views group by book_id) v on v.book_id = b.id
      left join (select book_id, count(*) as num, sum(rank) as total from ratings group by book_id) r
             on r.book_id = b.id
      left join (select book_id, count(*) as n from book_readers group by book_id) br on br.book_id = b.id
      where v.book_id is not null or r.book_id is not null or br.book_id is not null`.execute(trx);
    await sql`insert into search_stats (keyword, recent)
      select keyword, count(*) from search_log where created_at >= ${cut} group by keyword`.execute(trx);
    await sql`insert into stat_cuts (name, upto) values ('views', ${cut}), ('searches', ${cut})`.execute(trx);
  });
}
