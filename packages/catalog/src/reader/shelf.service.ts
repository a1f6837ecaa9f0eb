import type { ShelfEntry, ShelfParam } from '@readlib/contracts';
import { listShelf, removeShelf, type ShelfRow, saveShelf } from '@readlib/data';
import { toShelfEntry } from '../book.mapper.js';
import type { PublicUrls } from '../urls.js';
import { findBook, findBookSynced } from './book.service.js';
import { type ShelfEntryKey, shelfOf } from './kept-reads.js';
import { booksByIds } from './pools.js';
import { type ReaderContext, syncCatalog, write } from './reader-context.js';
import { findUserKey, registeredUser, type UserKey } from './user.service.js';

/**
 * A shelf's answer, with what it depends on. Equal stamps mean equal answers for the same user: the
 * stamp names the catalogue version the books are read at (every book write moves it) and each entry
 * (book and time, in order), which are read on every request.
 */
export interface ShelfPlan {
  /** the caller's user id; undefined for an unregistered openId */
  userId?: number;
  /** undefined when nothing may be reused: no catalogue memo, a change being applied, one book asked */
  stamp?: string;
  entries(): Promise<ShelfEntry[]>;
}

/**
 * The user's shelf newest first, or with fileName the shelf status of that book ([] or [entry]).
 * An unregistered openId has an empty shelf; an unknown fileName is error_code 1.
 */
export async function planShelf(ctx: ReaderContext, openId: string, fileName?: string): Promise<ShelfPlan> {
  const synced = await syncCatalog(ctx);
  const [book, user] = await Promise.all([
    fileName ? findBookSynced(ctx, fileName) : undefined,
    findUserKey(ctx, openId),
  ]);
  if (!user) return { entries: async () => [] };
  if (!ctx.catalog) {
    const opts = book ? { bookId: book.id } : {};
    return {
      userId: user.id,
      entries: async () => toEntries(await listShelf(ctx.db, user.id, opts), ctx.urls),
    };
  }
  // with a memo only the entries are read and the books come from it (a shelf of ten books read in one
  // join cost ~0.2 ms at 100k books, mostly decoding the same book rows again); the version is taken
  // before either is read: they are of this version or a later one
  const version = ctx.catalog.syncedVersion;
  const shelf = await shelfOf(ctx, user.id, synced);
  const entries = book ? shelf.filter((e) => e.book_id === book.id) : shelf;
  const stamp = book || version < 0 ? undefined : `${version}|${entriesStamp(shelf)}`;
  return {
    userId: user.id,
    stamp,
    entries: async () => toEntries(await shelfRowsOf(ctx, user, entries), ctx.urls),
  };
}

function toEntries(rows: ShelfRow[], urls: PublicUrls): ShelfEntry[] {
  return rows.map((r) => toShelfEntry(r, urls));
}

/** Each kept shelf's entries as text, built once per array (a kept shelf is the same array until read again). */
const entriesStamps = new WeakMap<readonly ShelfEntryKey[], string>();

function entriesStamp(entries: readonly ShelfEntryKey[]): string {
  let text = entriesStamps.get(entries);
  if (text === undefined) {
    text = entries.map((e) => `${e.book_id}.${e.created_at}`).join(',');
    entriesStamps.set(entries, text);
  }
  return text;
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
