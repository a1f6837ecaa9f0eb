import { invalid, notFound, OPDS_PAGE_SIZE } from '@readlib/contracts';
import {
  type BookRow,
  bookIdsWithValue,
  newestBookIds,
  popularValues,
  searchList,
  type ValueField,
} from '@readlib/data';
import { findBook } from '../book.service.js';
import type { CatalogView } from '../catalog-view.js';
import { categoryList, HOME_SIZES } from '../home.service.js';
import { hotIds } from '../pools.js';
import { type ReaderContext, syncCatalog } from '../reader-context.js';
import { logReaderSearch, search } from '../search.service.js';
import type {
  FeedKind,
  FeedPaging,
  FeedRef,
  NavigationEntry,
  OpdsFeed,
  OpdsFeedRequest,
  OpdsPlan,
} from './opds-feed.js';

const ROOT: FeedRef = { path: '', kind: 'navigation' };
const SORT_NEW = 'http://opds-spec.org/sort/new';
const SORT_POPULAR = 'http://opds-spec.org/sort/popular';
const enc = encodeURIComponent;

/**
 * How to answer an OPDS feed request, after bringing the catalogue memo to the committed
 * version: the caller keeps the rendered answer per catalogue version under `key`, so a feed page is
 * built once per version, as search-list pages are.
 */
export async function planOpdsFeed(ctx: ReaderContext, req: OpdsFeedRequest): Promise<OpdsPlan<OpdsFeed>> {
  const view = await syncCatalog(ctx);
  const byCatalogue = (key: string, build: () => Promise<OpdsFeed>): OpdsPlan<OpdsFeed> => ({
    key,
    view,
    build,
  });
  switch (req.feed) {
    case 'root':
      return byCatalogue('root', () => root(view));
    case 'new':
      return byCatalogue(`new:${req.page}`, () => newBooks(ctx, view, req.page));
    case 'popular':
      return popular(ctx, view, req.page);
    case 'categories':
      return byCatalogue('categories', () => categories(ctx));
    case 'category':
      return byCatalogue(`category:${req.id}:${req.page}`, () => category(ctx, view, req.id, req.page));
    case 'authors':
    case 'publishers': {
      const field: ValueField = req.feed === 'authors' ? 'author' : 'publisher';
      return byCatalogue(`${req.feed}:${req.page}`, () => values(ctx, field, req.page));
    }
    case 'author':
    case 'publisher':
      return byCatalogue(`${req.feed}:${req.page}:${req.name}`, () =>
        booksWithValue(ctx, view, req.feed, req.name, req.page),
      );
    case 'search': {
      const query = req.query.trim();
      if (!query) throw invalid('query must not be blank');
      return byCatalogue(`search:${req.page}:${query}`, () => searchFeed(ctx, view, query, req.page));
    }
  }
}

/** One book as an OPDS publication; a book with nothing to download is not one (404). */
export async function planOpdsPublication(ctx: ReaderContext, fileName: string): Promise<OpdsPlan<BookRow>> {
  const view = await syncCatalog(ctx);
  return {
    key: `publication:${fileName}`,
    view,
    build: async () => {
      const book = await findBook(view, fileName);
      if (!downloadable(book)) throw notFound('book');
      return book;
    },
  };
}

/**
 * An app's search is a reader's search: logged like one (hot searches, the word cloud), without an
 * openId. Only its first page: an app fetches the next pages as the reader scrolls the same search.
 */
export function logOpdsSearch(ctx: ReaderContext, query: string): Promise<void> {
  const keyword = query.trim();
  return keyword ? logReaderSearch(ctx, keyword, null) : Promise.resolve();
}

/**
 * A book an app can download: its stored EPUB, or the download address an operator gave a book created
 * without a file. Others are left out of the feeds: an OPDS acquisition entry must offer a download.
 */
export function downloadable(book: BookRow): boolean {
  return book.file_path !== '' || /^https?:\/\//i.test(book.url);
}

