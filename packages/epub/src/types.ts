export interface EpubMetadata {
  title: string;
  creators: string[];
  /** Authors (creators with role `aut`, else all creators) joined with ", ". */
  author: string;
  publisher: string;
  language: string;
  identifiers: string[];
  description: string;
  subjects: string[];
}

export interface EpubCover {
  /** Path inside the archive, relative to its root. */
  href: string;
  mediaType: string;
}

export interface TocEntry {
  /** Unique within the book: the source id when present and unique, else `toc-<order>`. */
  id: string;
  /** Path relative to the archive root, percent-decoded, with its `#fragment` kept. */
  href: string;
  /** At most MAX_TOC_LABEL characters. */
  label: string;
  /** 0-based depth. */
  level: number;
  /** `id` of the parent entry, '' at the top level. */
  pid: string;
  /** id attribute of the navPoint / nav list item as written in the book, '' when absent or too long. */
  navId: string;
  /** 1-based position in document order. */
  order: number;
  /** Resource path relative to the archive root, without fragment (the service makes it a URL). */
  text: string;
}

export interface TocNode extends TocEntry {
  children: TocNode[];
}

export type TocSource = 'nav' | 'ncx' | 'spine';

export interface ParsedEpub {
  metadata: EpubMetadata;
  /** Path of the OPF package document inside the archive. */
  rootFile: string;
  /** EPUB version from the package document (`2.0`, `3.0`, ...). */
  version: string;
  cover: EpubCover | null;
  contents: TocEntry[];
  contentsTree: TocNode[];
  /** Where the table of contents came from. */
  tocSource: TocSource;
}
