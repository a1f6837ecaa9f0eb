import type { Stats } from 'node:fs';
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, sep } from 'node:path';
import {
  commitImport,
  type ImportResult,
  type IngestDeps,
  type PreparedImport,
  prepareImport,
} from '@readlib/catalog';
import { assertArchiveSize, isEpubError, resolveLimits } from '@readlib/epub';
import type { Progress } from '../progress.js';

export interface ImportSummary {
  added: number;
  duplicate: number;
  /** each file skipped as a duplicate, the book it duplicates and why */
  skipped: Array<{ file: string; of: string; why: NonNullable<ImportResult['why']> }>;
  failed: Array<{ file: string; reason: string }>;
}

export interface ImportSource {
  name: string;
  /** bytes on disk, when known before reading: a file over the archive limit is refused unread */
  size?: number;
  load(): Promise<Buffer>;
}

/**
 * Files named directly, and every *.epub below the named folders, in a stable order. A path that cannot
 * be looked at (a broken symbolic link, a folder it may not read) becomes a source whose load fails with
 * the reason, so the import reports it among the failures and goes on with the rest:
 * - only regular files are read (a symbolic link to one included): a FIFO or a device named *.epub, or
 *   named directly (/dev/zero), would hang the import, and is a failure "not a regular file";
 * - below a named folder, symbolic links to folders are not followed (links to files are): a link to /
 *   would walk the whole machine. A folder named on the command line may be a link;
 * - names are read as bytes, so a file whose name is not UTF-8 is imported, not "not found".
 */
export async function collectEpubs(paths: string[]): Promise<ImportSource[]> {
  const out: ImportSource[] = [];
  // a folder named twice, or named inside another named one, is walked once
  const seen = new Set<string>();
  const walk = async (p: Buffer, named: boolean): Promise<void> => {
    // the name printed (a byte that is not UTF-8 shows as U+FFFD); the bytes are what is opened
    const name = p.toString();
    let info: Stats;
    let entries: Buffer[] = [];
    try {
      const link = !named && (await lstat(p)).isSymbolicLink();
      info = await stat(p);
      if (link && info.isDirectory()) return;
      if (info.isDirectory()) {
        const key = `${info.dev}:${info.ino}`;
        if (seen.has(key)) return;
        seen.add(key);
        entries = (await readdir(p, { encoding: 'buffer' })).sort(Buffer.compare);
      }
    } catch (err) {
      const reason = await unreadable(p, err as NodeJS.ErrnoException);
      out.push({ name, load: () => Promise.reject(new Error(reason)) });
      return;
    }
    if (info.isDirectory()) {
      const dir = named ? Buffer.from(join(name)) : p;
      for (const e of entries) await walk(childOf(dir, e), false);
      return;
    }
    if (!named && !isEpubName(p)) return;
    if (!info.isFile()) {
      out.push({ name, load: () => Promise.reject(new Error('not a regular file')) });
      return;
    }
    out.push({ name, size: info.size, load: () => readFile(p) });
  };
  for (const p of paths) await walk(Buffer.from(p), true);
  return out;
}

const SEP = Buffer.from(sep);

function childOf(dir: Buffer, name: Buffer): Buffer {
  return Buffer.concat(dir.at(-1) === SEP[0] ? [dir, name] : [dir, SEP, name]);
}

/** Ends in `.epub`, any case: ASCII, so the last five bytes, whatever the encoding of the rest. */
function isEpubName(p: Buffer): boolean {
  return p.subarray(-5).toString('latin1').toLowerCase() === '.epub';
}

async function unreadable(path: Buffer, err: NodeJS.ErrnoException): Promise<string> {
  const link = await lstat(path).then(
    (l) => l.isSymbolicLink(),
    () => false,
  );
  if (link && err.code === 'ENOENT') return 'broken symbolic link: its target does not exist';
  if (err.code === 'ELOOP') return 'symbolic link loop';
  if (err.code === 'ENOENT') return 'not found';
  if (err.code === 'EACCES' || err.code === 'EPERM') return 'permission denied';
  return err.message;
}

/** Books read and parsed ahead of the one being written (memory: this many EPUBs at most, plus it). */
const LOOKAHEAD = 2;

/**
 * Imports one book at a time: each is its own transaction with its files moved into place first, so an
 * interrupted run leaves whole books only, and running it again skips what is there (content-derived
 * fileNames make a re-import a duplicate). The next books are read and parsed while one is written:
 * parsing is CPU work, writing mostly waits on the disk. Writes stay in order, one at a time, so
 * duplicate checks see every earlier book.
 */
export async function importAll(
  deps: IngestDeps,
  sources: ImportSource[],
  opts: { category?: string; progress?: Pick<Progress, 'start' | 'tick' | 'done'> } = {},
): Promise<ImportSummary> {
  const summary: ImportSummary = { added: 0, duplicate: 0, skipped: [], failed: [] };
  opts.progress?.start(sources.length);
  const ahead = new Map<number, Promise<PreparedImport>>();
  const limits = resolveLimits(deps.limits);
  const prepare = (i: number) => {
    const src = sources[i];
    if (!src || ahead.has(i)) return;
    // refused from its size, unread: the parser refuses it too, but only once it is read whole, and
    // up to three files are in memory at once (this one and the LOOKAHEAD)
    const load = (async () => {
      if (src.size !== undefined) assertArchiveSize(src.size, limits);
      return src.load();
    })();
    const p = load.then((input) =>
      prepareImport(deps, input, {
        originalName: basename(src.name),
        ...(opts.category ? { category: opts.category } : {}),
      }),
    );
    p.catch(() => {}); // reported when its turn comes
    ahead.set(i, p);
  };
  for (const [i, src] of sources.entries()) {
    for (let k = i; k <= i + LOOKAHEAD; k++) prepare(k);
    try {
      const res = await commitImport(deps, await ahead.get(i)!);
      summary[res.status] += 1;
      if (res.status === 'duplicate')
        summary.skipped.push({ file: src.name, of: res.fileName, why: res.why! });
    } catch (err) {
      const reason = isEpubError(err) ? `${err.code}: ${err.message}` : (err as Error).message;
      summary.failed.push({ file: src.name, reason });
    } finally {
      ahead.delete(i);
    }
    opts.progress?.tick(
      `added ${summary.added} · duplicate ${summary.duplicate} · failed ${summary.failed.length}`,
    );
  }
  opts.progress?.done();
  return summary;
}
