import type {
  Banner,
  BookSummary,
  CategoryItem,
  HomeData,
  HotSearch,
  HotSearchItem,
} from '@readlib/contracts';
import {
  type BookRow,
  categoriesOfBooks,
  categoryCounts,
  categoryCovers,
  engagedBookIds,
  hotKeywordsFromStats,
  randomBookIds,
  topKeywordCounts,
} from '@readlib/data';
import { toBookSummary, toCategoryItem, toHotSearchItem } from '../book.mapper.js';
import type { PublicUrls } from '../urls.js';
import type { CatalogView } from './catalog-view.js';
import { shelfOf } from './kept-reads.js';
import { topCategories } from './liked-categories.js';
import { booksTopped, hotIds, randomRows, wellRatedIds, windowViewed } from './pools.js';
import { HOT_WINDOW_MS, type ReaderContext, syncCatalog } from './reader-context.js';
import { KEEP_BOUNDS } from './reader-keeps.js';
import { sample, sampleFromLists } from './sample.js';
import { findUserKey } from './user.service.js';

/** Sizes of the home sections; the "another batch" endpoints answer the same sizes (they refill a section). */
export const HOME_SIZES = { shelf: 3, recommend: 3, freeRead: 4, hotBook: 4 } as const;
const HOT_SEARCH_LIST = 10;
/** Books the home page's freeRead draws from, drawn anew every round and with every catalogue change. */
export const FREE_READ_POOL = 64;
export const FREE_READ_ROUND_MS = 60_000;
/** Newest books per liked category considered for a personal recommendation. */
const PER_CATEGORY_POOL = 200;
/** How many liked categories a personal recommendation draws from. */
const LIKED_CATEGORIES = 3;

/** A home page whose books are still rows: the route serialises each row once (HomeData otherwise). */
export interface HomeRows extends Omit<HomeData, 'shelf' | 'recommend' | 'freeRead' | 'hotBook'> {
  shelf: BookRow[];
  recommend: BookRow[];
  freeRead: BookRow[];
  hotBook: BookRow[];
}

/** The home page as the contract has it (the route sends the same from kept parts). */
export function toHomeData(home: HomeRows, urls: PublicUrls): HomeData {
  const books = (rows: BookRow[]) => rows.map((r) => toBookSummary(r, urls));
  return {
    ...home,
    shelf: books(home.shelf),
    recommend: books(home.recommend),
    freeRead: books(home.freeRead),
    hotBook: books(home.hotBook),
  };
}

/** The home page of `openId`; without one, the page every unregistered reader gets. */
export async function homeRows(
  ctx: ReaderContext,
  openId: string | undefined,
  banner: Banner,
): Promise<HomeRows> {
  const [user, view] = await Promise.all([openId ? findUserKey(ctx, openId) : undefined, syncCatalog(ctx)]);
  // the whole shelf in one read serves its newest books, its size and the recommendation's exclusions
  const entries = user ? (await shelfOf(ctx, view, user.id)).entries : [];
  const onShelf = new Set(entries.map((e) => e.book_id));
  const newest = entries.slice(0, HOME_SIZES.shelf).map((e) => e.book_id);
  const [shelf, recommend, freeRead, hotBook, category, hotSearch] = await Promise.all([
    // a book deleted since it was shelved is left out, as the shelf leaves it out
    user ? view.booksByIds(newest) : [],
    user ? recommendFor(ctx, view, user.id, onShelf) : wellRatedBatch(ctx, view),
    homeFreeRead(ctx, view),
    topHotBooks(ctx, view),
    categoryListOf(ctx, view),
    topSearch(ctx, view),
  ]);
  return { hotSearch, shelf, recommend, freeRead, hotBook, category, banner, shelfCount: entries.length };
}

/**
 * What home pages share, built ahead of the first reader (warmReader): the unregistered reader's page
 * (category list, hot lists, pools) and the newest books of every category, from which registered
 * readers' recommendations are drawn.
 */
export async function warmHome(ctx: ReaderContext, banner: Banner): Promise<void> {
  const home = await homeRows(ctx, undefined, banner);
  const view = await syncCatalog(ctx);
  const lists = await view.newestListsOf(
    home.category.map((c) => c.category),
    PER_CATEGORY_POOL,
  );
  // and their books' rows: a recommendation draws 3 of a reader's 600 candidates, so without them
  // most home pages read a row or two for long after the start (a round trip each on PostgreSQL). In
  // reads of a bounded size, and no more than half the rows the process keeps (many categories)
  const ids = lists.flat().slice(0, KEEP_BOUNDS.books / 2);
  for (let i = 0; i < ids.length; i += PREFETCH_READ) await view.booksByIds(ids.slice(i, i + PREFETCH_READ));
}

/** Book rows read by one statement when rows are read ahead (well under SQLite's bound of parameters). */
const PREFETCH_READ = 500;

/**
 * The categories a reader engaged with most (their liked categories): each book they engaged with
 * counted in its category, from every book's category in memory once loaded, from the database before.
 */
async function likedCategories(ctx: ReaderContext, view: CatalogView, userId: number): Promise<number[]> {
  const ids = await engagedBookIds(ctx.db, userId);
  const index = view.bookCategories;
  if (index.ready(ctx.db)) return topCategories(ids, (id) => index.of(id), LIKED_CATEGORIES);
  const known = await categoriesOfBooks(ctx.db, ids);
  return topCategories(ids, (id) => known.get(id), LIKED_CATEGORIES);
}

