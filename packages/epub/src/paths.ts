import { posix } from 'node:path';
import { MAX_NAME_BYTES } from './zip-entry.guard.js';

/**
 * Longest fragment kept from an href, in characters (real ones are element ids, `chapter-12`, a uuid);
 * a longer one is dropped and the link opens its document: a book's hrefs are stored and sent with it.
 */
export const MAX_FRAGMENT = 256;

/** Splits `a/b.xhtml#frag` into path and fragment (fragment without `#`, '' when absent). */
export function splitFragment(href: string): { path: string; fragment: string } {
  const hash = href.indexOf('#');
  if (hash < 0) return { path: href, fragment: '' };
  return { path: href.slice(0, hash), fragment: href.slice(hash + 1) };
}

export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    // Malformed escapes (`100%.xhtml`) are real file names more often than broken links.
    return value;
  }
}

export function dirOf(archivePath: string): string {
  const dir = posix.dirname(archivePath);
  return dir === '.' ? '' : dir;
}

export function hasScheme(href: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(href);
}

/**
 * Whether a path a package document names leaves the archive: absolute (`/x`, `\x`, `C:x`, a URL) or
 * climbing above its root. Entry names cannot (zip-entry.guard.ts), so such a path names nothing in
 * the book, only somewhere outside it.
 */
export function leavesArchive(path: string): boolean {
  if (/^[/\\]/.test(path) || hasScheme(path)) return true;
  const normal = posix.normalize(path.replace(/\\/g, '/'));
  return normal === '..' || normal.startsWith('../');
}

/**
 * Resolves an href found in a document at `baseDir` to a path relative to the archive root,
 * percent-decoded, fragment apart. Returns null for external links, paths escaping the root and paths
 * longer than any entry name (they name nothing in the book, and are stored with its contents).
 */
export function resolveHref(baseDir: string, href: string): { path: string; fragment: string } | null {
  const trimmed = href.trim();
  if (trimmed === '' || hasScheme(trimmed)) return null;
  const { path, fragment } = splitFragment(trimmed);
  const decoded = safeDecode(path.split('?')[0] ?? '');
  if (decoded === '') return { path: '', fragment };
  const joined = decoded.startsWith('/') ? decoded.slice(1) : posix.join(baseDir, decoded);
  const normal = posix.normalize(joined);
  if (normal === '..' || normal.startsWith('../') || normal.startsWith('/')) return null;
  if (Buffer.byteLength(normal) > MAX_NAME_BYTES) return null;
  return { path: normal === '.' ? '' : normal, fragment: fragment.length > MAX_FRAGMENT ? '' : fragment };
}

export function baseName(archivePath: string): string {
  const name = posix.basename(archivePath);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * A path of the store (as books record it, or as `/res/` serves it) that cannot leave where it points:
 * no dot segments, backslashes or NUL. It is checked as given: a caller decodes a URL once before (so
 * a `%` left is part of a file name, `100%.xhtml`, and a double-encoded `..` names a file `%2e%2e`).
 */
export function isSafeStorePath(path: string): boolean {
  if (/[\\\0]/.test(path)) return false;
  return path.split('/').every((seg) => seg !== '..' && seg !== '.');
}
