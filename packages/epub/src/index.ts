export { mediaTypeFromPath } from './cover.resolver.js';
export {
  EPUB_ERROR_CODES,
  EpubError,
  type EpubErrorCode,
  isEpubError,
  UNSAFE_ARCHIVE_CODES,
} from './errors.js';
export {
  assertValidFileName,
  type BookPaths,
  FILE_NAME_PATTERN,
  FileStore,
  NEW_FILE_NAME_PATTERN,
  type StoredBook,
} from './file-store.js';
export { assertArchiveSize, DEFAULT_LIMITS, type EpubLimits, resolveLimits } from './limits.js';
export { MAX_TOC_ENTRIES, parseEpub } from './parse-epub.js';
export { isSafeStorePath, MAX_FRAGMENT } from './paths.js';
export { MAX_TOC_DEPTH, MAX_TOC_ID, MAX_TOC_LABEL } from './toc.builder.js';
export type { EpubCover, EpubMetadata, ParsedEpub, TocEntry, TocNode, TocSource } from './types.js';
export { MAX_XML_DOCUMENT_BYTES, MAX_XML_MARKUP, MAX_XML_NESTING } from './xml.js';
