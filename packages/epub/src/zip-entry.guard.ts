import { EpubError } from './errors.js';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
/** Longest entry name, in UTF-8 bytes: a longer path in a book's documents names nothing in it. */
export const MAX_NAME_BYTES = 1024;
const MAX_SEGMENT_BYTES = 255;
/** Real books nest three or four folders deep; 510 levels per name made 508,017 folders of 2 GB. */
export const MAX_PATH_DEPTH = 16;

/**
 * Refuses entry names that could escape the extraction folder or confuse the file system. Names are
 * checked as stored, never normalised first: normalising `a/../../x` is how traversal slips through.
 */
export function assertSafeEntryName(name: string): void {
  const refuse = (why: string): never => {
    throw new EpubError('UNSAFE_PATH', `archive entry ${JSON.stringify(name.slice(0, 200))} ${why}`);
  };
  if (name.length === 0) refuse('has an empty name');
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) refuse('has too long a name');
  if (name.includes('\\')) refuse('contains a backslash');
  if (name.startsWith('/')) refuse('is an absolute path');
  if (/^[A-Za-z]:/.test(name)) refuse('is a drive-letter path');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) refuse('contains control characters');
  const segments = name.endsWith('/') ? name.slice(0, -1).split('/') : name.split('/');
  if (segments.length > MAX_PATH_DEPTH) refuse(`is nested over ${MAX_PATH_DEPTH} folders deep`);
  for (const segment of segments) {
    if (segment === '..') refuse('climbs out of the archive (..)');
    if (segment === '' || segment === '.') refuse('has an empty or "." path segment');
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) refuse('has too long a path segment');
  }
}

/** Unix mode lives in the high 16 bits of the external attributes (for archives made on Unix). */
export function assertNotSymlink(name: string, externalAttr: number): void {
  if (((externalAttr >>> 16) & S_IFMT) === S_IFLNK) {
    throw new EpubError('SYMLINK', `archive entry ${JSON.stringify(name.slice(0, 200))} is a symbolic link`);
  }
}
