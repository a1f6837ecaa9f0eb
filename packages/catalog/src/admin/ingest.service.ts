import { createHash, randomBytes } from 'node:crypto';
import type { AdminBookDetail, BookCreateBody } from '@readlib/contracts';
import { AppError, invalid } from '@readlib/contracts';
import {
  createUpload,
  type Database,
  deleteUpload,
  findBookByFileName,
  findCategoryById,
  findDuplicate,
  findUpload,
  insertBook,
  type NewBook,
  type NewTocEntry,
  UNCATEGORISED_ID,
} from '@readlib/data';
import {
  type EpubLimits,
  type FileStore,
  NEW_FILE_NAME_PATTERN,
  type ParsedEpub,
  parseEpub,
  type StoredBook,
} from '@readlib/epub';
import type { Kysely } from 'kysely';
import type { PublicUrls } from '../urls.js';
import { pendingToAdminBookDetail, toTocRow } from './admin.mapper.js';
import { columnsFrom } from './book-admin.service.js';
import { categoryFromSubjects, resolveCategory } from './category.service.js';
import { epubRefusal, isUniqueViolation } from './ingest.errors.js';
import { clip, type PendingBook, parsePending, pendingFrom, titleOf } from './pending-book.js';
import { assertStored } from './stored-paths.js';

export interface IngestDeps {
  db: Kysely<Database>;
  store: FileStore;
  limits: Partial<EpubLimits>;
}

export interface UploadDeps extends IngestDeps {
  urls: PublicUrls;
  graceMinutes: number;
  now?: () => number;
}

const conflict = (msg: string) => new AppError('conflict', msg);

async function parse(input: Buffer | string, limits: Partial<EpubLimits>): Promise<ParsedEpub> {
  try {
    return await parseEpub(input, limits);
  } catch (err) {
    throw epubRefusal(err);
  }
}

async function store(
  deps: IngestDeps,
  fileName: string,
  input: Buffer | string,
  parsed?: ParsedEpub,
): Promise<StoredBook> {
  try {
    return await deps.store.putBook(fileName, input, parsed, deps.limits);
  } catch (err) {
    throw epubRefusal(err);
  }
}

/** FileStore.placeBook (commitImport): idempotent, for names derived from the bytes. */
async function place(
  deps: IngestDeps,
  fileName: string,
  input: Buffer,
  parsed: ParsedEpub,
): Promise<StoredBook & { placed: boolean }> {
  try {
    return await deps.store.placeBook(fileName, input, parsed, deps.limits);
  } catch (err) {
    throw epubRefusal(err);
  }
}

function bookFromPending(p: PendingBook): NewBook {
  return {
    file_name: p.fileName,
    title: p.title,
    author: p.author,
    publisher: p.publisher,
    language: p.language,
    category_id: p.categoryId,
    root_file: p.rootFile,
    cover_path: p.coverPath,
    file_path: p.filePath,
    unzip_path: p.unzipPath,
    original_name: p.originalName,
    url: '',
    description: p.description,
    selected: 0,
    private: 0,
    cache: 0,
    have_read: 0,
  };
}

/**
 * POST /book/upload: parse, store atomically under a name of our own, remember it as a pending upload
 * (decisions.md §4). Every refusal happens before anything is written; a failed row removes the files.
 * `input`: the EPUB's bytes or the path of the uploaded file (read entry by entry, never whole).
 */
export async function uploadEpub(
  deps: UploadDeps,
  input: Buffer | string,
  clientName: string,
): Promise<AdminBookDetail> {
  const now = deps.now?.() ?? Date.now();
  const fileName = `${now.toString(36)}_${randomBytes(6).toString('hex')}`;
  // the client's name is kept as metadata only, never as a path
  // never cut through a surrogate pair: half a character must not reach the database
  const originalName = clip(clientName.split(/[\\/]/).pop() ?? '', 200);
  // putBook verifies and parses the archive before writing anything: one pass over a large upload
  const stored = await store(deps, fileName, input);
  const parsed = stored.parsed;
  let pending: PendingBook;
  try {
    const categoryId = await categoryFromSubjects(deps.db, parsed.metadata.subjects);
    pending = pendingFrom(parsed, stored, categoryId, originalName);
    await createUpload(
      deps.db,
      { fileName, originalName, parsed: pending, ttlMs: deps.graceMinutes * 60_000 },
      now,
    );
  } catch (err) {
    await deps.store.removeBook(fileName);
    throw err;
  }
  const category = await findCategoryById(deps.db, pending.categoryId);
  return pendingToAdminBookDetail(pending, category?.name ?? '', deps.urls);
}

/**
 * POST /book/create: from a pending upload (sent fields override the parsed ones) or, without one,
 * a file-less record with a download `url`. Refusals touch no files, so an operator can fix and retry.
 */
