import type {
  AdminBook,
  BookDetail,
  BookSummary,
  CategoryItem,
  ContentsEntry,
  ContentsNode,
  ContentsTree,
  HotSearchItem,
  Reader,
  ShelfEntry,
} from '@readlib/contracts';
import type { BookRow, BookSummaryRow, CategoryCount, ReaderRow, ShelfRow, TocEntry } from '@readlib/data';
import type { PublicUrls } from './urls.js';

// Rows become contract types here and only here.

export function toBookSummary(row: BookSummaryRow, urls: PublicUrls): BookSummary {
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

/** The admin list shows a book as a summary does (its paths, flags and times are the detail's). */
export function toAdminBook(row: BookSummaryRow, urls: PublicUrls): AdminBook {
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

/**
 * Nests the flat list by `pid` into the array of top-level entries; an entry whose parent is unknown
 * becomes a top-level entry rather than vanishing.
 */
export function toContentsTree(contents: ContentsEntry[]): ContentsTree {
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

/** What a detail needs beyond the book row: readers, counts and the caller's rating. */
export interface DetailFacts {
  readers: ReaderRow[];
  readerNum: number;
  rank: number;
  rankNum: number;
  rankAvg: number;
}

export function toReader(row: ReaderRow): Reader {
  return { avatarUrl: row.avatar_url, nickName: row.nick_name, create_dt: Number(row.last_viewed_at) };
}

/**
 * The average as the shortest decimal string rounded to 2 places ("4.5", "4.67", "0" when none).
 * Rounded from the integer sum so x.xx5 averages round up instead of drifting with binary floats.
 */
export function formatRankAvg(avg: number, num: number): string {
  if (num <= 0) return '0';
  const sum = Math.round(avg * num);
  return String(Math.round((sum * 100) / num) / 100);
}

/** The fields of a book detail that are its row's alone (the summary, flags, OPF), in the contract's order. */
export function toBookDetailHead(row: BookRow, urls: PublicUrls) {
  return {
    ...toBookSummary(row, urls),
    selected: row.selected !== 0,
    private: row.private !== 0,
    cache: row.cache !== 0,
    haveRead: Number(row.have_read),
    opf: urls.opf(row.file_name, row.root_file),
  };
}

export function toBookDetail(row: BookRow, facts: DetailFacts, urls: PublicUrls): BookDetail {
  return {
    ...toBookDetailHead(row, urls),
    readers: facts.readers.map(toReader),
    readerNum: facts.readerNum,
    rank: facts.rank,
    rankNum: facts.rankNum,
    rankAvg: formatRankAvg(facts.rankAvg, facts.rankNum),
  };
}

/** A category with its count and two cover URLs; a one-cover category repeats it rather than show a hole. */
export function toCategoryItem(c: CategoryCount, covers: readonly string[], urls: PublicUrls): CategoryItem {
  const cover = urls.res(covers[0] ?? '');
  return {
    category: c.id,
    categoryText: c.name,
    num: c.num,
    cover,
    cover2: covers[1] ? urls.res(covers[1]) : cover,
  };
}

export function toHotSearchItem(row: BookRow): HotSearchItem {
  return { title: row.title, fileName: row.file_name };
}