function root(view: CatalogView): Promise<OpdsFeed> {
  const nav = (name: string, title: string, kind: FeedKind, rel: string, about: string | number) => ({
    id: `urn:readlib:feed:${name}`,
    title,
    target: { path: `/${name}`, kind },
    rel,
    ...(typeof about === 'number' ? { count: about } : { summary: about }),
  });
  return Promise.resolve({
    id: 'urn:readlib:feed:root',
    title: 'Reading library',
    self: ROOT,
    navigation: [
      nav('new', 'New books', 'acquisition', SORT_NEW, view.bookCount),
      nav('popular', 'Popular books', 'acquisition', SORT_POPULAR, 'The most read of the last 30 days'),
      nav('categories', 'Categories', 'navigation', 'subsection', 'Every category with books'),
      nav('authors', 'Authors', 'navigation', 'subsection', 'Most books first'),
      nav('publishers', 'Publishers', 'navigation', 'subsection', 'Most books first'),
    ],
  });
}

/** Newest first: what an app shows as "new". */
async function newBooks(ctx: ReaderContext, view: CatalogView, page: number): Promise<OpdsFeed> {
  const window = pageWindow(page);
  const ids = window ? await newestBookIds(ctx.db, window) : [];
  return bookFeed(view, { id: 'new', title: 'New books', path: '/new' }, page, pageOf(ids));
}

/**
 * The ranking hotBook/v2 draws from (the most viewed books of 30 days, then of all time when the window
 * has too few), in its order. Views move it, not the catalogue version: the page's books are the
 * plan's variant.
 */
async function popular(ctx: ReaderContext, view: CatalogView, page: number): Promise<OpdsPlan<OpdsFeed>> {
  const ranked = await hotIds(ctx, view, HOME_SIZES.hotBook);
  const offset = (page - 1) * OPDS_PAGE_SIZE;
  const ids = ranked.slice(offset, offset + OPDS_PAGE_SIZE + 1);
  const variant = ids.join(',');
  return {
    key: `popular:${page}:${variant}`,
    variant,
    view,
    build: () =>
      bookFeed(view, { id: 'popular', title: 'Popular books', path: '/popular' }, page, pageOf(ids)),
  };
}

async function categories(ctx: ReaderContext): Promise<OpdsFeed> {
  const list = await categoryList(ctx);
  return {
    id: 'urn:readlib:feed:categories',
    title: 'Categories',
    self: { path: '/categories', kind: 'navigation' },
    up: ROOT,
    navigation: list.map((c) => ({
      id: `urn:readlib:category:${c.category}`,
      title: c.categoryText,
      target: { path: `/category?id=${c.category}`, kind: 'acquisition' },
      rel: 'subsection',
      count: c.num,
    })),
  };
}

/** A category's books in catalogue order (search-list's order), every book once across the pages. */
async function category(ctx: ReaderContext, view: CatalogView, id: number, page: number): Promise<OpdsFeed> {
  const found = (await categoryList(ctx)).find((c) => c.category === id);
  if (!found) throw notFound('category');
  const window = pageWindow(page);
  const rows = window ? await searchList(ctx.db, { categoryId: id }, window) : [];
  const feed = { id: `category:${id}`, title: found.categoryText, path: `/category?id=${id}` };
  const ids = pageOf(rows.map((r) => r.id));
  return bookFeed(view, feed, page, ids, { path: '/categories', kind: 'navigation' });
}

/** Authors or publishers, most books first (the order of the search facets), each leading to its books. */
async function values(ctx: ReaderContext, field: ValueField, page: number): Promise<OpdsFeed> {
  const window = pageWindow(page);
  const found = window ? await popularValues(ctx.db, field, window.limit, window.offset) : [];
  const name = `${field}s`;
  const navigation: NavigationEntry[] = found.slice(0, OPDS_PAGE_SIZE).map((v) => ({
    id: `urn:readlib:${field}:${enc(v.value)}`,
    title: v.value,
    target: { path: `/${field}?name=${enc(v.value)}`, kind: 'acquisition' },
    rel: 'subsection',
    count: v.n,
  }));
  return {
    id: `urn:readlib:feed:${name}:page:${page}`,
    title: field === 'author' ? 'Authors' : 'Publishers',
    self: { path: pagePath(`/${name}`, page), kind: 'navigation' },
    up: ROOT,
    navigation,
    paging: paging(`/${name}`, page, found.length > OPDS_PAGE_SIZE),
  };
}

