import type { Banner } from '@readlib/contracts';
import type { CatalogView } from './catalog-view.js';
import { warmHome } from './home.service.js';
import { type ReaderContext, syncCatalog } from './reader-context.js';

/** What a warm-up built, for the start-up log. */
export interface WarmUpReport {
  ms: number;
  /** books in the catalogue at the version warmed */
  books: number;
  /** every book's category is in memory (liked categories are counted there, not joined in SQL) */
  categoriesIndexed: boolean;
  /** author and publisher values the search facets hold in memory */
  authors: number;
  publishers: number;
}

/**
 * Builds what a reader process otherwise builds on its first requests, so it can be done before the
 * process takes any: the catalogue's version, every book's category, the most frequent authors
 * and publishers, and what home pages share (category list, hot lists, pools, newest books of each
 * category). A reader started cold spends many times the CPU of a warm one on its first seconds of
 * home pages; warming costs a little more time before it listens (`bench:cold` measures both). What
 * depends on the
 * reader (their shelf, liked categories) is still read on their first request.
 */
export async function warmReader(ctx: ReaderContext, banner: Banner): Promise<WarmUpReport> {
  const started = performance.now();
  const view = await syncCatalog(ctx);
  const [categoriesIndexed] = await Promise.all([
    view.bookCategories.whenReady(ctx.db),
    popularValuesOf(ctx, view),
    warmHome(ctx, banner),
  ]);
  return {
    ms: Math.round(performance.now() - started),
    books: view.bookCount,
    categoriesIndexed,
    authors: view.popular.get(ctx.db, 'author')?.values.length ?? 0,
    publishers: view.popular.get(ctx.db, 'publisher')?.values.length ?? 0,
  };
}

async function popularValuesOf(ctx: ReaderContext, view: CatalogView): Promise<void> {
  view.popular.get(ctx.db, 'author');
  view.popular.get(ctx.db, 'publisher');
  await view.popular.settled();
}
