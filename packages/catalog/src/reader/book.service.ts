import type { BookContents, BookDetail } from '@readlib/contracts';
import { notFound, READERS_MAX } from '@readlib/contracts';
import {
  type BookRow,
  type BookStats,
  findToc,
  MergedWrite,
  type ReaderKeyRow,
  recordViews,
  saveRating,
  userRank,
  type ViewedBook,
  type ViewItem,
} from '@readlib/data';
import { type DetailFacts, toBookDetail, toContents, toContentsTree } from '../book.mapper.js';
import type { CatalogView } from './catalog-view.js';
import { readersOf, statsOf } from './kept-reads.js';
import { type ReaderContext, readerWrite, syncCatalog, write } from './reader-context.js';
import { findUserKey, registeredUser } from './user.service.js';

/** The views of a moment, recorded by one write (PostgreSQL: one statement) answering what each detail shows. */
const views = new MergedWrite<ViewItem, ViewedBook | 'recorded' | 'gone'>((db, items) =>
  recordViews(db, items, READERS_MAX),
);

/** The book of a reader request (error_code 1 when there is none), through the view's keep. */
export async function findBook(view: CatalogView, fileName: string): Promise<BookRow> {
  const book = await view.bookByFileName(fileName);
  if (!book) throw notFound('book');
  return book;
}

/** What a book detail is made of for one request: all of it but `rank` is the same for every caller. */
export interface DetailPlan {
  /** the kept row of the book: the same object until the book changes */
  book: BookRow;
  /** the versions' moves seen by the request when it read the detail's parts (a kept answer is stored with it) */
  seen: number;
  /**
   * The per-request facts the detail is made of besides the book row: its counts (every view, so every
   * change of its readers, and every rating moves one). Two plans of the same row and tag, read while
   * no version a kept detail depends on moved, have equal details but for `rank`.
   */
  tag: string;
  /** the caller's own rating, 0 for none */
  rank: number;
  /** whether this request recorded a view: its counts moved, so the next viewer's detail differs */
  visited: boolean;
  /** what the detail shows besides its row; its readers are read now */
  facts(): Promise<DetailFacts>;
}

/**
 * A book detail's plan; a registered caller's visit is recorded first so they appear among its readers.
 * An unknown openId is served like an anonymous caller: reading needs no registration.
 * `visit: false` (a HEAD request: link checkers, prefetchers) answers alike but records nothing.
 */
export async function planBookDetail(
  ctx: ReaderContext,
  fileName: string,
  openId?: string,
  visit = true,
): Promise<DetailPlan> {
  const view = await syncCatalog(ctx);
  const [book, user] = await Promise.all([
    findBook(view, fileName),
    openId ? findUserKey(ctx, openId) : undefined,
  ]);
  let viewed: ViewedBook | undefined;
  const visited = user !== undefined && visit;
  if (visited) {
    const recorded = await readerWrite(
      views.add(ctx.writes, { userId: user.id, bookId: book.id, at: ctx.now() }),
    );
    // deleted since it was read: as the book would be to a request arriving now
    if (recorded === 'gone') throw notFound('book');
    if (recorded !== 'recorded') viewed = recorded;
    // the view just committed moved the commit version: what it did not read itself is read anew
    view.afterWrite();
  }
  const [stats, rank] = viewed
    ? [viewed.stats, viewed.rank]
    : await Promise.all([statsOf(ctx, view, book.id), user ? userRank(ctx.db, user.id, book.id) : 0]);
  const tag = `${stats.views}:${stats.readers}:${stats.ratingNum}:${stats.ratingAvg}`;
  return {
    book,
    seen: view.seen,
    tag,
    rank,
    visited,
    facts: () => detailFacts(ctx, view, book, stats, rank, viewed?.readers),
  };
}

export async function bookDetail(
  ctx: ReaderContext,
  fileName: string,
  openId?: string,
  visit = true,
): Promise<BookDetail> {
  const plan = await planBookDetail(ctx, fileName, openId, visit);
  return toBookDetail(plan.book, await plan.facts(), ctx.urls);
}

async function detailFacts(
  ctx: ReaderContext,
  view: CatalogView,
  book: BookRow,
  stats: BookStats,
  rank: number,
  readerKeys?: ReaderKeyRow[],
): Promise<DetailFacts> {
  return {
    readers: await readersOf(ctx, view, book.id, readerKeys),
    readerNum: stats.readers,
    rank,
    rankNum: stats.ratingNum,
    rankAvg: stats.ratingAvg,
  };
}

/** The detail-shaped object plus the flat and nested table of contents (decisions.md §3). */
export async function bookContents(ctx: ReaderContext, fileName: string): Promise<BookContents> {
  const view = await syncCatalog(ctx);
  const book = await findBook(view, fileName);
  const [stats, toc] = await Promise.all([statsOf(ctx, view, book.id), findToc(ctx.db, book.id)]);
  const detail = toBookDetail(book, await detailFacts(ctx, view, book, stats, 0), ctx.urls);
  const contents = toContents(book.file_name, toc, ctx.urls);
  return { ...detail, contents, contentsTree: toContentsTree(contents) };
}

/** rank is 1-5 (checked by the contract); a second rating replaces the first. */
export async function rateBook(
  ctx: ReaderContext,
  input: { fileName: string; openId: string; rank: number },
) {
  const user = await registeredUser(ctx, input.openId);
  const book = await findBook(await syncCatalog(ctx), input.fileName);
  await write(ctx, (db) => saveRating(db, user.id, book.id, input.rank, ctx.now()));
}
