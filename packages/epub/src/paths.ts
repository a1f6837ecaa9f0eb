import { posix } from 'node:path';

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
 * Resolves an href found in a document at `baseDir` to a path relative to the archive root,
 * percent-decoded, fragment dropped. Returns null for external links and paths escaping the root.
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
  return { path: normal === '.' ? '' : normal, fragment };
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
