import type { ShelfEntry, ShelfParam } from '@readlib/contracts';
import { listShelf, removeShelf, type ShelfRow, saveShelf, shelfEntries } from '@readlib/data';
import { toShelfEntry } from '../book.mapper.js';
import { findBook, findBookSynced } from './book.service.js';
import { booksByIds } from './pools.js';
import { type ReaderContext, syncCatalog, write } from './reader-context.js';
import { findUserKey, registeredUser, type UserKey } from './user.service.js';

/**
 * The user's shelf newest first, or with fileName the shelf status of that book ([] or [entry]).
 * An unregistered openId has an empty shelf; an unknown fileName is error_code 1.
 */
export async function getShelf(ctx: ReaderContext, openId: string, fileName?: string): Promise<ShelfEntry[]> {
  await syncCatalog(ctx);
  const [book, user] = await Promise.all([
    fileName ? findBookSynced(ctx, fileName) : undefined,
    findUserKey(ctx, openId),
  ]);
  if (!user) return [];
  const rows = await shelfRows(ctx, user, book ? { bookId: book.id } : {});
  return rows.map((r) => toShelfEntry(r, ctx.urls));
}

/**
 * The user's shelf with its books, newest first. With a catalogue memo (synced by the caller) only the
 * entries are read and the books come from it: a shelf of ten books read in one join cost ~0.2 ms at
 * 100k books, mostly decoding the same book rows again.
 */
export async function shelfRows(
  ctx: ReaderContext,
  user: UserKey,
  opts: { bookId?: number; limit?: number } = {},
): Promise<ShelfRow[]> {
  if (!ctx.catalog) return listShelf(ctx.db, user.id, opts);
  return shelfRowsOf(ctx, user, await shelfEntries(ctx.db, user.id, opts));
}

/** The books of shelf entries already read, in the entries' order (a book deleted since is left out). */
export async function shelfRowsOf(
  ctx: ReaderContext,
  user: UserKey,
  entries: ReadonlyArray<{ book_id: number; created_at: number }>,
): Promise<ShelfRow[]> {
  const books = new Map(
    (
      await booksByIds(
        ctx,
        entries.map((e) => e.book_id),
      )
    ).map((b) => [b.id, b]),
  );
  return entries.flatMap((e) => {
    const book = books.get(e.book_id);
    return book ? [{ ...book, open_id: user.open_id, shelved_at: e.created_at }] : [];
  });
}

/** Idempotent: a book is on a shelf at most once. */
export async function addToShelf(ctx: ReaderContext, p: ShelfParam): Promise<void> {
  const user = await registeredUser(ctx, p.openId);
  const book = await findBook(ctx, p.fileName);
  await write(ctx, (db) => saveShelf(db, user.id, book.id, ctx.now()));
}

/** Removing a book that is not on the shelf succeeds. */
export async function removeFromShelf(ctx: ReaderContext, p: ShelfParam): Promise<void> {
  const user = await registeredUser(ctx, p.openId);
  const book = await findBook(ctx, p.fileName);
  await write(ctx, (db) => removeShelf(db, user.id, book.id));
}
