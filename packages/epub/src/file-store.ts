import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, copyFile, lstat, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { EpubError } from './errors.js';
import {
  coverExtension,
  exists,
  listDir,
  moveMissing,
  settledAll,
  stem,
  unpackTo,
} from './file-store.helpers.js';
import { type EpubLimits, resolveLimits } from './limits.js';
import { openAndParse } from './parse-epub.js';
import { isSafeStorePath } from './paths.js';
import type { SafeZip } from './safe-unzip.js';
import type { EpubCover, ParsedEpub } from './types.js';

/**
 * Names the store accepts: letters, digits, `.`, `_`, `-`; no leading dot (so never `.`, `..` or
 * `.tmp`); at most 128. Books stored before names were narrowed to NEW_FILE_NAME_PATTERN keep theirs.
 */
export const FILE_NAME_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * Names given to new books: ASCII letters, digits and `_` only, at most 128. The original console
 * routes `edit/:fileName(\\w+)`, so a book whose name holds `-` or `.` cannot be opened there.
 */
export const NEW_FILE_NAME_PATTERN = /^[A-Za-z0-9_]{1,128}$/;

export function assertValidFileName(fileName: string): void {
  if (typeof fileName !== 'string' || !FILE_NAME_PATTERN.test(fileName)) {
    throw new EpubError(
      'INVALID_FILE_NAME',
      `invalid book file name ${JSON.stringify(String(fileName).slice(0, 140))}`,
    );
  }
}

export interface BookPaths {
  epub: string;
  unzip: string;
  imgDir: string;
}

export interface StoredBook {
  fileName: string;
  epubPath: string;
  unzipPath: string;
  coverPath: string | null;
  /** Paths relative to the store root, as served under `/res/`. */
  relative: { epub: string; unzip: string; cover: string | null };
  /** The book as parsed by the verification pass of `putBook` (callers need not parse it again). */
  parsed: ParsedEpub;
}

/**
 * The book file store of decisions.md §1. Each import is assembled in `<root>/.tmp/<random>/` (same
 * file system, so `rename` is atomic) and moved into place part by part, the `.epub` last: a present
 * epub file therefore means a complete book, and removal deletes the epub first for the same reason.
 * Each part appears whole (a folder or file renamed in); only a removal, or a crash amid one, leaves an
 * unpacked folder in part, and never with its epub.
 */
export class FileStore {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  paths(fileName: string): BookPaths {
    assertValidFileName(fileName);
    return {
      epub: join(this.root, 'epub', `${fileName}.epub`),
      unzip: join(this.root, 'unzip', fileName),
      imgDir: join(this.root, 'img'),
    };
  }

  async hasBook(fileName: string): Promise<boolean> {
    return exists(this.paths(fileName).epub);
  }

  /**
   * What a path relative to the store (as books record them: `img/...`) names in it: a file, a folder,
   * or nothing (outside the store, spelled with dot segments, missing, or anything else, a symbolic link
   * included).
   */
  async kindOf(relativePath: string): Promise<'file' | 'folder' | undefined> {
    const target = resolve(this.root, relativePath);
    if (
      !isSafeStorePath(relativePath) ||
      !target.startsWith(`${this.root}${sep}`) ||
      isAbsolute(relativePath)
    )
      return undefined;
    const info = await lstat(target).catch(() => undefined);
    return info?.isFile() ? 'file' : info?.isDirectory() ? 'folder' : undefined;
  }

  /**
   * Verifies, unpacks and stores a book; on any failure nothing of it remains on disk. The archive is
   * checked again here (callers may pass any buffer); `parsed` only chooses the cover, when it exists.
   * `epub` is the archive's bytes or the path of a file holding them (copied, never read whole).
   */
  async putBook(
    fileName: string,
    epub: Buffer | string,
    parsed?: ParsedEpub,
    limits?: Partial<EpubLimits>,
  ): Promise<StoredBook> {
    const paths = this.paths(fileName);
    if ((await exists(paths.epub)) || (await exists(paths.unzip)) || (await this.findCover(fileName))) {
      throw new EpubError('BOOK_EXISTS', `a book named ${fileName} is already stored`);
    }
    // Refusals happen here, before the first byte is written.
    const { zip, parsed: fresh } = await openAndParse(epub, resolveLimits(limits));
    try {
      return await this.storeParsed(fileName, paths, epub, zip, parsed, fresh);
    } finally {
      zip.close();
    }
  }

