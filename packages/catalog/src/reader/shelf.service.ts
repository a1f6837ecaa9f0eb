import type { ShelfEntry, ShelfParam } from '@readlib/contracts';
import { removeShelf, type ShelfRow, saveShelf } from '@readlib/data';
import { toShelfEntry } from '../book.mapper.js';
import { findBook } from './book.service.js';
import { shelfOf } from './kept-reads.js';
import { type ReaderContext, syncCatalog, write } from './reader-context.js';
import type { CatalogView } from './reader-keeps.js';
import { findUserKey, registeredUser, type UserKey } from './user.service.js';

/**
 * A shelf's answer, with what it depends on: the catalogue (the books' rows) and the user's entries
 * (book and time, in order), which are read on every request and are the answer's tag.
 */
export interface ShelfPlan {
  /** the caller's user id; undefined for an unregistered openId */
  userId?: number;
  /** the versions' moves seen by the request that read the entries (what a kept answer is stored with) */
  seen: number;
  /** the entries as text; undefined when one book is asked for (such an answer is not kept) */
  tag?: string;
  entries(): Promise<ShelfEntry[]>;
}

/**
 * The user's shelf newest first, or with fileName the shelf status of that book ([] or [entry]).
 * An unregistered openId has an empty shelf; an unknown fileName is error_code 1.
 */
export async function planShelf(ctx: ReaderContext, openId: string, fileName?: string): Promise<ShelfPlan> {
  const view = await syncCatalog(ctx);
  const [book, user] = await Promise.all([
    fileName ? findBook(view, fileName) : undefined,
    findUserKey(ctx, openId),
  ]);
  if (!user) return { seen: view.seen, entries: async () => [] };
  // only the entries are read and the books come from the keep (a shelf of ten books read in one join
  // would decode the same book rows again)
  const shelf = await shelfOf(ctx, view, user.id);
  const entries = book ? shelf.entries.filter((e) => e.book_id === book.id) : shelf.entries;
  return {
    userId: user.id,
    seen: view.seen,
    ...(book ? {} : { tag: shelf.tag }),
    entries: async () => (await shelfRowsOf(view, user, entries)).map((r) => toShelfEntry(r, ctx.urls)),
  };
}

/** The books of shelf entries already read, in the entries' order (a book deleted since is left out). */
export async function shelfRowsOf(
  view: CatalogView,
  user: UserKey,
  entries: ReadonlyArray<{ book_id: number; created_at: number }>,
): Promise<ShelfRow[]> {
  const books = new Map((await view.booksByIds(entries.map((e) => e.book_id))).map((b) => [b.id, b]));
  return entries.flatMap((e) => {
    const book = books.get(e.book_id);
    return book ? [{ ...book, open_id: user.open_id, shelved_at: e.created_at }] : [];
  });
}

/** Idempotent: a book is on a shelf at most once. */
export async function addToShelf(ctx: ReaderContext, p: ShelfParam): Promise<void> {
  const user = await registeredUser(ctx, p.openId);
  const book = await findBook(await syncCatalog(ctx), p.fileName);
  await write(ctx, (db) => saveShelf(db, user.id, book.id, ctx.now()));
}

/** Removing a book that is not on the shelf succeeds. */
export async function removeFromShelf(ctx: ReaderContext, p: ShelfParam): Promise<void> {
  const user = await registeredUser(ctx, p.openId);
  const book = await findBook(await syncCatalog(ctx), p.fileName);
  await write(ctx, (db) => removeShelf(db, user.id, book.id));
}
