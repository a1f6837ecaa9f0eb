import type { TocEntry, TocNode } from './types.js';

/** A table-of-contents item as read from nav, NCX or spine, before numbering. */
export interface RawTocItem {
  label: string;
  /** Archive path (decoded) without fragment; '' when the item links nowhere. */
  path: string;
  fragment: string;
  navId: string;
  children: RawTocItem[];
}

/**
 * Longest table-of-contents label kept, in characters: as long as the title, author and publisher the
 * catalogue keeps. Labels are stored with the book and sent with every contents answer: one nav label
 * of 3.5 MB kept whole would make each of them 7 MB.
 */
export const MAX_TOC_LABEL = 256;

/** Longest id of the book's own kept (`navId`, and `id` when unique); a longer one counts as absent. */
export const MAX_TOC_ID = 256;

/** Numbers items in document order and gives each a unique id that children point to. */
export function buildToc(items: RawTocItem[]): { contents: TocEntry[]; contentsTree: TocNode[] } {
  const contents: TocEntry[] = [];
  const used = new Set<string>();
  const walk = (list: RawTocItem[], level: number, pid: string): TocNode[] =>
    list.map((item) => {
      const order = contents.length + 1;
      const navId = item.navId.length > MAX_TOC_ID ? '' : item.navId;
      const id = navId && !used.has(navId) ? navId : freeId(`toc-${order}`, used);
      used.add(id);
      const entry: TocEntry = {
        id,
        href: item.fragment ? `${item.path}#${item.fragment}` : item.path,
        label: clip(item.label, MAX_TOC_LABEL),
        level,
        pid,
        navId,
        order,
        text: item.path,
      };
      contents.push(entry);
      return { ...entry, children: walk(item.children, level + 1, id) };
    });
  const contentsTree = walk(items, 0, '');
  return { contents, contentsTree };
}

/**
 * `base`, or `base-2`, `base-3`... when a book's own ids took it: ids are what children point to and
 * what the tree is built from, so two entries sharing one lost the first and repeated the second.
 */
function freeId(base: string, used: ReadonlySet<string>): string {
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
  return id;
}

/** At most `max` characters, never half of a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * Deepest level of a table of contents kept (levels 0 to MAX_TOC_DEPTH - 1). Entries deeper are kept,
 * in document order, at the last level, after the entry they descend from: real books nest a few
 * levels, and a reader's tree and every contents answer are walked level by level.
 */
export const MAX_TOC_DEPTH = 16;

/** The items with every entry below level `max - 1` moved up to that level, in document order. */
export function capDepth(items: RawTocItem[], max: number, level = 0): RawTocItem[] {
  if (level < max - 1)
    return items.map((item) => ({ ...item, children: capDepth(item.children, max, level + 1) }));
  const flat: RawTocItem[] = [];
  const add = (list: RawTocItem[]) => {
    for (const item of list) {
      flat.push({ ...item, children: [] });
      add(item.children);
    }
  };
  add(items);
  return flat;
}

export function countItems(items: RawTocItem[]): number {
  return items.reduce((n, item) => n + 1 + countItems(item.children), 0);
}
