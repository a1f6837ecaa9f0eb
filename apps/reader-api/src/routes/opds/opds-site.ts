import type { PublicUrls } from '@readlib/catalog';
import { OpdsMediaType } from '@readlib/contracts';
import type { BookRow } from '@readlib/data';
import { mediaTypeFromPath } from '@readlib/epub';

/** The two OPDS dialects: OPDS 1.2 (Atom) under /opds, OPDS 2.0 (JSON) under /opds/v2. */
export type Dialect = 'atom' | 'json';

export const OPDS_ROOTS: Record<Dialect, string> = { atom: '/opds', json: '/opds/v2' };

/** Where a book's file, cover and publication document are, for either dialect. */
export interface Link {
  href: string;
  type: string;
}

/**
 * Absolute URLs of the catalogue from PUBLIC_BASE_URL (an app keeps them; a relative one would resolve
 * against whatever address the app was given), and what both renderers say of a book.
 */
export class OpdsSite {
  /** the placeholder cover: an OPDS 2 publication must have an image in JPEG, PNG or GIF */
  readonly noCover: Link;

  constructor(
    private readonly base: string,
    private readonly files: PublicUrls,
  ) {
    this.noCover = { href: `${base}/opds/no-cover.png`, type: 'image/png' };
  }

  /** A feed of the dialect by its path under the dialect's root ('' is the root). */
  feed(dialect: Dialect, path: string): string {
    return `${this.base}${OPDS_ROOTS[dialect]}${path}`;
  }

  publication(dialect: Dialect, book: BookRow): Link {
    return {
      href: this.feed(dialect, `/publication?fileName=${encodeURIComponent(book.file_name)}`),
      type: dialect === 'atom' ? OpdsMediaType.entry : OpdsMediaType.publication2,
    };
  }

  /** The OpenSearch description (the reader table's getOpdsSearchDescription). */
  openSearch(): string {
    return `${this.base}/opds/opensearch`;
  }

  /** The stored EPUB under /res/epub/, else the download address of a book created without a file. */
  acquisition(book: BookRow): Link {
    return { href: book.file_path ? this.files.res(book.file_path) : book.url, type: OpdsMediaType.epub };
  }

  /** The stored cover, typed by its extension (as the upload typed it); undefined without one. */
  cover(book: BookRow): Link | undefined {
    const type = book.cover_path ? mediaTypeFromPath(book.cover_path) : '';
    return type ? { href: this.files.res(book.cover_path), type } : undefined;
  }
}

export const bookUrn = (book: BookRow) => `urn:readlib:book:${book.file_name}`;

export const isoTime = (ms: number) => new Date(ms).toISOString();

/**
 * The book's language when it is a well-formed BCP 47 tag, canonicalised (`EN-us` → `en-US`); EPUB
 * metadata holds anything, and OPDS 2 requires a tag.
 */
export function languageTag(book: BookRow): string | undefined {
  if (!book.language.trim()) return undefined;
  try {
    return Intl.getCanonicalLocales(book.language.trim())[0];
  } catch {
    return undefined;
  }
}

/** The entry's short text of a navigation link: how many books it leads to, when known. */
export function countText(count: number | undefined, title: string): string {
  if (count === undefined) return title;
  return count === 1 ? '1 book' : `${count} books`;
}
