import { EpubError } from './errors.js';
import { IMAGE_HEAD_BYTES, sniffImageType } from './image.sniffer.js';
import type { ManifestItem, OpfPackage } from './opf.parser.js';
import { baseName, dirOf, resolveHref } from './paths.js';
import type { SafeZip } from './safe-unzip.js';
import type { EpubCover } from './types.js';
import { descendants, readXml, type XNode } from './xml.js';

const IMAGE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

export function mediaTypeFromPath(path: string): string {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return IMAGE_TYPES[ext] ?? '';
}

/** Guide pages (cover, title page) searched for a cover image: a book names one or two. */
const GUIDE_PAGES_TRIED = 3;

/**
 * Strategies from most to least explicit: EPUB 3 `cover-image` property, EPUB 2 `<meta name="cover">`,
 * the guide's cover page (its first image), then a manifest image that looks like a cover, then the first.
 * A candidate is a cover only when its bytes are a picture (`sniffImageType`), whatever its media type
 * or name say, and its media type is the one its bytes show: the package document, a page or a script
 * declared `image/svg+xml` would otherwise be stored and served as the book's picture.
 */
export async function resolveCover(zip: SafeZip, opf: OpfPackage): Promise<EpubCover | null> {
  const images = opf.manifest.filter((i) => isImage(i) && zip.has(i.path));
  const asCover = (item: ManifestItem | undefined): EpubCover | null =>
    item && isImage(item) && zip.has(item.path) ? toCover(zip, item.path) : null;

  const byProperty = asCover(opf.manifest.find((i) => i.properties.includes('cover-image')));
  if (byProperty) return byProperty;

  if (opf.coverMetaContent) {
    const content = opf.coverMetaContent;
    const byMeta =
      asCover(opf.byId.get(content)) ??
      asCover(opf.manifest.find((i) => i.path === resolveHref(opf.dir, content)?.path));
    if (byMeta) return byMeta;
  }

  // each page at most once, and only the first few: 200 references to one 1 MiB page would parse it
  // 200 times, holding the service
  const pages = new Set(
    opf.guide.filter((r) => r.type === 'cover' || r.type === 'title-page').map((r) => r.path),
  );
  for (const page of [...pages].slice(0, GUIDE_PAGES_TRIED)) {
    const found = await coverFromPage(zip, page);
    if (found) return found;
  }

  const named = images.filter((i) => /cover/i.test(i.id) || /cover/i.test(baseName(i.path)));
  return firstCover(zip, named) ?? firstCover(zip, images);
}

/** Manifest images whose bytes are tried, in order, by each fallback: a book names a few pictures first. */
const FALLBACK_IMAGES_TRIED = 8;

function firstCover(zip: SafeZip, items: ManifestItem[]): EpubCover | null {
  for (const item of items.slice(0, FALLBACK_IMAGES_TRIED)) {
    const cover = toCover(zip, item.path);
    if (cover) return cover;
  }
  return null;
}

function isImage(item: ManifestItem): boolean {
  return item.path !== '' && (item.mediaType.startsWith('image/') || mediaTypeFromPath(item.path) !== '');
}

/** The entry at `path` as a cover when its bytes are a picture, typed by them; null otherwise. */
function toCover(zip: SafeZip, path: string): EpubCover | null {
  const href = zip.resolveName(path) ?? path;
  const mediaType = sniffImageType(zip.head(href, IMAGE_HEAD_BYTES));
  return mediaType ? { href, mediaType } : null;
}

/** A guide cover may point at the image itself or at an XHTML page showing it. */
async function coverFromPage(zip: SafeZip, pagePath: string): Promise<EpubCover | null> {
  if (!zip.has(pagePath)) return null;
  if (mediaTypeFromPath(pagePath)) return toCover(zip, pagePath);
  let doc: XNode;
  try {
    doc = await readXml(zip, pagePath, false);
  } catch (err) {
    // A DTD in the cover page is refused like anywhere else; a merely broken page is skipped.
    if (err instanceof EpubError && err.code === 'XML_DTD') throw err;
    return null;
  }
  const candidates = [
    ...descendants(doc, 'img').map((n) => n.attrs.src),
    ...descendants(doc, 'image').map((n) => n.attrs.href),
  ];
  for (const src of candidates.slice(0, FALLBACK_IMAGES_TRIED)) {
    const target = src ? resolveHref(dirOf(pagePath), src) : null;
    const cover = target?.path && zip.has(target.path) ? toCover(zip, target.path) : null;
    if (cover) return cover;
  }
  return null;
}