export async function createAdminBook(deps: UploadDeps, body: BookCreateBody): Promise<void> {
  const { db } = deps;
  const fileName = body.fileName;
  if (await findBookByFileName(db, fileName)) throw conflict(`a book named ${fileName} exists`);
  const upload = await findUpload(db, fileName);
  const now = deps.now?.() ?? Date.now();
  if (upload && upload.expires_at <= now) throw expired(fileName);
  const pending = upload ? parsePending(upload.parsed) : undefined;
  // a name the service did not give: a new book's, so held to the names new books get
  if (!pending && !NEW_FILE_NAME_PATTERN.test(fileName))
    throw invalid('fileName may hold ASCII letters, digits and "_" only (at most 128)');
  const base = bookFromPending(pending ?? emptyPending(fileName));
  const sent = columnsFrom(body, deps.urls);
  const book: NewBook = { ...base, ...sent };
  if (!book.title.trim()) throw invalid('title is required');
  // the upload's own paths are its files; paths the body sends must be files of the store too
  await assertStored(deps.store, fileName, sent);
  const dup = await findDuplicate(db, book);
  if (dup)
    throw conflict(`the same title, author and publisher are already in the catalogue as ${dup.file_name}`);
  const toc: NewTocEntry[] = pending ? pending.contents.map(toTocRow) : [];
  try {
    // the book, a category it names anew and the end of its upload in one transaction: a refused
    // create adds no category, and when the expiry sweep has taken the upload row
    // first (it removes the files next), the book is not created without its files
    await db.transaction().execute(async (trx) => {
      const categoryId = await resolveCategory(trx, body);
      if (categoryId !== undefined) book.category_id = categoryId;
      await insertBook(trx, book, toc);
      if (upload && !(await deleteUpload(trx, fileName))) throw expired(fileName);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`a book named ${fileName} exists`);
    throw err;
  }
}

const expired = (fileName: string) =>
  new AppError('not_found', `the upload ${fileName} expired (UPLOAD_GRACE_MINUTES): upload the file again`);

function emptyPending(fileName: string): PendingBook {
  return {
    fileName,
    originalName: '',
    title: '',
    author: '',
    publisher: '',
    language: '',
    description: '',
    categoryId: UNCATEGORISED_ID,
    rootFile: '',
    coverPath: '',
    filePath: '',
    unzipPath: '',
    contents: [],
  };
}

export interface ImportResult {
  status: 'added' | 'duplicate';
  /** the book's file name: the new book's, or the one a duplicate is of */
  fileName: string;
  title: string;
  /**
   * Why a duplicate was skipped: the same bytes were imported before (their content-derived name is in
   * the catalogue), or a book with the same title, author and publisher is (decisions.md §4).
   */
  why?: 'same-file' | 'same-title-author-publisher';
}

/**
 * Bulk import (CLI): straight into the catalogue. The fileName is derived from the bytes, so importing
 * the same file again is a 'duplicate' no-op; the same title/author/publisher is a duplicate too.
 */
export async function importEpub(
  deps: IngestDeps,
  input: Buffer,
  opts: { originalName?: string; category?: string } = {},
): Promise<ImportResult> {
  return commitImport(deps, await prepareImport(deps, input, opts));
}

/** A book of a bulk import, parsed, checked and named by its bytes: no database, no files yet. */
export interface PreparedImport {
  input: Buffer;
  parsed: ParsedEpub;
  fileName: string;
  /** the name these bytes were imported under before names lost their `-`: such a book is kept as is */
  legacyFileName: string;
  originalName: string;
  category?: string | undefined;
}

/** The part of an import that needs neither the database nor the store (a bulk import runs it ahead). */
export async function prepareImport(
  deps: Pick<IngestDeps, 'limits'>,
  input: Buffer,
  opts: { originalName?: string; category?: string } = {},
): Promise<PreparedImport> {
  const parsed = await parse(input, deps.limits);
  const digest = createHash('sha256').update(input).digest('hex').slice(0, 16);
  return {
    input,
    parsed,
    fileName: `b_${digest}`,
    legacyFileName: `b-${digest}`,
    originalName: opts.originalName ?? '',
    category: opts.category,
  };
}

/**
 * The part that writes: duplicate checks, files, row. Commits of one import run one at a time, since
 * each duplicate check must see what the earlier books wrote. Safe beside other imports and admin
 * creates of the same fileName: it never removes files a row or another writer may hold.
 */
export async function commitImport(deps: IngestDeps, p: PreparedImport): Promise<ImportResult> {
  const { db } = deps;
  const { input, parsed, fileName } = p;
  const title = titleOf(parsed, p.originalName, fileName);
  const same = (await findBookByFileName(db, fileName)) ?? (await findBookByFileName(db, p.legacyFileName));
  if (same) return { status: 'duplicate', fileName: same.file_name, title: same.title, why: 'same-file' };
  const m = parsed.metadata;
  const dup = await findDuplicate(db, { title, author: m.author, publisher: m.publisher });
  if (dup) return { status: 'duplicate', fileName: dup.file_name, title, why: 'same-title-author-publisher' };
  const categoryId = p.category
    ? ((await resolveCategory(
        db,
        /^\d+$/.test(p.category) ? { category: p.category } : { categoryText: p.category },
      )) as number)
    : await categoryFromSubjects(db, m.subjects);
  // Files go in place before the row, so an interrupted import leaves whole books only. Files already
  // under this fileName hold this very book (the name derives from the bytes): another import's, running
  // at the same time in this process or another one, or a crashed run's leftovers. placeBook keeps what
  // is in place, completes what is missing and removes nothing; the row insert decides who added the
  // book. Removing such files first, and again after losing the insert, would delete what another import
  // was storing or had just committed, or what an admin create had just named: books without their
  // files, which a re-run skips as duplicates.
  const stored = await place(deps, fileName, input, parsed);
  const pending = pendingFrom(parsed, stored, categoryId, p.originalName);
  try {
    await insertBook(db, bookFromPending(pending), pending.contents.map(toTocRow));
  } catch (err) {
    // another writer committed this fileName meanwhile: the files are its book's now
    if (isUniqueViolation(err)) return { status: 'duplicate', fileName, title, why: 'same-file' };
    // any other failure (the database's) removes the book whose epub this import moved in, as before,
    // unless a row names it by now; when that cannot be looked up the files stay, for the orphan cleanup.
    // (Another import of these bytes that found them whole and has yet to insert would lose them: it
    // would have to commit in this very moment, against the database that failed this insert.)
    const named = await findBookByFileName(db, fileName).then(Boolean, () => true);
    if (stored.placed && !named) await deps.store.removeBook(fileName);
    throw err;
  }
  return { status: 'added', fileName, title };
}
