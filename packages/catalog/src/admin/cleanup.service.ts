import { stat } from 'node:fs/promises';
import {
  allUploadFileNames,
  bookFileNamesIn,
  type Database,
  deleteUpload,
  expiredUploads,
} from '@readlib/data';
import type { FileStore } from '@readlib/epub';
import type { Kysely } from 'kysely';

/**
 * Files younger than this are never orphans, nor temp leftovers: an upload or import writes its files a
 * moment before its row (and streams into a temp file before that), and must not lose them to a cleanup
 * running in between, from this process or another one (the CLI sweeps temp files with it too).
 */
export const ORPHAN_GRACE_MS = 10 * 60_000;

export interface CleanupOptions {
  /** default ORPHAN_GRACE_MS */
  orphanGraceMs?: number;
}

export interface CleanupReport {
  expiredUploads: number;
  orphans: number;
  temp: number;
  /** what could not be removed this run, each once: the next run tries again */
  failures: FileFailure[];
}

/**
 * Removes pending uploads past their grace period (rows and files), store folders that are neither a
 * book nor a pending upload, and leftovers of crashed imports. Safe to run on a schedule. A file it
 * cannot remove (one owned by another user: a `pnpm cli import` run as root) is reported and passed
 * over: stopping there left every later orphan in place, run after run.
 */
export async function cleanupExpiredUploads(
  db: Kysely<Database>,
  store: FileStore,
  now = Date.now(),
  opts: CleanupOptions = {},
): Promise<CleanupReport> {
  const graceMs = opts.orphanGraceMs ?? ORPHAN_GRACE_MS;
  const failed = new Map<string, FileFailure>();
  // false when it failed, this time or before in the run (an expired upload's files are then an orphan)
  const remove = async (fileName: string) => {
    if (failed.has(fileName)) return false;
    try {
      await store.removeBook(fileName);
      return true;
    } catch (err) {
      failed.set(fileName, { fileName, ...fileFailure(err, store.paths(fileName).unzip) });
      return false;
    }
  };
  let expired = 0;
  for (const upload of await expiredUploads(db, now)) {
    // the row first: a create that has not committed yet then finds it gone and refuses, and one
    // that has committed took the row with its book, so its files are left alone
    if (!(await deleteUpload(db, upload.file_name))) continue;
    const isBook = (await bookFileNamesIn(db, [upload.file_name])).size > 0;
    if (!isBook) await remove(upload.file_name);
    expired++;
  }

  const onDisk = await store.listFileNames();
  const books = await bookFileNamesIn(db, onDisk);
  const pending = new Set(await allUploadFileNames(db));
  let orphans = 0;
  for (const name of onDisk) {
    if (books.has(name) || pending.has(name)) continue;
    if (graceMs > 0 && now - (await newestMtime(store, name)) < graceMs) continue;
    if (await remove(name)) orphans++;
  }
  const temp = await store.cleanTemp(graceMs, (path, err) => failed.set(path, fileFailure(err, path)));
  return { expiredUploads: expired, orphans, temp, failures: [...failed.values()] };
}

/** A file the store could not remove: where, and the system's code (EACCES, EPERM, EBUSY...). */
export interface FileFailure {
  /** the book or upload it belongs to (absent for a temp leftover) */
  fileName?: string;
  path: string;
  code: string;
  error: string;
}

/**
 * The path and code a failed `rm` carries (fs errors name the very file that could not go, deep inside
 * an unpacked folder maybe); `where` for an error without one.
 */
export function fileFailure(err: unknown, where: string): Omit<FileFailure, 'fileName'> {
  const e = err as NodeJS.ErrnoException;
  return { path: e.path ?? where, code: e.code ?? 'unknown', error: e.message ?? String(err) };
}

async function newestMtime(store: FileStore, fileName: string): Promise<number> {
  const { epub, unzip } = store.paths(fileName);
  const cover = await store.findCover(fileName);
  let newest = 0;
  for (const path of [epub, unzip, cover]) {
    if (!path) continue;
    const info = await stat(path).catch(() => null);
    if (info) newest = Math.max(newest, info.mtimeMs);
  }
  return newest;
}
