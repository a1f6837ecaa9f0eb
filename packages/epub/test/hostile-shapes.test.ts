import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStore, parseEpub } from '../src/index.js';
import {
  containerXml,
  epubWithPackage,
  makeEpub,
  type RawZipEntry,
  TINY_PNG,
  writeZip,
} from '../src/testing/index.js';
import { expectEpubError, listTree, tempRoot } from './helpers.js';

// Shapes of hostile uploads: each could hold the service, blow up its memory, answer 500 or slip past a
// guard, or have a legitimate book refused.

/** An EPUB 3 whose package document is `opf` (in OEBPS/) with one chapter, plus `extra` entries. */
function book(opf: { metadata?: string; manifest?: string; guide?: string }, extra: RawZipEntry[] = []) {
  const pkg = `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier>
<dc:title>T</dc:title>${opf.metadata ?? ''}</metadata>
<manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>${opf.manifest ?? ''}</manifest>
<spine><itemref idref="c1"/></spine>${opf.guide ? `<guide>${opf.guide}</guide>` : ''}</package>`;
  return writeZip([
    { name: 'mimetype', data: 'application/epub+zip', method: 0 },
    { name: 'META-INF/container.xml', data: containerXml('OEBPS/content.opf') },
    { name: 'OEBPS/content.opf', data: pkg },
    {
      name: 'OEBPS/c1.xhtml',
      data: '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>1</p></body></html>',
    },
    ...extra,
  ]);
}

const chapter = (name: string, data: string): RawZipEntry => ({ name: `OEBPS/${name}`, data });

