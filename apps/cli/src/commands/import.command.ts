import type { Stats } from 'node:fs';
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { commitImport, type IngestDeps, type PreparedImport, prepareImport } from '@readlib/catalog';
import { isEpubError } from '@readlib/epub';
import type { Progress } from '../progress.js';

export interface ImportSummary {
  added: number;
  duplicate: number;
  failed: Array<{ file: string; reason: string }>;
}

export interface ImportSource {
  name: string;
  load(): Promise<Buffer>;
}

/**
 * Files named directly, and every *.epub below the named folders, in a stable order. A path that cannot
 * be looked at (a broken symbolic link, a folder it may not read) becomes a source whose load fails with
 * the reason, so the import reports it among the failures and goes on with the rest.
 */
export async function collectEpubs(paths: string[]): Promise<ImportSource[]> {
  const out: ImportSource[] = [];
  // a symbolic link back up the tree would otherwise be walked again and again
  const seen = new Set<string>();
  const walk = async (p: string, named: boolean): Promise<void> => {
    let info: Stats;
    let entries: string[] = [];
    try {
      info = await stat(p);
      if (info.isDirectory()) {
        const key = `${info.dev}:${info.ino}`;
        if (seen.has(key)) return;
        seen.add(key);
        entries = (await readdir(p)).sort();
      }
    } catch (err) {
      const reason = await unreadable(p, err as NodeJS.ErrnoException);
      out.push({ name: p, load: () => Promise.reject(new Error(reason)) });
      return;
    }
    if (!info.isDirectory()) {
      if (named || p.toLowerCase().endsWith('.epub')) out.push({ name: p, load: () => readFile(p) });
      return;
    }
    for (const e of entries) await walk(join(p, e), false);
  };
  for (const p of paths) await walk(p, true);
  return out;
}

async function unreadable(path: string, err: NodeJS.ErrnoException): Promise<string> {
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
  const summary: ImportSummary = { added: 0, duplicate: 0, failed: [] };
  opts.progress?.start(sources.length);
  const ahead = new Map<number, Promise<PreparedImport>>();
  const prepare = (i: number) => {
    const src = sources[i];
    if (!src || ahead.has(i)) return;
    const p = src.load().then((input) =>
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
