import type { Kysely } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { Database } from '../database.js';
import { type BookRow, selectBooks } from './book.repository.js';

export type ShelfRow = BookRow & { open_id: string; shelved_at: number };

/** Idempotent: a book is on a shelf at most once (unique user_id, book_id); returns true when added. */
export async function saveShelf(
  db: Kysely<Database>,
  userId: number,
  bookId: number,
  now = Date.now(),
): Promise<boolean> {
  const res = await db
    .insertInto('shelf_entries')
    .values({ user_id: userId, book_id: bookId, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'book_id']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removing an absent entry succeeds (decisions.md §3); returns whether something was removed. */
export async function removeShelf(db: Kysely<Database>, userId: number, bookId: number): Promise<boolean> {
  const res = await db
    .deleteFrom('shelf_entries')
    .where('user_id', '=', userId)
    .where('book_id', '=', bookId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** The user's shelf, newest first; optionally only one book, optionally only the first `limit`. */
export async function listShelf(
  db: Kysely<Database>,
  userId: number,
  opts: { bookId?: number; limit?: number } = {},
): Promise<ShelfRow[]> {
  let q = selectBooks(db)
    .innerJoin('shelf_entries', 'shelf_entries.book_id', 'books.id')
    .innerJoin('users', 'users.id', 'shelf_entries.user_id')
    .select(['users.open_id as open_id', 'shelf_entries.created_at as shelved_at'])
    .where('shelf_entries.user_id', '=', userId);
  if (opts.bookId !== undefined) q = q.where('shelf_entries.book_id', '=', opts.bookId);
  q = q.orderBy('shelf_entries.created_at', 'desc').orderBy('shelf_entries.id', 'desc');
  if (opts.limit !== undefined) q = q.limit(opts.limit);
  return (await q.execute()) as ShelfRow[];
}

/** The user's shelf entries newest first (book ids and times only: callers may hold the book rows). */
export async function shelfEntries(
  db: Kysely<Database>,
  userId: number,
): Promise<Array<{ book_id: number; created_at: number }>> {
  return toEntries(await entriesOf(db, userId));
}

// a whole shelf, newest first: every shelf and home page, built once
const entriesOf = compiledOnce((db, userId: number) =>
  db
    .selectFrom('shelf_entries')
    .select(['book_id', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc'),
);

const toEntries = (rows: Array<{ book_id: number; created_at: number }>) =>
  rows.map((r) => ({ book_id: r.book_id, created_at: Number(r.created_at) }));

export async function countShelf(db: Kysely<Database>, userId?: number): Promise<number> {
  let q = db.selectFrom('shelf_entries').select((eb) => eb.fn.countAll<number>().as('n'));
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
