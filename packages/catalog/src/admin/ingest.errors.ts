import type { ErrorKind } from '@readlib/contracts';
import { AppError } from '@readlib/contracts';
import { type EpubErrorCode, isEpubError, UNSAFE_ARCHIVE_CODES } from '@readlib/epub';

/** Files that are simply not a readable EPUB (HTTP 415), as opposed to hostile ones (HTTP 422). */
const NOT_AN_EPUB: readonly EpubErrorCode[] = [
  'NOT_A_ZIP',
  'CORRUPT_ZIP',
  'MISSING_CONTAINER',
  'MISSING_OPF',
  'BROKEN_XML',
  'ENCRYPTED',
  'UNREADABLE',
];

/** An EpubError as the failure class of decisions.md §2; anything else (disk full...) stays internal. */
export function epubRefusal(err: unknown): unknown {
  if (!isEpubError(err)) return err;
  let kind: ErrorKind | undefined;
  if (UNSAFE_ARCHIVE_CODES.includes(err.code)) kind = 'unsafe_archive';
  else if (NOT_AN_EPUB.includes(err.code)) kind = 'unsupported_media';
  else if (err.code === 'BOOK_EXISTS') kind = 'conflict';
  else if (err.code === 'INVALID_FILE_NAME') kind = 'invalid';
  if (!kind) return err;
  const refusal = new AppError(kind, `${err.code}: ${err.message}`);
  refusal.cause = err;
  return refusal;
}

/** A unique-constraint violation on either dialect (a concurrent create of the same fileName). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
