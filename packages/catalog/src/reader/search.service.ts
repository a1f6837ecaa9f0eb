import {
  type BookSummary,
  hasSearchListFilter,
  invalid,
  PAGE_SIZE_DEFAULT,
  type SearchListQuery,
  type SearchResult,
} from '@readlib/contracts';
import {
  categoryCounts,
  categoryIdsIn,
  foldedCategoryNames,
  logSearches,
  MergedWrite,
  type SearchListFilter,
  type SearchLogEntry,
  searchBooks,
  searchFacet,
  searchList,
  type Writes,
} from '@readlib/data';
import { toBookSummary } from '../book.mapper.js';
import { givenText } from '../filters.js';
import { paging } from '../paging.js';
import type { CatalogView } from './catalog-view.js';
import { type ReaderContext, syncCatalog } from './reader-context.js';

const GROUP_MAX = 10;

export interface SearchInput {
  keyword: string;
  openId?: string | undefined;
  page?: number | undefined;
  pageSize?: number | undefined;
}

/**
 * Keyword search over title, author, publisher and category name; every search is logged (decisions.md §3),
 * behind its answer (logReaderSearch).
 * The answer depends on the catalogue alone, so it is kept for its catalogue version, which a book
 * write in any process moves: a keyword searched again (readers search the same few words) is answered
 * without its index queries until the catalogue changes. The log is
 * written for every search, except with `log: false` (a HEAD request, which searches nothing for a reader).
 */
export async function search(ctx: ReaderContext, input: SearchInput, log = true): Promise<SearchResult> {
  const keyword = input.keyword.trim();
  if (!keyword) throw invalid('keyword must not be blank');
  const view = await syncCatalog(ctx);
  const page = paging(input.page, input.pageSize);
  const compute = () => answer(ctx, view, keyword, page);
  // pages of the default size or less: a page of 100 would hold five times the memory per answer
  const [result] = await Promise.all([
    page.limit <= PAGE_SIZE_DEFAULT
      ? view.answer(`search:${page.offset}:${page.limit}:${keyword}`, compute)
      : compute(),
    log ? logReaderSearch(ctx, keyword, input.openId || null) : undefined,
  ]);
  return result;
}

/** The searches of a moment, logged by one write: their rows in one insert, each keyword counted once. */
const searchLog = new MergedWrite<SearchLogEntry>(logSearches);

/**
 * Search lines handed to a Writes and not yet committed, past which a search waits for its own: a
 * database slower than the searches keeps a bounded queue, and its pace reaches the readers.
 */
export const SEARCH_LOGS_PENDING_MAX = 1_000;
const pendingLogs = new WeakMap<Writes, number>();

/**
 * Logs a reader's (or an app's) search. The answer does not wait for the line: it commits with the
 * others of its moment right after (hot searches and the word cloud count the last 30 days, hot
 * searches re-read every few seconds), a stop drains it (the app's onClose), and a line that fails is
 * reported and does not fail the search. While SEARCH_LOGS_PENDING_MAX lines wait, the next search's
 * promise is its own line's: it waits for the line, and fails with it.
 */
export function logReaderSearch(ctx: ReaderContext, keyword: string, openId: string | null): Promise<void> {
  const written = searchLog.add(ctx.writes, { keyword, openId, at: ctx.now() });
  const pending = pendingLogs.get(ctx.writes) ?? 0;
  if (pending >= SEARCH_LOGS_PENDING_MAX) return written;
  pendingLogs.set(ctx.writes, pending + 1);
  const settled = () => pendingLogs.set(ctx.writes, (pendingLogs.get(ctx.writes) ?? 1) - 1);
  written.then(settled, (err) => {
    settled();
    ctx.reportError(err, 'search not logged');
  });
  return Promise.resolve();
}

