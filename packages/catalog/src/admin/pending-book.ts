import { MaxLength } from '@readlib/contracts';
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

/** Longest description kept from a package file (the contract gives it no limit; a page of text). */
const DESCRIPTION_MAX = 4_096;

/** At most `max` characters, never half of a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * The book fields an upload or import takes from the package file, held to the limits an operator's
 * update is held to (MaxLength): a 300,000-character title must not come through an upload whole and
 * make one admin list page weigh 900 KB.
 */
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
    title: clip(titleOf(parsed, originalName, stored.fileName), MaxLength.text),
    author: clip(m.author, MaxLength.text),
    publisher: clip(m.publisher, MaxLength.text),
    language: clip(m.language, MaxLength.code),
    description: clip(m.description, DESCRIPTION_MAX),
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
