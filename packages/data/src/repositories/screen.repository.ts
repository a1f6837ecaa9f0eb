import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { longRead } from '../sqlite/read-worker.js';
import { numberKey, textKey } from './group-keys.js';
import { DAY_MS, dayOf, reportDay } from './report-days.js';
import { rolledUpViews, viewDaysUpto } from './view-days.repository.js';

/** Tables whose rows are dated events (created_at, epoch ms): what the report screens count. */
export type EventTable = 'users' | 'shelf_entries' | 'ratings' | 'views' | 'search_log';

/** Rows created in [since, until); either bound may be omitted. */
export async function countCreated(
  db: Kysely<Database>,
  table: EventTable,
  since?: number,
  until?: number,
): Promise<number> {
  // every EventTable has created_at; the cast only narrows the union for Kysely's column typing
  let q = db.selectFrom(table as 'views').select((eb) => eb.fn.countAll<number>().as('n'));
  if (since !== undefined) q = q.where('created_at', '>=', since);
  if (until !== undefined) q = q.where('created_at', '<', until);
  // millions of rows at 1M books (every view): counted off the event loop where the file allows
  const [row] = await longRead(db, q);
  return Number(row!.n);
}

/**
 * Rows per report day (report-days.ts) in [since, until), keyed by day number at `utcOffsetMs`; days
 * without rows are absent.
 */
export async function dailyCounts(
  db: Kysely<Database>,
  table: 'users' | 'views',
  since: number,
  until: number,
  utcOffsetMs: number,
): Promise<Map<number, number>> {
  const day = dayOf('created_at', utcOffsetMs);
  const rows = await longRead(
    db,
    db
      .selectFrom(table as 'views')
      .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
      .where('created_at', '>=', since)
      .where('created_at', '<', until)
      .groupBy(day),
  );
  return new Map(rows.map((r) => [Number(r.day), Number(r.n)]));
}

/**
 * Where a window of views splits: the days before it are read from view_days (rolled up by
 * rollUpViewDays), the rest from the views. A window that is not whole report days at `utcOffsetMs`,
 * or rows rolled up at another offset, are read from the views.
 */
async function viewSplit(
  db: Kysely<Database>,
  since: number,
  until: number,
  utcOffsetMs: number,
): Promise<number> {
  const upto = await viewDaysUpto(db, utcOffsetMs);
  const whole = (ms: number) => (ms + utcOffsetMs) % DAY_MS === 0;
  if (upto === undefined || !whole(since) || !whole(until)) return since;
  return Math.min(Math.max(upto, since), until);
}

/**
 * Views per report day in [since, until), keyed by day number at `utcOffsetMs`: past days rolled up,
 * the rest counted.
 */
export async function viewsPerDay(
  db: Kysely<Database>,
  since: number,
  until: number,
  utcOffsetMs: number,
): Promise<Map<number, number>> {
  const upto = await viewSplit(db, since, until, utcOffsetMs);
  const [counts, live] = await Promise.all([
    upto > since
      ? rolledUpViews(db, reportDay(since, utcOffsetMs), reportDay(upto, utcOffsetMs), 'day')
      : new Map<number, number>(),
    upto < until ? dailyCounts(db, 'views', upto, until, utcOffsetMs) : new Map<number, number>(),
  ]);
  for (const [day, n] of live) counts.set(day, (counts.get(day) ?? 0) + n);
  return counts;
}

export interface CategoryActivity {
  id: number;
  name: string;
  num: number;
  views: number;
}

/**
 * Every category with its book count and the views of its books since `since` (up to `until`, the
 * window's end, whole report days at `utcOffsetMs`): past days rolled up, the rest grouped from the
 * views.
 */
export async function categoryActivity(
  db: Kysely<Database>,
  since: number,
  until: number,
  utcOffsetMs: number,
): Promise<CategoryActivity[]> {
  const upto = await viewSplit(db, since, until, utcOffsetMs);
  const rolled =
    upto > since
      ? rolledUpViews(db, reportDay(since, utcOffsetMs), reportDay(upto, utcOffsetMs), 'category_id')
      : new Map<number, number>();
  const perBook = db
    .selectFrom('views')
    .select([numberKey('views.book_id').as('book_id'), (eb) => eb.fn.countAll<number>().as('views')])
    .where('views.created_at', '>=', upto)
    .where('views.created_at', '<', until)
    .groupBy(numberKey('views.book_id'))
    .as('b');
  const perCategory = db
    .selectFrom(perBook)
    .innerJoin('books', 'books.id', 'b.book_id')
    .select(['books.category_id as category_id', (eb) => eb.fn.sum<number>('b.views').as('views')])
    .groupBy('books.category_id')
    .as('v');
  // the maintained book count (insert, update, delete and the seed keep it) instead of joining every book
  const rows = await longRead(
    db,
    db
      .selectFrom('categories')
      .leftJoin(perCategory, 'v.category_id', 'categories.id')
      .select(['categories.id as id', 'categories.name as name', 'categories.book_count as num', 'v.views'])
      .orderBy('categories.id'),
  );
  const past = await rolled;
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    num: Number(r.num),
    views: Number(r.views ?? 0) + (past.get(r.id) ?? 0),
  }));
}

/**
 * Books with the most distinct viewers since `since`, ties by book id. A reader viewed a book in the
 * window exactly when their latest view of it (book_readers, written with each view) is in it: one pass
 * over the readers' index, whatever the window, where counting distinct viewers over the window's
 * views grows with the window.
 */
export async function topReadBooks(
  db: Kysely<Database>,
  since: number,
  limit: number,
  until = Number.MAX_SAFE_INTEGER,
): Promise<Array<{ fileName: string; title: string; readers: number }>> {
  const top = db
    .selectFrom('book_readers')
    .select(['book_readers.book_id', (eb) => eb.fn.countAll<number>().as('readers')])
    .where('book_readers.last_viewed_at', '>=', since)
    .where('book_readers.last_viewed_at', '<', until)
    .groupBy('book_readers.book_id')
    .orderBy('readers', 'desc')
    .orderBy('book_readers.book_id')
    .limit(limit)
    .as('t');
  const rows = await longRead(
    db,
    db
      .selectFrom(top)
      .innerJoin('books', 'books.id', 't.book_id')
      .select(['books.file_name as fileName', 'books.title as title', 't.readers'])
      .orderBy('t.readers', 'desc')
      .orderBy('t.book_id'),
  );
  return rows.map((r) => ({ fileName: r.fileName, title: r.title, readers: Number(r.readers) }));
}

/** Users registered since `since`, grouped by a profile field (empty values left out), most first. */
export async function usersBy(
  db: Kysely<Database>,
  field: 'province' | 'city',
  since: number,
  until = Number.MAX_SAFE_INTEGER,
): Promise<Array<{ name: string; value: number }>> {
  const key = textKey(field); // not by the column: see group-keys.ts
  const rows = await longRead(
    db,
    db
      .selectFrom('users')
      .select([key.as('name'), (eb) => eb.fn.countAll<number>().as('value')])
      .where(field, '<>', '')
      .where('created_at', '>=', since)
      .where('created_at', '<', until)
      .groupBy(key)
      .orderBy('value', 'desc')
      .orderBy('name'),
  );
  return rows.map((r) => ({ name: String(r.name), value: Number(r.value) }));
}
