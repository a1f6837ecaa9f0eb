import type { ParsedEpub, StoredBook, TocEntry } from '@readlib/epub';

/** What an upload keeps (as JSON in `uploads.parsed`) until POST /book/create turns it into a book. */
export interface PendingBook {
  fileName: string;
  originalName: string;
  title: string;
  author: string;
  publisher: string;
  language: string;
  description: string;
  categoryId: number;
  rootFile: string;
  /** store-relative paths, '' when absent */
  coverPath: string;
  filePath: string;
  unzipPath: string;
  contents: TocEntry[];
}

export function pendingFrom(
  parsed: ParsedEpub,
  stored: StoredBook,
  categoryId: number,
  originalName: string,
): PendingBook {
  const m = parsed.metadata;
  return {
    fileName: stored.fileName,
    originalName,
    title: titleOf(parsed, originalName, stored.fileName),
    author: m.author,
    publisher: m.publisher,
    language: m.language,
    description: m.description,
    categoryId,
    rootFile: parsed.rootFile,
    coverPath: stored.relative.cover ?? '',
    filePath: stored.relative.epub,
    unzipPath: stored.relative.unzip,
    contents: parsed.contents,
  };
}

export function parsePending(json: string): PendingBook {
  return JSON.parse(json) as PendingBook;
}

/** A book without a title still needs a name an operator can find in the list. */
export function titleOf(parsed: ParsedEpub, originalName: string, fileName: string): string {
  return parsed.metadata.title.trim() || originalName.replace(/\.epub$/i, '').trim() || fileName;
}
