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

/** Numbers items in document order and gives each a unique id that children point to. */
export function buildToc(items: RawTocItem[]): { contents: TocEntry[]; contentsTree: TocNode[] } {
  const contents: TocEntry[] = [];
  const used = new Set<string>();
  const walk = (list: RawTocItem[], level: number, pid: string): TocNode[] =>
    list.map((item) => {
      const order = contents.length + 1;
      const id = item.navId && !used.has(item.navId) ? item.navId : freeId(`toc-${order}`, used);
      used.add(id);
      const entry: TocEntry = {
        id,
        href: item.fragment ? `${item.path}#${item.fragment}` : item.path,
        label: item.label,
        level,
        pid,
        navId: item.navId,
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

export function countItems(items: RawTocItem[]): number {
  return items.reduce((n, item) => n + 1 + countItems(item.children), 0);
}
