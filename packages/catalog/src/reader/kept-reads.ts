import { type BookStats, bookStats, shelfEntries } from '@readlib/data';
import { CommitMemo } from './commit-memo.js';
import type { ReaderContext } from './reader-context.js';

/** Users whose whole shelf (book ids and times, ~10 entries) is kept; books whose counts are. */
export const KEPT_SHELVES = 10_000;
export const KEPT_BOOK_STATS = 20_000;
/** Longer shelves are read every time: the memory bound stays ~10,000 × 500 × ~40 bytes. */
export const KEPT_SHELF_MAX_ENTRIES = 500;

export type ShelfEntryKey = Readonly<{ book_id: number; created_at: number }>;

/**
 * The per-request reads of shelf, home and detail that come back the same while nothing is committed:
 * with a commit-stamped memo (SQLite) a shelf or an anonymous detail asked again reads nothing.
 */
export class KeptReads {
  readonly shelves = new CommitMemo<number, readonly ShelfEntryKey[]>(
    KEPT_SHELVES,
    (entries) => entries.length <= KEPT_SHELF_MAX_ENTRIES,
  );
  readonly stats = new CommitMemo<number, BookStats>(KEPT_BOOK_STATS);
}

/** The user's whole shelf, newest first; `stamp` as CommitMemo.read takes it (syncCatalog's). */
export function shelfOf(
  ctx: ReaderContext,
  userId: number,
  stamp: number | undefined,
): Promise<readonly ShelfEntryKey[]> {
  const read = () => shelfEntries(ctx.db, userId);
  return ctx.kept ? ctx.kept.shelves.read(userId, stamp, read) : read();
}

/** The book's views, readers and ratings; `stamp` as for shelfOf. */
export function statsOf(ctx: ReaderContext, bookId: number, stamp: number | undefined): Promise<BookStats> {
  const read = () => bookStats(ctx.db, bookId);
  return ctx.kept ? ctx.kept.stats.read(bookId, stamp, read) : read();
}