async function answer(
  ctx: ReaderContext,
  view: CatalogView,
  keyword: string,
  page: { offset: number; limit: number },
): Promise<SearchResult> {
  // category names change only with the catalogue (a new category comes with its first book): kept
  // for its version instead of every search reading and folding the table
  const names = await view.answer('category-names', () => foldedCategoryNames(ctx.db));
  const categoryIds = categoryIdsIn(names, keyword);
  const [books, authors, publishers, categories] = await Promise.all([
    searchBooks(ctx.db, keyword, page, categoryIds),
    facet(ctx, view, keyword, 'author'),
    facet(ctx, view, keyword, 'publisher'),
    matchingCategories(ctx, view, categoryIds),
  ]);
  return {
    author: authors.map((a) => ({ author: a.value })),
    // an empty category would lead the reader to an empty list
    category: categories.filter((c) => c.n > 0).map((c) => ({ category: c.id, categoryText: c.name })),
    publisher: publishers.map((p) => ({ publisher: p.value })),
    book: books.map((b) => toBookSummary(b, ctx.urls)),
  };
}

/**
 * The author or publisher values containing the keyword, most books first. A common keyword is answered
 * from the most frequent values kept in memory (the index query sorts every matching value, tens of
 * thousands at a large catalogue); when those hold fewer than GROUP_MAX matches and are not all the values, the index
 * answers, as it does until the values of the current facet version are read. The kept values are a
 * prefix of the facets' order, so their first matches are the index's.
 */
async function facet(ctx: ReaderContext, view: CatalogView, keyword: string, field: 'author' | 'publisher') {
  const popular = view.popular.get(ctx.db, field);
  if (popular) {
    const hits = popular.matcher.matches(keyword, GROUP_MAX).map((i) => popular.values[i]!);
    if (hits.length === GROUP_MAX || popular.complete) return hits;
  }
  return searchFacet(ctx.db, keyword, field, GROUP_MAX);
}

/**
 * Categories whose name contains the keyword (matched in the database by the caller), most books
 * first: the counts come from the per-category counts every book write invalidates (no count per search).
 */
async function matchingCategories(ctx: ReaderContext, view: CatalogView, ids: number[]) {
  const all = await view.categoryCounts(() => categoryCounts(ctx.db));
  const wanted = new Set(ids);
  return all
    .filter((c) => wanted.has(c.id))
    .map((c) => ({ id: c.id, name: c.name, n: c.num }))
    .sort((a, b) => b.n - a.n || a.id - b.id)
    .slice(0, GROUP_MAX);
}

/**
 * Filters sent are combined with AND; blank ones count as not sent; none sent is error_code 2. Like a
 * search, a page depends on the catalogue alone: pages of the default size or less are kept for
 * their catalogue version (a category's first pages are read by every reader who opens it).
 */
export async function listBooks(ctx: ReaderContext, query: SearchListQuery): Promise<BookSummary[]> {
  if (!hasSearchListFilter(query))
    throw invalid('send at least one of publisher, author, category, categoryId');
  const filter: SearchListFilter = {};
  const publisher = givenText(query.publisher);
  const author = givenText(query.author);
  const category = givenText(query.category);
  const categoryId = givenText(query.categoryId);
  if (publisher) filter.publisher = publisher;
  if (author) filter.author = author;
  if (category) filter.category = category;
  if (categoryId) {
    // ids are 32-bit integers: anything else names no category (PostgreSQL would refuse it with a 500)
    const id = Number(categoryId);
    if (!Number.isInteger(id) || id < 0 || id > 2_147_483_647) return [];
    filter.categoryId = id;
  }
  const page = paging(query.page, query.pageSize);
  const compute = async () => (await searchList(ctx.db, filter, page)).map((r) => toBookSummary(r, ctx.urls));
  const view = await syncCatalog(ctx);
  // the filter's keys are set in one order above: equal filters, equal keys
  return page.limit <= PAGE_SIZE_DEFAULT
    ? view.answer(`list:${page.offset}:${page.limit}:${JSON.stringify(filter)}`, compute)
    : compute();
}
