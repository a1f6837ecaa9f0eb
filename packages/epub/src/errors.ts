/**
 * Why this package refused a book. The list is a value of its own module (`@readlib/epub/errors`, which
 * imports nothing), so the console's bundle names each refusal from it without the parser.
 */
export const EPUB_ERROR_CODES = [
  'NOT_A_ZIP',
  'CORRUPT_ZIP',
  'TOO_LARGE',
  'TOO_MANY_ENTRIES',
  'ENTRY_TOO_LARGE',
  'COMPRESSION_RATIO',
  'UNSAFE_PATH',
  'SYMLINK',
  'ENCRYPTED',
  'XML_DTD',
  'BROKEN_XML',
  'MISSING_CONTAINER',
  'MISSING_OPF',
  'INVALID_FILE_NAME',
  'BOOK_EXISTS',
  'STORE_FAILED',
  // An unexpected failure while reading a damaged book; the original error is the `cause`.
  'UNREADABLE',
] as const;
export type EpubErrorCode = (typeof EPUB_ERROR_CODES)[number];

/** Every refusal of this package is an EpubError, so callers can map `code` to an HTTP status. */
export class EpubError extends Error {
  override readonly name = 'EpubError';
  readonly code: EpubErrorCode;

  constructor(code: EpubErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isEpubError(err: unknown): err is EpubError {
  return err instanceof EpubError;
}

/** Codes that mean "the uploaded file is refused" (as opposed to a server-side store failure). */
export const UNSAFE_ARCHIVE_CODES: readonly EpubErrorCode[] = [
  'TOO_LARGE',
  'TOO_MANY_ENTRIES',
  'ENTRY_TOO_LARGE',
  'COMPRESSION_RATIO',
  'UNSAFE_PATH',
  'SYMLINK',
  'XML_DTD',
];
