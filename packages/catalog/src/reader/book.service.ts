import type { BookContents, BookDetail } from '@readlib/contracts';
import { notFound } from '@readlib/contracts';
import { type BookRow, type BookStats, findToc, recordView, saveRating, userRank } from '@readlib/data';
import { toBookDetail, toContents, toContentsTree } from '../book.mapper.js';
import { readersOf, statsOf } from './kept-reads.js';
import { type ReaderContext, syncCatalog, write } from './reader-context.js';
import type { CatalogView } from './reader-keeps.js';
import { findUserKey, registeredUser } from './user.service.js';

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
  /** the whole detail; its readers are read now */
  detail(): Promise<BookDetail>;
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
  const visits = user !== undefined && visit;
  if (visits) {
    await write(ctx, (db) => recordView(db, user.id, book.id, ctx.now()));
    // the view just committed moved the commit version: the counts are read anew
    view.afterWrite();
  }
  const [stats, rank] = await Promise.all([
    statsOf(ctx, view, book.id),
    user ? userRank(ctx.db, user.id, book.id) : 0,
  ]);
  const tag = `${stats.views}:${stats.readers}:${stats.ratingNum}:${stats.ratingAvg}`;
  return { book, seen: view.seen, tag, rank, detail: () => detailWith(ctx, view, book, stats, rank) };
}

export async function bookDetail(
  ctx: ReaderContext,
  fileName: string,
  openId?: string,
  visit = true,
): Promise<BookDetail> {
  return (await planBookDetail(ctx, fileName, openId, visit)).detail();
}

async function detailWith(
  ctx: ReaderContext,
  view: CatalogView,
  book: BookRow,
  stats: BookStats,
  rank: number,
) {
  const readers = await readersOf(ctx, view, book.id);
  const figures = {
    readers,
    readerNum: stats.readers,
    rank,
    rankNum: stats.ratingNum,
    rankAvg: stats.ratingAvg,
  };
  return toBookDetail(book, figures, ctx.urls);
}

/** The detail-shaped object plus the flat and nested table of contents (decisions.md §3). */
export async function bookContents(ctx: ReaderContext, fileName: string): Promise<BookContents> {
  const view = await syncCatalog(ctx);
  const book = await findBook(view, fileName);
  const [stats, toc] = await Promise.all([statsOf(ctx, view, book.id), findToc(ctx.db, book.id)]);
  const detail = await detailWith(ctx, view, book, stats, 0);
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
