import { lstat, mkdir, readdir, rename, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { EpubError } from './errors.js';
import type { SafeZip } from './safe-unzip.js';
import type { EpubCover } from './types.js';

const COVER_EXT: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'image/avif': 'avif',
  'image/bmp': 'bmp',
};

/**
 * Entries written at once. Each file is several thread-pool round trips (mkdir, open, write, close);
 * one at a time, a bulk import left its thread idle more than half the time.
 */
const UNPACK_CONCURRENCY = 4;

export async function unpackTo(zip: SafeZip, dir: string): Promise<void> {
  const dirs = new Set<string>([dir]);
  const files: Array<{ name: string; target: string }> = [];
  for (const entry of zip.entries) {
    const target = resolve(dir, entry.name);
    // Names were validated in SafeZip; this re-check guards against any future change there.
    if (!target.startsWith(dir + sep))
      throw new EpubError('UNSAFE_PATH', `entry ${entry.name} escapes the book folder`);
    if (entry.isDirectory) dirs.add(target);
    else {
      dirs.add(dirname(target));
      files.push({ name: entry.name, target });
    }
  }
  // each folder once (a book's twenty files share two or three), parents first
  for (const d of [...dirs].sort()) await mkdir(d, { recursive: true });
  // each entry inflated straight to disk (never a large entry whole in memory)
  await eachInOrder(files, UNPACK_CONCURRENCY, (f) => zip.extractTo(f.name, f.target));
}

/** Waits for every task; then throws the first failure in the order given, if any. */
export async function settledAll(tasks: ReadonlyArray<Promise<unknown> | undefined>): Promise<void> {
  const results = await Promise.allSettled(tasks);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

/**
 * Runs `work` over the items in order, at most `limit` at once. After a failure it starts no more,
 * waits for the ones running, and throws the failure of the earliest item, as a loop would have.
 */
export async function eachInOrder<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const failures: Array<{ at: number; err: unknown }> = [];
  const lane = async () => {
    while (failures.length === 0 && next < items.length) {
      const at = next++;
      try {
        await work(items[at]!);
      } catch (err) {
        failures.push({ at, err });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failures.length > 0) throw failures.sort((a, b) => a.at - b.at)[0]!.err;
}

/** Image extensions a cover of an unknown media type may keep; anything else is no cover. */
const IMAGE_EXT = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'svg', 'avif', 'bmp']);

/**
 * The stored cover's extension, which decides the type /res/ serves it as: a "cover" of an unknown
 * media type named `cover.html` must not be stored and served as text/html.
 */
export function coverExtension(cover: EpubCover): string | null {
  const fromType = COVER_EXT[cover.mediaType];
  if (fromType) return fromType;
  const ext = cover.href.slice(cover.href.lastIndexOf('.') + 1).toLowerCase();
  return IMAGE_EXT.has(ext) ? ext : null;
}

/**
 * Moves `src` to `dest` unless `dest` is there; into a folder already at `dest` goes what it lacks,
 * entry by entry. Each move is one rename, so everything in place is whole, and nothing in place is
 * removed. A writer of the same bytes moving in between has its identical file replaced, atomically.
 * Whether anything was moved.
 */
export async function moveMissing(src: string, dest: string): Promise<boolean> {
  if (!(await lstat(src)).isDirectory()) {
    if (await exists(dest)) return false;
    await rename(src, dest);
    return true;
  }
  try {
    // a folder renamed onto nothing (or onto an empty folder) in one step
    await rename(src, dest);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
  }
  let moved = false;
  for (const name of await readdir(src)) {
    if (await moveMissing(join(src, name), join(dest, name))) moved = true;
  }
  return moved;
}

export function stem(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

export async function listDir(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}
