import { posix } from 'node:path';
import { type RawZipEntry, writeZip } from './zip-writer.js';

export interface ChapterSpec {
  title: string;
  /** File name inside `chapterDir`; may contain spaces or non-ASCII characters (hrefs get encoded). */
  fileName?: string;
  body?: string;
  children?: ChapterSpec[];
}

export interface MakeEpubOptions {
  version?: 2 | 3;
  title?: string;
  creators?: string[];
  publisher?: string;
  language?: string;
  subjects?: string[];
  identifier?: string;
  description?: string;
  /** true: a 1x1 PNG; a Buffer: that PNG. */
  cover?: boolean | Buffer;
  chapters?: ChapterSpec[];
  /** Folder of the OPF (default `OEBPS`). */
  opfDir?: string;
  /** Folder of chapter files relative to the OPF folder (default `text`). */
  chapterDir?: string;
  /** Folder of the nav/NCX relative to the OPF folder (default: the OPF folder). */
  navDir?: string;
  /** Default: `nav` + `ncx` for EPUB 3, `ncx` for EPUB 2. */
  toc?: 'nav' | 'ncx' | 'both' | 'none';
  /** Extra raw entries appended to the archive. */
  extraEntries?: RawZipEntry[];
}

/** 1x1 transparent PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const encodePath = (p: string): string => p.split('/').map(encodeURIComponent).join('/');

interface FlatChapter {
  spec: ChapterSpec;
  id: string;
  /** Path relative to the OPF folder. */
  path: string;
  children: FlatChapter[];
}

/** Builds a valid EPUB 2 or 3 archive in memory. */
export function makeEpub(options: MakeEpubOptions = {}): Buffer {
  const version = options.version ?? 3;
  const opfDir = options.opfDir ?? 'OEBPS';
  const chapterDir = options.chapterDir ?? 'text';
  const navDir = options.navDir ?? '';
  const toc = options.toc ?? (version === 3 ? 'both' : 'ncx');
  const title = options.title ?? 'Untitled';
  const all: FlatChapter[] = [];
  const flatten = (specs: ChapterSpec[]): FlatChapter[] =>
    specs.map((spec) => {
      const n = all.length + 1;
      const ch: FlatChapter = {
        spec,
        id: `ch${n}`,
        path: posix.join(chapterDir, spec.fileName ?? `chapter-${n}.xhtml`),
        children: [],
      };
      all.push(ch);
      ch.children = flatten(spec.children ?? []);
      return ch;
    });
  const tree = flatten(options.chapters ?? [{ title: 'Chapter 1' }]);
  const inOpf = (p: string): string => posix.normalize(opfDir ? `${opfDir}/${p}` : p);
  const fromNav = (p: string): string => encodePath(posix.relative(navDir || '.', p));
  const files: RawZipEntry[] = [];
  const manifest: string[] = [];

  const cover = options.cover === true ? TINY_PNG : options.cover || null;
  if (cover) {
    const props = version === 3 ? ' properties="cover-image"' : '';
    manifest.push(`<item id="cover-image" href="images/cover.png" media-type="image/png"${props}/>`);
    files.push({ name: inOpf('images/cover.png'), data: cover });
  }
  for (const ch of all) {
    manifest.push(
      `<item id="${ch.id}" href="${esc(encodePath(ch.path))}" media-type="application/xhtml+xml"/>`,
    );
    const body = ch.spec.body ?? `<p>${esc(ch.spec.title)}</p>`;
    files.push({ name: inOpf(ch.path), data: xhtml(ch.spec.title, `<h1>${esc(ch.spec.title)}</h1>${body}`) });
  }
  if (toc === 'nav' || toc === 'both') {
    const list = (chs: FlatChapter[]): string =>
      `<ol>${chs.map((c) => `<li id="nav-${c.id}"><a href="${esc(fromNav(c.path))}">${esc(c.spec.title)}</a>${c.children.length ? list(c.children) : ''}</li>`).join('')}</ol>`;
    const navPath = posix.join(navDir, 'nav.xhtml');
    manifest.push(`<item id="nav" href="${navPath}" media-type="application/xhtml+xml" properties="nav"/>`);
    files.push({
      name: inOpf(navPath),
      data: xhtml(title, `<nav epub:type="toc" id="toc">${list(tree)}</nav>`),
    });
  }
  if (toc === 'ncx' || toc === 'both') {
    const points = (chs: FlatChapter[]): string =>
      chs
        .map(
          (c) =>
            `<navPoint id="np-${c.id}"><navLabel><text>${esc(c.spec.title)}</text></navLabel><content src="${esc(fromNav(c.path))}"/>${points(c.children)}</navPoint>`,
        )
        .join('');
    const ncxPath = posix.join(navDir, 'toc.ncx');
    manifest.push(`<item id="ncx" href="${ncxPath}" media-type="application/x-dtbncx+xml"/>`);
    files.push({
      name: inOpf(ncxPath),
      data: `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "http://www.daisy.org/z3986/2005/ncx-2005-1.dtd">\n<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head/><docTitle><text>${esc(title)}</text></docTitle><navMap>${points(tree)}</navMap></ncx>`,
    });
  }
  const dc = (tag: string, values: string[]): string =>
    values.map((v) => `<dc:${tag}>${esc(v)}</dc:${tag}>`).join('');
  const opf = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="${version}.0" unique-identifier="bookid">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
<dc:title>${esc(title)}</dc:title>${dc('creator', options.creators ?? [])}${dc('publisher', options.publisher ? [options.publisher] : [])}
<dc:language>${esc(options.language ?? 'en')}</dc:language><dc:identifier id="bookid">${esc(options.identifier ?? 'urn:uuid:00000000-0000-4000-8000-000000000000')}</dc:identifier>
${dc('description', options.description ? [options.description] : [])}${dc('subject', options.subjects ?? [])}${cover && version === 2 ? '<meta name="cover" content="cover-image"/>' : ''}
</metadata>
<manifest>${manifest.join('\n')}</manifest>
<spine${toc === 'ncx' || toc === 'both' ? ' toc="ncx"' : ''}>${all.map((c) => `<itemref idref="${c.id}"/>`).join('')}</spine>
</package>`;
  const opfPath = inOpf('content.opf');
  return writeZip([
    { name: 'mimetype', data: 'application/epub+zip', method: 0 },
    { name: 'META-INF/container.xml', data: containerXml(opfPath) },
    { name: opfPath, data: opf },
    ...files,
    ...(options.extraEntries ?? []),
  ]);
}

export function containerXml(opfPath: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="${esc(opfPath)}" media-type="application/oebps-package+xml"/></rootfiles></container>`;
}

function xhtml(title: string, body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>${esc(title)}</title></head><body>${body}</body></html>`;
}
