import { type BookContents, type BookDetail, READERS_MAX } from '@readlib/contracts';
import {
  type BookRow,
  bookStats,
  findBookByFileName,
  findToc,
  findUserByOpenId,
  recentReaders,
  recordView,
  saveRating,
  userRank,
} from '@readlib/data';
import { toBookDetail, toContents, toContentsTree } from '../book.mapper.js';
import { notFound } from '../errors.js';
import { type ReaderContext, syncCatalog, write } from './reader-context.js';
import { registeredUser } from './user.service.js';

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

/**
 * Book detail; a registered caller's visit is recorded first so they appear among its readers.
 * An unknown openId is served like an anonymous caller: reading needs no registration.
 * `visit: false` (a HEAD request: link checkers, prefetchers) answers alike but records nothing.
 */
export async function bookDetail(
  ctx: ReaderContext,
  fileName: string,
  openId?: string,
  visit = true,
): Promise<BookDetail> {
  const [book, user] = await Promise.all([
    findBook(ctx, fileName),
    openId ? findUserByOpenId(ctx.db, openId) : undefined,
  ]);
  if (user && visit) await write(ctx, (db) => recordView(db, user.id, book.id, ctx.now()));
  return detailOf(ctx, book, user?.id);
}

async function detailOf(ctx: ReaderContext, book: BookRow, userId?: number): Promise<BookDetail> {
  const [readers, stats, rank] = await Promise.all([
    recentReaders(ctx.db, book.id, READERS_MAX),
    bookStats(ctx.db, book.id),
    userId === undefined ? 0 : userRank(ctx.db, userId, book.id),
  ]);
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
  const book = await findBook(ctx, fileName);
  const [detail, toc] = await Promise.all([detailOf(ctx, book), findToc(ctx.db, book.id)]);
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
