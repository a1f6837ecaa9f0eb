import type { OpfPackage } from './opf.parser.js';
import { dirOf, resolveHref } from './paths.js';
import type { SafeZip } from './safe-unzip.js';
import type { RawTocItem } from './toc.builder.js';
import { descendants, elements, firstChild, readXml, textOf, type XNode } from './xml.js';

const NCX_TYPE = 'application/x-dtbncx+xml';

/** Reads the EPUB 2 NCX navMap; null when the book has none. */
export async function readNcxToc(zip: SafeZip, opf: OpfPackage): Promise<RawTocItem[] | null> {
  const item =
    opf.byId.get(opf.spineTocId) ??
    opf.manifest.find((i) => i.mediaType === NCX_TYPE) ??
    opf.manifest.find((i) => i.path.toLowerCase().endsWith('.ncx'));
  if (!item?.path || !zip.has(item.path)) return null;
  const ncxPath = zip.resolveName(item.path) ?? item.path;
  const doc = await readXml(zip, ncxPath, false);
  const navMap = descendants(doc, 'navMap')[0];
  if (!navMap) return null;
  return readPoints(navMap, dirOf(ncxPath), ncxPath);
}

function readPoints(parent: XNode, baseDir: string, ncxPath: string): RawTocItem[] {
  const items: RawTocItem[] = [];
  for (const point of elements(parent, 'navPoint')) {
    const labelNode = firstChild(point, 'navLabel');
    const label = labelNode ? textOf(firstChild(labelNode, 'text') ?? labelNode) : '';
    const target = resolveHref(baseDir, firstChild(point, 'content')?.attrs.src ?? '');
    const children = readPoints(point, baseDir, ncxPath);
    if (!target && children.length === 0) continue;
    items.push({
      label,
      path: target ? target.path || ncxPath : '',
      fragment: target?.fragment ?? '',
      navId: point.attrs.id ?? '',
      children,
    });
  }
  return items;
}
