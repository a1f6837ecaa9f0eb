import type { OpfPackage } from './opf.parser.js';
import { dirOf, resolveHref } from './paths.js';
import type { SafeZip } from './safe-unzip.js';
import type { RawTocItem } from './toc.builder.js';
import { descendants, elements, firstChild, readXml, textOf, type XNode } from './xml.js';

/** Reads the EPUB 3 navigation document's `<nav epub:type="toc">`; null when the book has none. */
export async function readNavToc(zip: SafeZip, opf: OpfPackage): Promise<RawTocItem[] | null> {
  const navItem = opf.manifest.find((i) => i.properties.includes('nav') && i.path);
  if (!navItem || !zip.has(navItem.path)) return null;
  const navPath = zip.resolveName(navItem.path) ?? navItem.path;
  const doc = await readXml(zip, navPath, false);
  const navs = descendants(doc, 'nav');
  const toc = navs.find((n) => (n.attrs.type ?? '').split(/\s+/).includes('toc')) ?? navs[0];
  const list = toc ? descendants(toc, 'ol')[0] : undefined;
  if (!list) return null;
  return readList(list, dirOf(navPath), navPath);
}

function readList(ol: XNode, baseDir: string, navPath: string): RawTocItem[] {
  const items: RawTocItem[] = [];
  for (const li of elements(ol, 'li')) {
    const anchor = firstChild(li, 'a') ?? firstChild(li, 'span');
    const nested = firstChild(li, 'ol');
    const children = nested ? readList(nested, baseDir, navPath) : [];
    // Unlinked headings (`<span>`) point at their first linked child so every entry opens something.
    const href = anchor?.attrs.href ?? descendants(li, 'a')[0]?.attrs.href ?? '';
    const target = resolveHref(baseDir, href);
    if (!target && children.length === 0) continue;
    items.push({
      label: anchor ? textOf(anchor) || (anchor.attrs.title ?? '') : '',
      path: target ? target.path || navPath : '',
      fragment: target?.fragment ?? '',
      navId: li.attrs.id ?? anchor?.attrs.id ?? '',
      children,
    });
  }
  return items;
}