  /**
   * putBook for a name derived from the book's bytes (a bulk import's `b-<sha256>`): files already under
   * that name hold this very book, stored by another writer at the same time (a second import, another
   * process) or left by a crashed one. So placing is idempotent instead of exclusive: a book whose epub
   * is in place is whole and is taken as it is; otherwise each missing part is moved in (inside an
   * unpacked folder already there, file by file: what a crash amid a removal leaves) and the epub last.
   * Nothing in place is removed or replaced, even on failure: it may be another writer's, whose row is
   * about to name it. Leftovers of a failure are completed by the next placement, or removed by the
   * orphan cleanup. The caller's row insert decides which writer added the book.
   * `placed`: whether this call moved the epub in (false: the whole book was there already).
   */
  async placeBook(
    fileName: string,
    epub: Buffer | string,
    parsed?: ParsedEpub,
    limits?: Partial<EpubLimits>,
  ): Promise<StoredBook & { placed: boolean }> {
    const paths = this.paths(fileName);
    // the archive is verified even when the book is in place: the same refusals whoever came first
    const { zip, parsed: fresh } = await openAndParse(epub, resolveLimits(limits));
    try {
      if (await exists(paths.epub))
        return { ...this.stored(fileName, paths, await this.findCover(fileName), fresh), placed: false };
      return await this.placeParsed(fileName, paths, epub, zip, parsed, fresh);
    } finally {
      zip.close();
    }
  }

  private async placeParsed(
    fileName: string,
    paths: BookPaths,
    epub: Buffer | string,
    zip: SafeZip,
    parsed: ParsedEpub | undefined,
    fresh: ParsedEpub,
  ): Promise<StoredBook & { placed: boolean }> {
    try {
      const { storedCover, epubMoved } = await this.assembleAndMove(
        fileName,
        paths,
        epub,
        zip,
        parsed,
        fresh,
        moveMissing,
      );
      return { ...this.stored(fileName, paths, storedCover, fresh), placed: epubMoved };
    } catch (err) {
      throw storeFailure(fileName, err);
    }
  }

  private async storeParsed(
    fileName: string,
    paths: BookPaths,
    epub: Buffer | string,
    zip: SafeZip,
    parsed: ParsedEpub | undefined,
    fresh: ParsedEpub,
  ): Promise<StoredBook> {
    const moved: string[] = [];
    // exclusive: each part renamed in and remembered, so a failure takes back what this call put there
    const renameIn = async (src: string, dest: string) => {
      if (dest === paths.epub && (await exists(dest)))
        throw new EpubError('BOOK_EXISTS', `a book named ${fileName} is already stored`);
      await rename(src, dest);
      moved.push(dest);
      return true;
    };
    try {
      const { storedCover } = await this.assembleAndMove(fileName, paths, epub, zip, parsed, fresh, renameIn);
      return this.stored(fileName, paths, storedCover, fresh);
    } catch (err) {
      for (const path of moved.reverse()) await rm(path, { recursive: true, force: true });
      throw storeFailure(fileName, err);
    }
  }

