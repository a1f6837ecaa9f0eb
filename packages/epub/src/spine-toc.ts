import { EpubError } from './errors.js';
import type { OpfPackage } from './opf.parser.js';
import { baseName } from './paths.js';
import type { SafeZip } from './safe-unzip.js';
import type { RawTocItem } from './toc.builder.js';
import { descendants, parseXml, textOf } from './xml.js';

/** Last resort when a book has no usable TOC: one entry per spine document, titled from `<title>`. */
export function spineToc(zip: SafeZip, opf: OpfPackage): RawTocItem[] {
  const seen = new Set<string>();
  const items: RawTocItem[] = [];
  for (const item of opf.spine) {
    const path = zip.resolveName(item.path);
    if (!path || seen.has(path)) continue;
    seen.add(path);
    items.push({
      label: titleOf(zip, path) || baseName(path),
      path,
      fragment: '',
      navId: item.id,
      children: [],
    });
  }
  return items;
}

function titleOf(zip: SafeZip, path: string): string {
  try {
    const title = descendants(parseXml(zip.read(path), path, false), 'title')[0];
    return title ? textOf(title) : '';
  } catch (err) {
    if (err instanceof EpubError && err.code !== 'BROKEN_XML') throw err;
    return '';
  }
}
