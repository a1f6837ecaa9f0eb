import type {
  AdminBook,
  AdminBookDetail,
  AdminCategory,
  BookUpdateBody,
  DashboardTotals,
} from '@readlib/contracts';
import { BOOK_LIST_SORT_FIELDS, type BookListSortField, invalid, notFound } from '@readlib/contracts';
import {
  type BookUpdate,
  categoryCounts,
  countBooks,
  countRatings,
  countShelf,
  countUsers,
  type Database,
  deleteBook as deleteBookRow,
  findBookByFileName,
  findSameBooks,
  findToc,
  listBooksAdmin,
  updateBook as updateBookRow,
} from '@readlib/data';
import type { FileStore } from '@readlib/epub';
import type { Kysely } from 'kysely';
import { toAdminBook } from '../book.mapper.js';
import { givenText } from '../filters.js';
import { paging } from '../paging.js';
import type { PublicUrls } from '../urls.js';
import { toAdminBookDetail, toAdminCategory } from './admin.mapper.js';
import { resolveCategory } from './category.service.js';
import { fileFailure } from './cleanup.service.js';
import { assertStored } from './stored-paths.js';

export async function dashboardTotals(db: Kysely<Database>): Promise<DashboardTotals> {
  const [book, rank, shelf, user] = await Promise.all([
    countBooks(db),
    countRatings(db),
    countShelf(db),
    countUsers(db),
  ]);
  return { book, rank, shelf, user };
}

const isSortField = (field: string): field is BookListSortField =>
  (BOOK_LIST_SORT_FIELDS as readonly string[]).includes(field);

/** `+field`, `-field` or `field` (ascending) over BOOK_LIST_SORT_FIELDS; the default is newest first. */
export function parseSort(sort: string | undefined): { field: BookListSortField; dir: 'asc' | 'desc' } {
  if (!sort) return { field: 'id', dir: 'desc' };
  const m = /^([+-]?)([A-Za-z]+)$/.exec(sort);
  const field = m?.[2];
  if (!m || !field || !isSortField(field)) {
    throw invalid(`cannot sort by ${sort}; sortable: ${BOOK_LIST_SORT_FIELDS.join(', ')}`);
  }
  return { field, dir: m[1] === '-' ? 'desc' : 'asc' };
}

export interface ListBooksInput {
  page?: number | undefined;
  pageSize?: number | undefined;
  sort?: string | undefined;
  title?: string | undefined;
  author?: string | undefined;
  category?: string | undefined;
}

export async function listAdminBooks(
  db: Kysely<Database>,
  urls: PublicUrls,
  q: ListBooksInput,
): Promise<{ data: AdminBook[]; page: number; pageSize: number; total: number }> {
  const page = q.page ?? 1;
  const filter = {
    title: givenText(q.title),
    author: givenText(q.author),
    category: givenText(q.category),
  };
  const window = paging(page, q.pageSize);
  const { rows, total } = await listBooksAdmin(db, filter, parseSort(q.sort), window);
  // the size served, the cap when a larger one was asked for
  return { data: rows.map((r) => toAdminBook(r, urls)), page, pageSize: window.limit, total };
}

/**
 * GET /book/same: the books a create with this identity would collide with, compared as the create
 * compares (exactly; an author or publisher not sent is the empty one).
 */
export async function sameAdminBooks(
  db: Kysely<Database>,
  urls: PublicUrls,
  q: { title: string; author?: string | undefined; publisher?: string | undefined },
): Promise<AdminBook[]> {
  const rows = await findSameBooks(db, {
    title: q.title,
    author: q.author ?? '',
    publisher: q.publisher ?? '',
  });
  return rows.map((r) => toAdminBook(r, urls));
}

export async function getAdminBook(
  db: Kysely<Database>,
  urls: PublicUrls,
  fileName: string | undefined,
): Promise<AdminBookDetail> {
  if (!fileName) throw invalid('fileName is required');
  const row = await findBookByFileName(db, fileName);
  if (!row) throw notFound(`book ${fileName}`);
  return toAdminBookDetail(row, await findToc(db, row.id), urls);
}

type Writable = Omit<BookUpdateBody, 'fileName' | 'category' | 'categoryText'> & { url?: string | undefined };

/** Body fields as columns; only fields that were sent appear (decisions.md §4: update changes only those). */
export function columnsFrom(body: Writable, urls: PublicUrls): BookUpdate {
  const out: BookUpdate = {};
  const map = {
    title: 'title',
    author: 'author',
    publisher: 'publisher',
    language: 'language',
    rootFile: 'root_file',
    coverPath: 'cover_path',
    filePath: 'file_path',
    unzipPath: 'unzip_path',
    originalName: 'original_name',
    url: 'url',
  } as const;
  for (const [key, column] of Object.entries(map)) {
    const value = body[key as keyof typeof map];
    if (value !== undefined) out[column] = value;
  }
  // `cover` is derived from coverPath; a URL of our own /res/ is taken back to its stored path, and any
  // other is refused, not dropped without a word: a cover is a file of the store, which `/res/` serves
  if (body.cover !== undefined && body.coverPath === undefined) {
    const path = urls.storePath(body.cover);
    if (path === undefined)
      throw invalid(`cover must be empty or a URL of this service's /res/ files, not ${body.cover}`);
    out.cover_path = path;
  }
  return out;
}

export async function updateAdminBook(
  db: Kysely<Database>,
  store: FileStore,
  urls: PublicUrls,
  body: BookUpdateBody,
): Promise<void> {
  if (!(await findBookByFileName(db, body.fileName))) throw notFound(`book ${body.fileName}`);
  // create requires a title; an update may change it, not blank it (`null` arrives here as "")
  if (body.title !== undefined && !body.title.trim()) throw invalid('title must not be blank');
  const patch = columnsFrom(body, urls);
  await assertStored(store, body.fileName, patch);
  const categoryId = await resolveCategory(db, body);
  if (categoryId !== undefined) patch.category_id = categoryId;
  if (Object.keys(patch).length === 0) return;
  if (!(await updateBookRow(db, body.fileName, patch))) throw notFound(`book ${body.fileName}`);
}

/** Where a service reports what went wrong without failing the request: pino's (Fastify's) logger fits. */
export interface WarnLog {
  warn(fields: Record<string, unknown>, msg: string): void;
}

/**
 * Rows first, in one transaction (decisions.md §4), then the files: a crash in between leaves an
 * orphan, which cleanup removes. Files that cannot be removed do not fail the deletion (the book is
 * gone from the catalogue) but are logged: silently, a store file owned by another user kept the
 * book's folder and cover on disk with nobody told.
 */
export async function deleteAdminBook(
  db: Kysely<Database>,
  store: FileStore,
  fileName: string,
  log: WarnLog,
): Promise<void> {
  const row = await deleteBookRow(db, fileName);
  if (!row) throw notFound(`book ${fileName}`);
  await store.removeBook(fileName).catch((err: unknown) => {
    const failure = fileFailure(err, store.paths(fileName).unzip);
    log.warn({ fileName, ...failure }, 'book deleted, its files not removed: the upload cleanup tries again');
  });
}

export async function listAdminCategories(db: Kysely<Database>): Promise<AdminCategory[]> {
  return (await categoryCounts(db)).map(toAdminCategory);
}