  /**
   * The book assembled in a temporary folder, then its parts moved into the store by `move`, the epub
   * last: a book whose epub is in place is whole (placeBook relies on it). The temporary folder goes
   * whatever happens.
   */
  private async assembleAndMove(
    fileName: string,
    paths: BookPaths,
    epub: Buffer | string,
    zip: SafeZip,
    parsed: ParsedEpub | undefined,
    fresh: ParsedEpub,
    move: (src: string, dest: string) => Promise<boolean>,
  ): Promise<{ storedCover: string | null; epubMoved: boolean }> {
    const { cover, coverPath } = this.coverOf(fileName, paths, zip, parsed, fresh);
    const tmp = this.tempDir();
    try {
      await mkdir(tmp, { recursive: true });
      await this.assemble(tmp, zip, epub, cover && coverPath ? cover : null);
      await mkdir(dirname(paths.unzip), { recursive: true });
      await move(join(tmp, 'unzip'), paths.unzip);
      let storedCover: string | null = null;
      if (coverPath && (await exists(join(tmp, 'cover')))) {
        await mkdir(paths.imgDir, { recursive: true });
        await move(join(tmp, 'cover'), coverPath);
        storedCover = coverPath;
      }
      await mkdir(dirname(paths.epub), { recursive: true });
      return { storedCover, epubMoved: await move(join(tmp, 'book.epub'), paths.epub) };
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }

  private coverOf(
    fileName: string,
    paths: BookPaths,
    zip: SafeZip,
    parsed: ParsedEpub | undefined,
    fresh: ParsedEpub,
  ): { cover: EpubCover | null; coverPath: string | null } {
    const cover = parsed?.cover && zip.has(parsed.cover.href) ? parsed.cover : fresh.cover;
    const ext = cover ? coverExtension(cover) : null;
    return { cover, coverPath: ext ? join(paths.imgDir, `${fileName}.${ext}`) : null };
  }

  private tempDir(): string {
    return join(this.root, '.tmp', `${Date.now()}-${randomBytes(8).toString('hex')}`);
  }

  /**
   * Three independent writes into the temporary folder, side by side (thread-pool round trips); all
   * settle before a failure is thrown, so the cleanup removes a folder nobody writes to.
   */
  private async assemble(tmp: string, zip: SafeZip, epub: Buffer | string, cover: EpubCover | null) {
    await settledAll([
      unpackTo(zip, join(tmp, 'unzip')),
      cover ? zip.extractTo(cover.href, join(tmp, 'cover')) : undefined,
      typeof epub === 'string'
        ? copyEpub(epub, join(tmp, 'book.epub'))
        : writeFile(join(tmp, 'book.epub'), epub, { flag: 'wx' }),
    ]);
  }

  private stored(fileName: string, paths: BookPaths, cover: string | null, parsed: ParsedEpub): StoredBook {
    return {
      fileName,
      epubPath: paths.epub,
      unzipPath: paths.unzip,
      coverPath: cover,
      relative: {
        epub: `epub/${fileName}.epub`,
        unzip: `unzip/${fileName}`,
        cover: cover ? `img/${basename(cover)}` : null,
      },
      parsed,
    };
  }

  /** Idempotent; the epub goes first so a half-removed book no longer counts as present. */
  async removeBook(fileName: string): Promise<void> {
    const paths = this.paths(fileName);
    await rm(paths.epub, { force: true });
    await rm(paths.unzip, { recursive: true, force: true });
    for (const name of await listDir(paths.imgDir)) {
      if (stem(name) === fileName) await rm(join(paths.imgDir, name), { force: true });
    }
  }

  /** Absolute path of the stored cover image, or null. */
  async findCover(fileName: string): Promise<string | null> {
    const { imgDir } = this.paths(fileName);
    const name = (await listDir(imgDir)).find((n) => stem(n) === fileName);
    return name ? join(imgDir, name) : null;
  }

  /** Every file name with any part on disk (complete or not), for orphan cleanup by the caller. */
  async listFileNames(): Promise<string[]> {
    const names = new Set<string>();
    for (const n of await listDir(join(this.root, 'epub')))
      if (n.endsWith('.epub')) names.add(n.slice(0, -5));
    for (const n of await listDir(join(this.root, 'unzip'))) names.add(n);
    for (const n of await listDir(join(this.root, 'img'))) names.add(stem(n));
    return [...names].filter((n) => FILE_NAME_PATTERN.test(n)).sort();
  }

  /**
   * Removes leftovers of crashed imports older than `olderThanMs`; returns how many were removed. A
   * leftover that cannot be removed throws, or with `onFailure` is told to it and passed over.
   */
  async cleanTemp(olderThanMs = 0, onFailure?: (path: string, err: unknown) => void): Promise<number> {
    const tmpRoot = join(this.root, '.tmp');
    let removed = 0;
    for (const name of await listDir(tmpRoot)) {
      const path = join(tmpRoot, name);
      const info = await stat(path).catch(() => null);
      // mtimeMs carries a fraction Date.now() lacks: a file written this millisecond
      // would look younger than no age at all, so 0 means every leftover whatever its time.
      if (!info || (olderThanMs > 0 && Date.now() - info.mtimeMs < olderThanMs)) continue;
      try {
        await rm(path, { recursive: true, force: true });
        removed++;
      } catch (err) {
        if (!onFailure) throw err;
        onFailure(path, err);
      }
    }
    return removed;
  }
}

function storeFailure(fileName: string, err: unknown): EpubError {
  if (err instanceof EpubError) return err;
  return new EpubError('STORE_FAILED', `could not store ${fileName}: ${(err as Error).message}`, {
    cause: err,
  });
}

/**
 * copyFile gives the copy its source's mode, and an upload's temporary file is 0600: the stored epub
 * must be readable by every user, as the unpacked files are (0644), since nginx serves `/res/epub/`
 * from the store under a user of its own.
 */
async function copyEpub(src: string, dest: string): Promise<void> {
  await copyFile(src, dest, constants.COPYFILE_EXCL);
  await chmod(dest, 0o644);
}