describe('hostile shapes', () => {
  let root: string;
  let dispose: () => Promise<void>;
  beforeEach(async () => ({ root, dispose } = await tempRoot()));
  afterEach(() => dispose());

  it('a DOCTYPE repeated is refused at the second one (collecting every match took 2.8 GB)', async () => {
    const flood = {
      name: 'OEBPS/flood.xhtml',
      data: `<!DOCTYPE html>${'<!DOCTYPE html>'.repeat(200_000)}<html/>`,
      method: 0 as const, // stored: deflated, it is refused as a zip bomb before its text is read
    };
    await expectEpubError(parseEpub(book({}, [flood])), 'XML_DTD');
    const broken = chapter('open.xhtml', `${'<!DOCTYPE '.repeat(1000)}<html/>`);
    await expectEpubError(parseEpub(book({}, [broken])), 'BROKEN_XML');
  });

  it('a package document with tags left open says which, not the JSON list of the validator', async () => {
    const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata>
<dc:title xmlns:dc="http://purl.org/dc/elements/1.1/">T`;
    const err = await expectEpubError(parseEpub(epubWithPackage(opf)), 'BROKEN_XML');
    expect(err.message).toBe(
      'OEBPS/content.opf is not well-formed XML: tags never closed: <package>, <metadata>, <dc:title>',
    );
    // one tag left open keeps the validator's own words and line
    const one = `<?xml version="1.0"?>\n<package xmlns="http://www.idpf.org/2007/opf" version="3.0">`;
    const single = await expectEpubError(parseEpub(epubWithPackage(one)), 'BROKEN_XML');
    expect(single.message).toBe("OEBPS/content.opf is not well-formed XML: Unclosed tag 'package'. (line 2)");
  });

  it('DTD text quoted in a comment or a CDATA section is text, not a DTD: the book is accepted', async () => {
    const quoted = chapter(
      'xml-tutorial.xhtml',
      `<?xml version="1.0"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><body>
<!-- an entity looks like <!ENTITY x "y"> -->
<pre><![CDATA[<!DOCTYPE note SYSTEM "note.dtd"> <!ENTITY lol "lol">]]></pre></body></html>`,
    );
    await expect(parseEpub(book({}, [quoted]))).resolves.toBeTruthy();
    // outside a comment or CDATA, the same declaration is refused as before
    const real = chapter('evil.xhtml', '<?xml version="1.0"?><!ENTITY lol "lol"><html/>');
    await expectEpubError(parseEpub(book({}, [real])), 'XML_DTD');
  });

  it('CDATA text is kept as written: its `&amp;` is not an entity (text around it is decoded as before)', async () => {
    const parsed = await parseEpub(
      book({
        metadata:
          '<dc:publisher><![CDATA[Tom &amp; Jerry <Press>]]></dc:publisher>' +
          '<dc:description>A &amp; <![CDATA[B &lt; C]]> &#x44;</dc:description>',
      }),
    );
    expect(parsed.metadata.publisher).toBe('Tom &amp; Jerry <Press>');
    expect(parsed.metadata.description).toBe('A & B &lt; C D');
  });

  it('a UTF-16 declaration on single-byte text does not hide an entity declaration from the guard', async () => {
    const evil = chapter(
      'evil.xhtml',
      '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE html [<!ENTITY a "aaaa">]><html>&a;</html>',
    );
    await expectEpubError(parseEpub(book({}, [evil])), 'XML_DTD');
    const store = new FileStore(root);
    await expectEpubError(store.putBook('b', book({}, [evil])), 'XML_DTD');
    expect(await listTree(root)).toEqual([]);
  });

  it('UTF-16 text without a byte order mark is read as UTF-16 (detected from its first bytes)', async () => {
    const opf = (encoding: 'utf16le' | 'utf16be') => {
      const text = `<?xml version="1.0" encoding="UTF-16"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:title>Café</dc:title></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
</manifest><spine><itemref idref="c1"/></spine></package>`;
      const le = Buffer.from(text, 'utf16le');
      return encoding === 'utf16le' ? le : Buffer.from(le).swap16();
    };
    for (const encoding of ['utf16le', 'utf16be'] as const) {
      const buf = writeZip([
        { name: 'mimetype', data: 'application/epub+zip', method: 0 },
        { name: 'META-INF/container.xml', data: containerXml('OEBPS/content.opf') },
        { name: 'OEBPS/content.opf', data: opf(encoding) },
        { name: 'OEBPS/c1.xhtml', data: '<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>' },
      ]);
      expect((await parseEpub(buf)).metadata.title, encoding).toBe('Café');
    }
  });

  it('a cover naming a folder is no cover (it answered 500 when stored)', async () => {
    const buf = book(
      { manifest: '<item id="img" href="images/" media-type="image/png" properties="cover-image"/>' },
      [{ name: 'OEBPS/images/' }],
    );
    expect((await parseEpub(buf)).cover).toBeNull();
    const store = new FileStore(root);
    expect((await store.putBook('b', buf)).coverPath).toBeNull();
  });

  it('the package document or a page declared an image is no cover: a picture whose bytes are one serves', async () => {
    const svg =
      '<?xml version="1.0"?>\n<!-- drawn --><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';
    const page =
      '<html xmlns="http://www.w3.org/1999/xhtml"><body><form action="x"><input name="p"/></form></body></html>';
    const hostile = [
      '<item id="self" href="content.opf" media-type="image/svg+xml" properties="cover-image"/>',
      '<item id="page" href="page.svg" media-type="image/svg+xml"/>',
      '<item id="fake" href="cover.png" media-type="image/png"/>',
    ].join('');
    const files = [chapter('page.svg', page), chapter('cover.png', page)];
    const store = new FileStore(root);
    // no picture at all: no cover, and nothing is stored as one
    const none = book({ manifest: hostile, metadata: '<meta name="cover" content="page"/>' }, files);
    expect((await parseEpub(none)).cover).toBeNull();
    expect((await store.putBook('none', none)).coverPath).toBeNull();
    // a real picture after them is found, typed by its bytes (a JPEG named .png is a JPEG)
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
    const withJpeg = book({ manifest: `${hostile}<item id="pic" href="pic.png" media-type="image/png"/>` }, [
      ...files,
      { name: 'OEBPS/pic.png', data: jpeg },
    ]);
    expect((await parseEpub(withJpeg)).cover).toEqual({ href: 'OEBPS/pic.png', mediaType: 'image/jpeg' });
    expect((await store.putBook('jpeg', withJpeg)).relative.cover).toBe('img/jpeg.jpg');
    // an SVG picture (declaration, comment, DOCTYPE before its root) is a cover
    const withSvg = book({ manifest: hostile.replace('href="content.opf"', 'href="real.svg"') }, [
      ...files,
      chapter('real.svg', svg),
    ]);
    expect((await parseEpub(withSvg)).cover).toEqual({ href: 'OEBPS/real.svg', mediaType: 'image/svg+xml' });
    // the other picture formats a cover was taken in by its name are still covers, by their bytes
    const avif = Buffer.from([0, 0, 0, 0x1c, ...Buffer.from('ftypavif'), 0, 0, 0, 0]);
    for (const [name, data, mediaType] of [
      ['c.avif', avif, 'image/avif'],
      ['c.bmp', Buffer.from('BM\u0000\u0000'), 'image/bmp'],
    ] as const) {
      const other = book({ manifest: `<item id="pic" href="${name}" media-type="image/x-unknown"/>` }, [
        { name: `OEBPS/${name}`, data },
      ]);
      expect((await parseEpub(other)).cover).toEqual({ href: `OEBPS/${name}`, mediaType });
    }
  });

  it('the guide is searched for a cover page a few pages at most, each once', async () => {
    const page = chapter(
      'cover.xhtml',
      '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>no image</p></body></html>',
    );
    const refs = '<reference type="cover" href="cover.xhtml"/>'.repeat(200);
    const others = Array.from({ length: 10 }, (_, i) => `<reference type="cover" href="p${i}.xhtml"/>`).join(
      '',
    );
    const pages = Array.from({ length: 10 }, (_, i) =>
      chapter(
        `p${i}.xhtml`,
        `<html xmlns="http://www.w3.org/1999/xhtml"><body><img src="i${i}.png"/></body></html>`,
      ),
    );
    const images = Array.from({ length: 10 }, (_, i) => ({ name: `OEBPS/i${i}.png`, data: TINY_PNG }));
    // the cover page without an image is tried once; the next two are tried, the second names the cover
    const found = await parseEpub(book({ guide: refs + others }, [page, ...pages, ...images]));
    expect(found.cover?.href).toBe('OEBPS/i0.png');
    // past the first three distinct pages, the guide is not searched further
    const late = await parseEpub(
      book(
        {
          guide: `${refs}<reference type="cover" href="x1.xhtml"/><reference type="cover" href="x2.xhtml"/>${others}`,
        },
        [page, ...pages, ...images],
      ),
    );
    // no manifest image either: no cover
    expect(late.cover).toBeNull();
  });

  it('EPUB 3 creator roles are read from their refining meta (one map, not a search per creator)', async () => {
    const metadata = `<dc:creator id="c1">Ann Author</dc:creator><dc:creator id="c2">Ed Editor</dc:creator>
<meta refines="#c2" property="role" scheme="marc:relators">edt</meta>
<meta refines="#c1" property="role" scheme="marc:relators">aut</meta>`;
    const parsed = await parseEpub(book({ metadata }));
    expect(parsed.metadata.author).toBe('Ann Author');
    expect(parsed.metadata.creators).toEqual(['Ann Author', 'Ed Editor']);
  });

  it('entry names nested over 16 folders, or archives making over 2,000 folders, are refused', async () => {
    const deep = { name: `OEBPS/${'a/'.repeat(16)}x.xhtml`, data: 'x' };
    await expectEpubError(parseEpub(book({}, [deep])), 'UNSAFE_PATH');
    const wide = Array.from({ length: 2_001 }, (_, i) => ({ name: `OEBPS/d${i}/x.css`, data: 'x' }));
    await expectEpubError(parseEpub(book({}, wide)), 'TOO_MANY_ENTRIES');
    const fine = Array.from({ length: 500 }, (_, i) => ({ name: `OEBPS/d${i}/x.css`, data: 'x' }));
    await expect(parseEpub(book({}, fine))).resolves.toBeTruthy();
    await expect(parseEpub(makeEpub({ opfDir: 'a/b/c/d' }))).resolves.toBeTruthy();
  });

  it('many entries just under the per-entry ratio check are refused by the ratio of the whole archive', async () => {
    const MiB = 1024 * 1024;
    // 40 entries of (1 MiB - 1) zeros: each escapes the per-entry check, together 40 MiB from ~40 KB
    const zeros = Array.from({ length: 40 }, (_, i) => ({
      name: `OEBPS/z${i}.css`,
      data: Buffer.alloc(MiB - 1),
    }));
    const err = await expectEpubError(parseEpub(book({}, zeros)), 'COMPRESSION_RATIO');
    expect(err.message).toMatch(/unpacks to \d+ times its size, over the 50:1 limit/);
    // as much text that compresses as books do (base64 of random bytes, ~1.3:1) is a book
    const text = Array.from({ length: 20 }, (_, i) => ({
      name: `OEBPS/t${i}.css`,
      data: randomBytes(768 * 1024).toString('base64'),
    }));
    await expect(parseEpub(book({}, text))).resolves.toBeTruthy();
  });

  it('a rootfile path out of the archive is an unsafe archive (422), not a missing package (415)', async () => {
    for (const fullPath of [
      '../../etc/passwd',
      '/etc/passwd',
      'OEBPS/../../x.opf',
      '%2e%2e/x.opf',
      'C:/x.opf',
    ]) {
      const buf = writeZip([
        { name: 'mimetype', data: 'application/epub+zip', method: 0 },
        { name: 'META-INF/container.xml', data: containerXml(fullPath) },
        { name: 'OEBPS/content.opf', data: '<package/>' },
      ]);
      await expectEpubError(parseEpub(buf), 'UNSAFE_PATH');
      await expectEpubError(new FileStore(root).putBook('b', buf), 'UNSAFE_PATH');
      expect(await listTree(root)).toEqual([]);
    }
    // a path to nothing inside the archive stays a missing package document
    const missing = writeZip([
      { name: 'mimetype', data: 'application/epub+zip', method: 0 },
      { name: 'META-INF/container.xml', data: containerXml('OEBPS/none.opf') },
    ]);
    await expectEpubError(parseEpub(missing), 'MISSING_OPF');
  });

  it('references out of the archive in the package, nav and NCX are ignored like links to nothing', async () => {
    const out = ['../../etc/passwd', '/../etc/shadow', '../../x.png'];
    const nav = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol>${out.map((h) => `<li><a href="${h}">out</a></li>`).join('')}<li><a href="c1.xhtml">In</a></li></ol></nav></body></html>`;
    const parsed = await parseEpub(
      book(
        {
          metadata: '<meta name="cover" content="../../etc/passwd"/>',
          manifest: `<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>${out.map((h, i) => `<item id="o${i}" href="${h}" media-type="image/png" properties="cover-image"/>`).join('')}`,
          guide: out.map((h) => `<reference type="cover" href="${h}"/>`).join(''),
        },
        [chapter('nav.xhtml', nav)],
      ),
    );
    expect(parsed.cover).toBeNull();
    expect(parsed.contents.map((c) => [c.label, c.href])).toEqual([['In', 'OEBPS/c1.xhtml']]);
  });

  it('names without the UTF-8 flag are UTF-8 when valid, else CP437: distinct bytes stay distinct names', async () => {
    const raw = (...parts: (string | number[])[]) =>
      Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
    const buf = book(
      {
        manifest:
          '<item id="img" href="%C3%87.png" media-type="image/png" properties="cover-image"/>' +
          '<item id="c2" href="第二章.xhtml" media-type="application/xhtml+xml"/>',
      },
      [
        // 0xff and 0xfe became U+FFFD both: refused as one name appearing twice
        { name: 'ff', rawName: raw('OEBPS/', [0xff], '.txt'), data: 'a' },
        { name: 'fe', rawName: raw('OEBPS/', [0xfe], '.txt'), data: 'b' },
        { name: 'cover', rawName: raw('OEBPS/', [0x80], '.png'), data: TINY_PNG },
        {
          name: 'utf-8',
          rawName: raw('OEBPS/第二章.xhtml'),
          data: '<html><head><title>Two</title></head></html>',
        },
      ],
    );
    const parsed = await parseEpub(buf);
    expect(parsed.cover?.href).toBe('OEBPS/Ç.png');
    const stored = await new FileStore(root).putBook('b', buf, parsed);
    const files = await listTree(stored.unzipPath);
    expect(files).toEqual(
      expect.arrayContaining(['OEBPS/\u00a0.txt', 'OEBPS/■.txt', 'OEBPS/Ç.png', 'OEBPS/第二章.xhtml']),
    );
  });
});