/** Favours the categories the user engaged with, never a book already on their shelf. */
async function recommendFor(
  ctx: ReaderContext,
  view: CatalogView,
  userId: number,
  onShelf: ReadonlySet<number>,
): Promise<BookRow[]> {
  const k = HOME_SIZES.recommend;
  const categories = await view.likedCategories(userId, () => likedCategories(ctx, view, userId));
  const newest = await view.newestListsOf(categories, PER_CATEGORY_POOL);
  const picked = sampleFromLists(newest, k, onShelf);
  if (picked.length < k) {
    const pool = (await wellRatedIds(ctx, view)).filter((id) => !onShelf.has(id) && !picked.includes(id));
    picked.push(...sample(pool, k - picked.length));
  }
  return booksTopped(view, picked, k, onShelf);
}

/** recommend/v2: a uniform draw from the well-rated and popular pool, topped up at random. */
export async function recommendBatch(ctx: ReaderContext): Promise<BookSummary[]> {
  const view = await syncCatalog(ctx);
  return (await wellRatedBatch(ctx, view)).map((r) => toBookSummary(r, ctx.urls));
}

async function wellRatedBatch(ctx: ReaderContext, view: CatalogView): Promise<BookRow[]> {
  const k = HOME_SIZES.recommend;
  return booksTopped(view, sample(await wellRatedIds(ctx, view), k), k);
}

/** freeRead/v2: a uniform draw from the whole catalogue. */
export async function freeReadBatch(ctx: ReaderContext): Promise<BookSummary[]> {
  const view = await syncCatalog(ctx);
  return (await randomRows(view, HOME_SIZES.freeRead)).map((r) => toBookSummary(r, ctx.urls));
}

/**
 * Home: 4 books drawn from 64 drawn uniformly from the whole catalogue once a minute (and again after
 * every catalogue change). A draw from the whole catalogue per home page would read 4 rows the keep
 * seldom holds (it keeps a fifth of 100k books) and push other readers' books out of it. freeRead/v2,
 * the "another batch" button, still draws from the whole catalogue (decisions.md §3).
 */
async function homeFreeRead(ctx: ReaderContext, view: CatalogView): Promise<BookRow[]> {
  const k = HOME_SIZES.freeRead;
  const round = Math.floor(ctx.now() / FREE_READ_ROUND_MS);
  const pool = await view.answer(`home:freeRead:${round}`, async () => {
    const ids = await randomBookIds(ctx.db, FREE_READ_POOL, new Set(), view.bookCount);
    // the pool's rows in one read, rather than the first home pages of the minute reading a few each
    await view.booksByIds(ids);
    return ids;
  });
  // a book deleted since the pool was drawn is replaced by a uniform draw from the catalogue
  return booksTopped(view, sample(pool, k), k);
}

/** Home: the most viewed books themselves, in order. */
async function topHotBooks(ctx: ReaderContext, view: CatalogView): Promise<BookRow[]> {
  const k = HOME_SIZES.hotBook;
  return booksTopped(view, (await hotIds(ctx, view, k)).slice(0, k), k);
}

/** hotBook/v2: a uniform draw from the most viewed pool. */
export async function hotBookBatch(ctx: ReaderContext): Promise<BookSummary[]> {
  const view = await syncCatalog(ctx);
  const k = HOME_SIZES.hotBook;
  const rows = await booksTopped(view, sample(await hotIds(ctx, view, k), k), k);
  return rows.map((r) => toBookSummary(r, ctx.urls));
}

/** Every non-empty category with its count and two covers (kept per catalogue version). */
export async function categoryList(ctx: ReaderContext): Promise<CategoryItem[]> {
  return categoryListOf(ctx, await syncCatalog(ctx));
}

function categoryListOf(ctx: ReaderContext, view: CatalogView): Promise<CategoryItem[]> {
  return view.categoryList(async () => {
    const [counts, covers] = await Promise.all([categoryCounts(ctx.db), categoryCovers(ctx.db)]);
    return counts.filter((c) => c.num > 0).map((c) => toCategoryItem(c, covers.get(c.id) ?? [], ctx.urls));
  });
}

/** The most searched keyword of the window, from the maintained per-keyword counts (search_stats). */
async function topSearch(ctx: ReaderContext, view: CatalogView): Promise<HotSearch> {
  const since = ctx.now() - HOT_WINDOW_MS;
  const [top] = await view.activity(
    'keyword',
    async () => (await hotKeywordsFromStats(ctx.db, since, 1)) ?? (await topKeywordCounts(ctx.db, since, 1)),
  );
  return top ? { num: top.count, keyword: top.keyword } : { num: 0, keyword: '' };
}

/** GET /book/hot-search: the 10 most viewed books of the last 30 days, no fill (it is a ranking). */
export async function hotSearchList(ctx: ReaderContext): Promise<HotSearchItem[]> {
  const view = await syncCatalog(ctx);
  const top = await windowViewed(ctx, view, HOT_SEARCH_LIST);
  return (await view.booksByIds(top.map((t) => t.bookId))).map(toHotSearchItem);
}
