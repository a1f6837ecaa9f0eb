import { type BookRow, findBooksByIds, randomBooks, topRatedBookIds, topViewedBookIds } from '@readlib/data';
import { HOT_WINDOW_MS, type ReaderContext } from './reader-context.js';

/** How many candidates a pool holds before a batch is drawn from it. */
export const POOL_SIZE = 100;

/** Most viewed books of the last 30 days, then all-time ones when the window has fewer than `want`. */
export async function hotIds(ctx: ReaderContext, want: number, poolSize = POOL_SIZE): Promise<number[]> {
  const windowed = await topViewedBookIds(ctx.db, ctx.now() - HOT_WINDOW_MS, poolSize);
  const ids = windowed.map((v) => v.bookId);
  if (ids.length >= want) return ids;
  const allTime = await topViewedBookIds(ctx.db, 0, poolSize);
  return unique([...ids, ...allTime.map((v) => v.bookId)]);
}

/** Well-rated and popular books: the non-personal recommendation pool. */
export async function wellRatedIds(ctx: ReaderContext, poolSize = POOL_SIZE): Promise<number[]> {
  const [rated, viewed] = await Promise.all([
    topRatedBookIds(ctx.db, poolSize),
    topViewedBookIds(ctx.db, ctx.now() - HOT_WINDOW_MS, poolSize),
  ]);
  return unique([...rated, ...viewed.map((v) => v.bookId)]);
}

/**
 * Books of the given ids, topped up with uniformly random other books so a batch is never short while
 * the catalogue has enough books (decisions.md §3).
 */
export async function booksTopped(
  ctx: ReaderContext,
  ids: number[],
  k: number,
  exclude: ReadonlySet<number> = new Set(),
): Promise<BookRow[]> {
  const rows = (await findBooksByIds(ctx.db, ids)).filter((r) => !exclude.has(r.id)).slice(0, k);
  if (rows.length >= k) return rows;
  const taken = new Set([...exclude, ...rows.map((r) => r.id)]);
  return [...rows, ...(await randomBooks(ctx.db, k - rows.length, taken))];
}

export function unique(ids: number[]): number[] {
  return [...new Set(ids)];
}
