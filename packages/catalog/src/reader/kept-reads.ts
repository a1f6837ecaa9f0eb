import { READERS_MAX } from '@readlib/contracts';
import {
  type BookStats,
  bookStats,
  findUserProfiles,
  type ReaderKeyRow,
  type ReaderRow,
  recentReaderKeys,
  shelfEntries,
} from '@readlib/data';
import type { CatalogView, KeptShelf, ShelfEntryKey } from './catalog-view.js';
import type { ReaderContext } from './reader-context.js';

/** The user's whole shelf, newest first, with its entries as text (kept until the next commit). */
export function shelfOf(ctx: ReaderContext, view: CatalogView, userId: number): Promise<KeptShelf> {
  return view.shelf(userId, async () => {
    const entries: readonly ShelfEntryKey[] = await shelfEntries(ctx.db, userId);
    return { entries, tag: entries.map((e) => `${e.book_id}.${e.created_at}`).join(',') };
  });
}

/** The book's views, readers and ratings (kept until the next commit). */
export function statsOf(ctx: ReaderContext, view: CatalogView, bookId: number): Promise<BookStats> {
  return view.stats(bookId, () => bookStats(ctx.db, bookId));
}

/**
 * The book's most recent distinct readers, newest first: their ids from the readers' index (or `known`,
 * when a view's write read them already), their nicknames and avatars kept until a registration
 * changes one (the profiles version).
 */
export async function readersOf(
  ctx: ReaderContext,
  view: CatalogView,
  bookId: number,
  known?: readonly ReaderKeyRow[],
): Promise<ReaderRow[]> {
  const keys = known ?? (await recentReaderKeys(ctx.db, bookId, READERS_MAX));
  const profiles = await view.profiles(
    keys.map((k) => k.user_id),
    (missing) => findUserProfiles(ctx.db, missing),
  );
  const readers: ReaderRow[] = [];
  for (const k of keys) {
    const p = profiles.get(k.user_id);
    if (p)
      readers.push({ avatar_url: p.avatar_url, nick_name: p.nick_name, last_viewed_at: k.last_viewed_at });
  }
  return readers;
}
