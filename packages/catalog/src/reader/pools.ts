import {
  allTimeViewedBookIds,
  type BookRow,
  hotBookIdsFromStats,
  randomBookIds,
  topViewedBookIds,
  wellRatedBookIds,
} from '@readlib/data';
import { HOT_WINDOW_MS, type ReaderContext } from './reader-context.js';
import type { CatalogView } from './reader-keeps.js';

/** How many candidates a pool holds before a batch is drawn from it. */
export const POOL_SIZE = 100;

/** Most viewed books of the last 30 days, then all-time ones when the window has fewer than `want`. */
export async function hotIds(
  ctx: ReaderContext,
  view: CatalogView,
  want: number,
  poolSize = POOL_SIZE,
): Promise<number[]> {
  const windowed = await windowViewed(ctx, view, poolSize);
  const ids = windowed.map((v) => v.bookId);
  if (ids.length >= want) return ids;
  const allTime = await allTimeViewedBookIds(ctx.db, poolSize);
  return unique([...ids, ...allTime.map((v) => v.bookId)]);
}

/**
 * Most viewed books of the last 30 days, read from the maintained per-book counts (book_stats); the
 * view log is aggregated only when the clock went back before the maintained window.
 */
export function windowViewed(ctx: ReaderContext, view: CatalogView, limit: number) {
  return view.activity(`hot:${limit}`, async () => {
    const since = ctx.now() - HOT_WINDOW_MS;
    return (
      (await hotBookIdsFromStats(ctx.db, since, limit)) ?? (await topViewedBookIds(ctx.db, since, limit))
    );
  });
}

/** Well-rated and popular books: the non-personal recommendation pool. */
export async function wellRatedIds(
  ctx: ReaderContext,
  view: CatalogView,
  poolSize = POOL_SIZE,
): Promise<number[]> {
  const [rated, viewed] = await Promise.all([
    view.activity(`rated:${poolSize}`, () => wellRatedBookIds(ctx.db, poolSize)),
    windowViewed(ctx, view, poolSize),
  ]);
  return unique([...rated, ...viewed.map((v) => v.bookId)]);
}

/**
 * Books of the given ids, topped up with uniformly random other books so a batch is never short while
 * the catalogue has enough books (decisions.md §3).
 */
export async function booksTopped(
  view: CatalogView,
  ids: number[],
  k: number,
  exclude: ReadonlySet<number> = new Set(),
): Promise<BookRow[]> {
  const rows = (await view.booksByIds(ids)).filter((r) => !exclude.has(r.id)).slice(0, k);
  if (rows.length >= k) return rows;
  const taken = new Set([...exclude, ...rows.map((r) => r.id)]);
  return [...rows, ...(await randomRows(view, k - rows.length, taken))];
}

/**
 * k books drawn uniformly from the catalogue (randomBookIds), their rows through the view. A book
 * deleted between the draw and the read is replaced by another draw, so the batch is not short.
 */
export async function randomRows(
  view: CatalogView,
  k: number,
  exclude: ReadonlySet<number> = new Set(),
): Promise<BookRow[]> {
  const rows: BookRow[] = [];
  const taken = new Set(exclude);
  for (let attempt = 0; rows.length < k && attempt < 3; attempt++) {
    const ids = await randomBookIds(view.db, k - rows.length, taken, view.bookCount);
    if (ids.length === 0) break;
    for (const id of ids) taken.add(id);
    rows.push(...(await view.booksByIds(ids)));
  }
  return rows;
}

export function unique(ids: number[]): number[] {
  return [...new Set(ids)];
}
