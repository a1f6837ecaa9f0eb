import type { AdminBook, BookSummary, ContentsEntry, ContentsNode, ShelfEntry } from '@readlib/contracts';
import type { BookRow, ShelfRow, TocEntry } from '@readlib/data';
import type { PublicUrls } from './urls.js';

// Rows become contract types here and only here.

export function toBookSummary(row: BookRow, urls: PublicUrls): BookSummary {
  return {
    id: row.id,
    fileName: row.file_name,
    cover: urls.res(row.cover_path),
    title: row.title,
    author: row.author,
    publisher: row.publisher,
    bookId: row.file_name,
    category: row.category_id,
    categoryText: row.category_name,
    language: row.language,
    rootFile: row.root_file,
  };
}

export function toShelfEntry(row: ShelfRow, urls: PublicUrls): ShelfEntry {
  return { ...toBookSummary(row, urls), openId: row.open_id, date: Number(row.shelved_at) };
}

export function toAdminBook(row: BookRow, urls: PublicUrls): AdminBook {
  return {
    id: String(row.id),
    fileName: row.file_name,
    title: row.title,
    author: row.author,
    publisher: row.publisher,
    language: row.language,
    category: row.category_id,
    categoryText: row.category_name,
    cover: urls.res(row.cover_path),
    rootFile: row.root_file,
  };
}

type TocLike = Pick<TocEntry, 'entry_id' | 'href' | 'label' | 'level' | 'pid' | 'nav_id' | 'ord' | 'text'>;

/** The flat table of contents in document order; `text` becomes the resource's public URL. */
export function toContents(fileName: string, toc: TocLike[], urls: PublicUrls): ContentsEntry[] {
  return toc.map((e) => ({
    id: e.entry_id,
    href: e.href,
    label: e.label,
    level: e.level,
    pid: e.pid,
    navId: e.nav_id,
    order: e.ord,
    text: urls.unzipped(fileName, e.text),
  }));
}

/** Nests the flat list by `pid`; an entry whose parent is unknown becomes a root rather than vanishing. */
export function toContentsTree(contents: ContentsEntry[]): ContentsNode[] {
  const nodes = new Map<string, ContentsNode>();
  const roots: ContentsNode[] = [];
  for (const e of contents) nodes.set(e.id, { ...e, children: [] });
  for (const e of contents) {
    const node = nodes.get(e.id)!;
    const parent = e.pid ? nodes.get(e.pid) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}
