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
  bookIdsInCategories,
  categoryCounts,
  categoryCovers,
  engagedBookIds,
  hotKeywordsFromStats,
  randomBookIds,
  topKeywords,
  userCategoryAffinity,
} from '@readlib/data';
import { toBookSummary, toCategoryItem, toHotSearchItem } from '../book.mapper.js';
import type { PublicUrls } from '../urls.js';
import { shelfOf } from './kept-reads.js';
import { booksByIds, booksTopped, hotIds, randomRows, wellRatedIds, windowViewed } from './pools.js';
import {
  ACTIVITY_CACHE_TTL_MS,
  AFFINITY_CACHE_TTL_MS,
  CATALOG_CACHE_PREFIX,
  CATALOG_CACHE_TTL_MS,
  cached,
  HOT_WINDOW_MS,
  type ReaderContext,
  syncCatalog,
} from './reader-context.js';
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
  const [user, synced] = await Promise.all([openId ? findUserKey(ctx, openId) : undefined, syncCatalog(ctx)]);
  // the whole shelf in one read serves its newest books, its size and the recommendation's exclusions
  const entries = user ? await shelfOf(ctx, user.id, synced) : [];
  const onShelf = new Set(entries.map((e) => e.book_id));
  const newest = entries.slice(0, HOME_SIZES.shelf).map((e) => e.book_id);
  const [shelf, recommend, freeRead, hotBook, category, hotSearch] = await Promise.all([
    // a book deleted since it was shelved is left out, as the shelf leaves it out
    user ? booksByIds(ctx, newest) : [],
    user ? recommendFor(ctx, user.id, onShelf) : wellRatedBatch(ctx),
    homeFreeRead(ctx),
    topHotBooks(ctx),
    categoryListSynced(ctx),
    topSearch(ctx),
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
  const categories = home.category.map((c) => c.category);
  await ctx.catalog?.newestListsOf(ctx.db, categories, PER_CATEGORY_POOL);
}

/** userCategoryAffinity, counted in memory from the engaged books' ids once every book's category is. */
async function likedCategories(ctx: ReaderContext, userId: number): Promise<number[]> {
  const index = ctx.catalog?.categories;
  if (index?.ready(ctx.db)) {
    const ids = await engagedBookIds(ctx.db, userId);
    // the memo may have forgotten everything meanwhile (a change past its log): then ask SQL
    if (index.ready(ctx.db)) return index.topCategories(ids, 3);
  }
  return userCategoryAffinity(ctx.db, userId, 3);
}

/** Favours the categories the user engaged with, never a book already on their shelf. */
async function recommendFor(
  ctx: ReaderContext,
  userId: number,
  onShelf: ReadonlySet<number>,
): Promise<BookRow[]> {
  const k = HOME_SIZES.recommend;
  const categories = await cached(ctx, `user:${userId}:affinity`, AFFINITY_CACHE_TTL_MS, () =>
    likedCategories(ctx, userId),
  );
  const newest = ctx.catalog
    ? await ctx.catalog.newestListsOf(ctx.db, categories, PER_CATEGORY_POOL)
    : [await bookIdsInCategories(ctx.db, categories, PER_CATEGORY_POOL)];
  const picked = sampleFromLists(newest, k, onShelf);
  if (picked.length < k) {
    const pool = (await wellRatedIds(ctx)).filter((id) => !onShelf.has(id) && !picked.includes(id));
    picked.push(...sample(pool, k - picked.length));
  }
  return booksTopped(ctx, picked, k, onShelf);
}

/** recommend/v2: a uniform draw from the well-rated and popular pool, topped up at random. */
export async function recommendBatch(ctx: ReaderContext): Promise<BookSummary[]> {
  await syncCatalog(ctx);
  return (await wellRatedBatch(ctx)).map((r) => toBookSummary(r, ctx.urls));
}

async function wellRatedBatch(ctx: ReaderContext): Promise<BookRow[]> {
  const k = HOME_SIZES.recommend;
  return booksTopped(ctx, sample(await wellRatedIds(ctx), k), k);
}

/** freeRead/v2: a uniform draw from the whole catalogue. */
export async function freeReadBatch(ctx: ReaderContext): Promise<BookSummary[]> {
  await syncCatalog(ctx);
  return (await randomRows(ctx, HOME_SIZES.freeRead)).map((r) => toBookSummary(r, ctx.urls));
}

/**
 * Home: 4 books drawn from 64 drawn uniformly from the whole catalogue once a minute (and again after
 * every catalogue change). A draw from the whole catalogue per home page read 4 rows the memo seldom
 * held (it keeps a fifth of 100k books) and pushed other readers' books out of it. freeRead/v2, the
 * "another batch" button, still draws from the whole catalogue (decisions.md §3).
 */
async function homeFreeRead(ctx: ReaderContext): Promise<BookRow[]> {
  const catalog = ctx.catalog;
  if (!catalog) return randomRows(ctx, HOME_SIZES.freeRead);
  const k = HOME_SIZES.freeRead;
  const round = Math.floor(ctx.now() / FREE_READ_ROUND_MS);
  const pool = await catalog.answer(`home:freeRead:${round}`, () =>
    randomBookIds(ctx.db, FREE_READ_POOL, new Set(), catalog.bookCount),
  );
  // a book deleted since the pool was drawn is replaced by a uniform draw from the catalogue
  return booksTopped(ctx, sample(pool, k), k);
}

/** Home: the most viewed books themselves, in order. */
async function topHotBooks(ctx: ReaderContext): Promise<BookRow[]> {
  const k = HOME_SIZES.hotBook;
  return booksTopped(ctx, (await hotIds(ctx, k)).slice(0, k), k);
}

/** hotBook/v2: a uniform draw from the most viewed pool. */
export async function hotBookBatch(ctx: ReaderContext): Promise<BookSummary[]> {
  await syncCatalog(ctx);
  const k = HOME_SIZES.hotBook;
  const rows = await booksTopped(ctx, sample(await hotIds(ctx, k), k), k);
  return rows.map((r) => toBookSummary(r, ctx.urls));
}

/**
 * Every non-empty category with its count and two covers. Counting scans the (category_id, id) index,
 * so the list is cached under CATALOG_CACHE_PREFIX, which every book write invalidates.
 */
export async function categoryList(ctx: ReaderContext): Promise<CategoryItem[]> {
  await syncCatalog(ctx);
  return categoryListSynced(ctx);
}

async function categoryListSynced(ctx: ReaderContext): Promise<CategoryItem[]> {
  // every home page comes here: the read is passed inline, not named (tsx names a named arrow as it is
  // made, ~0.3 µs)
  return ctx.cache
    ? ctx.cache.wrap(`${CATALOG_CACHE_PREFIX}categories`, CATALOG_CACHE_TTL_MS, () => readCategoryList(ctx))
    : readCategoryList(ctx);
}

async function readCategoryList(ctx: ReaderContext): Promise<CategoryItem[]> {
  const [counts, covers] = await Promise.all([categoryCounts(ctx.db), categoryCovers(ctx.db)]);
  return counts.filter((c) => c.num > 0).map((c) => toCategoryItem(c, covers.get(c.id) ?? [], ctx.urls));
}

/** The most searched keyword of the window, from the maintained per-keyword counts (search_stats). */
async function topSearch(ctx: ReaderContext): Promise<HotSearch> {
  const since = ctx.now() - HOT_WINDOW_MS;
  const [top] = await cached(
    ctx,
    'activity:keyword',
    ACTIVITY_CACHE_TTL_MS,
    async () => (await hotKeywordsFromStats(ctx.db, since, 1)) ?? (await topKeywords(ctx.db, since, 1)),
  );
  return top ? { num: top.count, keyword: top.keyword } : { num: 0, keyword: '' };
}

/** GET /book/hot-search: the 10 most viewed books of the last 30 days, no fill (it is a ranking). */
export async function hotSearchList(ctx: ReaderContext): Promise<HotSearchItem[]> {
  const [top] = await Promise.all([windowViewed(ctx, HOT_SEARCH_LIST), syncCatalog(ctx)]);
  return (
    await booksByIds(
      ctx,
      top.map((t) => t.bookId),
    )
  ).map(toHotSearchItem);
}
