import { mkdir, readdir, stat } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { EpubError } from './errors.js';
import type { SafeZip } from './safe-unzip.js';
import type { EpubCover } from './types.js';

const COVER_EXT: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
};

export async function unpackTo(zip: SafeZip, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const entry of zip.entries) {
    const target = resolve(dir, entry.name);
    // Names were validated in SafeZip; this re-check guards against any future change there.
    if (!target.startsWith(dir + sep))
      throw new EpubError('UNSAFE_PATH', `entry ${entry.name} escapes the book folder`);
    if (entry.isDirectory) {
      await mkdir(target, { recursive: true });
    } else {
      await mkdir(dirname(target), { recursive: true });
      // one entry at a time, inflated straight to disk (never a whole entry in memory)
      await zip.extractTo(entry.name, target);
    }
  }
}

export function coverExtension(cover: EpubCover): string | null {
  const fromType = COVER_EXT[cover.mediaType];
  if (fromType) return fromType;
  const ext = cover.href.slice(cover.href.lastIndexOf('.') + 1).toLowerCase();
  return /^[a-z0-9]{1,5}$/.test(ext) ? ext : null;
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
