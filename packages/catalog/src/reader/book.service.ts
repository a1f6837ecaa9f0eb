import type { BookContents, BookDetail } from '@readlib/contracts';
import { notFound } from '@readlib/contracts';
import {
  type BookRow,
  type BookStats,
  commitStamp,
  findBookByFileName,
  findToc,
  recordView,
  saveRating,
  userRank,
} from '@readlib/data';
import { toBookDetail, toContents, toContentsTree } from '../book.mapper.js';
import { readersOf, statsOf } from './kept-reads.js';
import { type ReaderContext, syncCatalog, write } from './reader-context.js';
import { findUserKey, registeredUser } from './user.service.js';

/** The book of a reader request, through the catalogue memo (synced here) when the context has one. */
export async function findBook(ctx: ReaderContext, fileName: string): Promise<BookRow> {
  await syncCatalog(ctx);
  return findBookSynced(ctx, fileName);
}

/** findBook for a caller that synced the catalogue memo in this request already. */
export async function findBookSynced(ctx: ReaderContext, fileName: string): Promise<BookRow> {
  const book = ctx.catalog
    ? await ctx.catalog.bookByFileName(ctx.db, fileName)
    : await findBookByFileName(ctx.db, fileName);
  if (!book) throw notFound('book');
  return book;
}

/** What a book detail is made of for one request: all of it but `rank` is the same for every caller. */
export interface DetailPlan {
  /** the catalogue memo's row of the book: the same object until the book changes */
  book: BookRow;
  /**
   * Two plans of the same `book` row with equal stamps have equal details but for `rank`. It holds the
   * book's counts, of which every view (so every change of its readers) and rating moves one, and the
   * version of readers' nicknames and avatars. Undefined without a catalogue memo: nothing to compare.
   */
  stamp: string | undefined;
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
  const synced = await syncCatalog(ctx);
  const [book, user] = await Promise.all([
    findBookSynced(ctx, fileName),
    openId ? findUserKey(ctx, openId) : undefined,
  ]);
  const visits = user !== undefined && visit;
  if (visits) await write(ctx, (db) => recordView(db, user.id, book.id, ctx.now()));
  const [stats, rank] = await Promise.all([
    // the sync's stamp is older than the view just committed: the counts are checked anew
    statsOf(ctx, book.id, visits ? commitStamp(ctx.db) : synced),
    user ? userRank(ctx.db, user.id, book.id) : 0,
  ]);
  // read after the counts: a view committed in between makes the counts move past this stamp for good
  const detail = () => detailWith(ctx, book, stats, rank);
  const profiles = ctx.catalog?.profileVersion;
  const stamp =
    profiles === undefined
      ? undefined
      : `${profiles}:${stats.views}:${stats.readers}:${stats.ratingNum}:${stats.ratingAvg}`;
  return { book, stamp, rank, detail };
}

export async function bookDetail(
  ctx: ReaderContext,
  fileName: string,
  openId?: string,
  visit = true,
): Promise<BookDetail> {
  return (await planBookDetail(ctx, fileName, openId, visit)).detail();
}

async function detailWith(ctx: ReaderContext, book: BookRow, stats: BookStats, rank: number) {
  const readers = await readersOf(ctx, book.id);
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
  const synced = await syncCatalog(ctx);
  const book = await findBookSynced(ctx, fileName);
  const [stats, toc] = await Promise.all([statsOf(ctx, book.id, synced), findToc(ctx.db, book.id)]);
  const detail = await detailWith(ctx, book, stats, 0);
  const contents = toContents(book.file_name, toc, ctx.urls);
  return { ...detail, contents, contentsTree: toContentsTree(contents) };
}

/** rank is 1-5 (checked by the contract); a second rating replaces the first. */
export async function rateBook(
  ctx: ReaderContext,
  input: { fileName: string; openId: string; rank: number },
) {
  const user = await registeredUser(ctx, input.openId);
  const book = await findBook(ctx, input.fileName);
  await write(ctx, (db) => saveRating(db, user.id, book.id, input.rank, ctx.now()));
}