/** The books of one author (or publisher) exactly as book_values lists it; unknown: 404. */
async function booksWithValue(
  ctx: ReaderContext,
  view: CatalogView,
  field: ValueField,
  name: string,
  page: number,
): Promise<OpdsFeed> {
  const window = pageWindow(page);
  const ids = window ? await bookIdsWithValue(ctx.db, field, name, window) : [];
  if (page === 1 && ids.length === 0) throw notFound(field);
  const feed = { id: `${field}:${enc(name)}`, title: name, path: `/${field}?name=${enc(name)}` };
  return bookFeed(view, feed, page, pageOf(ids), { path: `/${field}s`, kind: 'navigation' });
}

/**
 * The reader search's books (title matches first), through the same kept answers as /book/search. The
 * next page is asked for too, so `next` is offered only when it has books; it is then kept for the app.
 */
async function searchFeed(
  ctx: ReaderContext,
  view: CatalogView,
  query: string,
  page: number,
): Promise<OpdsFeed> {
  const input = { keyword: query, page, pageSize: OPDS_PAGE_SIZE };
  const found = pageWindow(page) ? (await search(ctx, input, false)).book : [];
  const hasNext =
    found.length === OPDS_PAGE_SIZE &&
    (await search(ctx, { ...input, page: page + 1 }, false)).book.length > 0;
  const feed = { id: `search:${enc(query)}`, title: `Search: ${query}`, path: `/search?query=${enc(query)}` };
  return bookFeed(view, feed, page, { ids: found.map((b) => b.id), hasNext });
}

/** The ids of a page read with one more (pageWindow): the page's own, and whether another follows. */
function pageOf(read: readonly number[]): { ids: readonly number[]; hasNext: boolean } {
  return { ids: read.slice(0, OPDS_PAGE_SIZE), hasNext: read.length > OPDS_PAGE_SIZE };
}

/**
 * An acquisition feed of one page of books. Books deleted since their ids were read, and books with
 * nothing to download, are left out.
 */
async function bookFeed(
  view: CatalogView,
  feed: { id: string; title: string; path: string },
  page: number,
  { ids, hasNext }: { ids: readonly number[]; hasNext: boolean },
  up: FeedRef = ROOT,
): Promise<OpdsFeed> {
  const rows = await view.booksByIds(ids);
  return {
    id: `urn:readlib:feed:${feed.id}:page:${page}`,
    title: feed.title,
    self: { path: pagePath(feed.path, page), kind: 'acquisition' },
    up,
    books: rows.filter(downloadable),
    paging: paging(feed.path, page, hasNext),
  };
}

function paging(path: string, page: number, hasNext: boolean): FeedPaging {
  return { page, size: OPDS_PAGE_SIZE, hasNext, pathOf: (n: number) => pagePath(path, n) };
}

/** Page 1 is the feed's own path; another page adds `page` to its query. */
function pagePath(path: string, page: number): string {
  if (page === 1) return path;
  return `${path}${path.includes('?') ? '&' : '?'}page=${page}`;
}

/**
 * The rows a page reads: its books and one more, which tells whether a next page exists. A page past
 * any catalogue (its offset beyond 2^53) reads nothing: the database would be handed an inexact number.
 */
function pageWindow(page: number): { offset: number; limit: number } | undefined {
  const offset = (page - 1) * OPDS_PAGE_SIZE;
  const limit = OPDS_PAGE_SIZE + 1;
  return Number.isSafeInteger(offset + limit) ? { offset, limit } : undefined;
}
