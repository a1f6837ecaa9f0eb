import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStore, parseEpub } from '../src/index.js';
import { MarkupScanner } from '../src/markup-scanner.js';
import { containerXml, makeEpub, type RawZipEntry, TINY_PNG, writeZip } from '../src/testing/index.js';
import { stripSafeDoctype } from '../src/xml-guard.js';
import { expectEpubError, listTree, tempRoot } from './helpers.js';

// Markup that would hide a DTD from a naive guard: the guard must read markup as
// parsers do, in every entry that is markup, in every reading of its bytes.

const XHTML = 'application/xhtml+xml';
const opf = (manifest: string, spine: string) => `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier><dc:title>T</dc:title></metadata>
<manifest><item id="c1" href="c1.xhtml" media-type="${XHTML}"/>${manifest}</manifest>
<spine><itemref idref="c1"/>${spine}</spine></package>`;

/** An EPUB 3 with one chapter; `parts` replaces the container, the package document or adds entries. */
function book(parts: { container?: string; opf?: string; extra?: RawZipEntry[] } = {}): Buffer {
  return writeZip([
    { name: 'mimetype', data: 'application/epub+zip', method: 0 },
    { name: 'META-INF/container.xml', data: parts.container ?? containerXml('OEBPS/content.opf') },
    { name: 'OEBPS/content.opf', data: parts.opf ?? opf('', '') },
    {
      name: 'OEBPS/c1.xhtml',
      data: '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>1</p></body></html>',
    },
    ...(parts.extra ?? []),
  ]);
}
const entry = (name: string, data: string | Buffer): RawZipEntry => ({ name: `OEBPS/${name}`, data });

/** A DOCTYPE with an internal subset after `prefix`, and a comment closer at the very end. */
const hidden = (prefix: string, root: string) =>
  `<?xml version="1.0"?>${prefix}<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]>${root}<!-- -->`;
const CONTAINER_ROOT = `<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`;

describe('the DTD guard reads markup as parsers do', () => {
  let root: string;
  let dispose: () => Promise<void>;
  beforeEach(async () => ({ root, dispose } = await tempRoot()));
  afterEach(() => dispose());

  it('a comment or CDATA opener inside a processing instruction does not hide the DOCTYPE after it', async () => {
    for (const pi of ['<?audit <!-- ?>', '<?audit <![CDATA[ ?>']) {
      const shapes = [
        book({ container: hidden(pi, CONTAINER_ROOT) }),
        book({ opf: hidden(pi, opf('', '').replace(/^<\?xml[^>]*>/, '')) }),
        book({ extra: [entry('c2.xhtml', hidden(pi, '<html><body>&b;</body></html>'))] }),
      ];
      for (const shape of shapes) {
        await expectEpubError(parseEpub(shape), 'XML_DTD');
        await expectEpubError(new FileStore(root).putBook('b', shape), 'XML_DTD');
        expect(await listTree(root)).toEqual([]);
      }
    }
  });

  it('markup inside a tag or a quote that hides the end of a PI is refused', async () => {
    const shapes = [
      // `<` is not allowed in an attribute value: a comment opener there is no comment
      '<p title="<!--"/><!DOCTYPE x [<!ENTITY a "aaaa">]><html>&a;</html><!-- -->',
      '<html><body><p title="<!--"><!ENTITY a "x"></p></body></html><!-- -->',
      '<html><body><p <!-- x="1">t</p></body></html><!-- -->',
      // XML ends a PI at its first `?>`, fast-xml-parser only outside quotes
      hidden('<?x "?><!-- "?>', '<html>&b;</html>'),
      // no public or system identifier holds `<`, `>` or `[`
      '<!DOCTYPE html SYSTEM "<!--"><html/>',
    ];
    for (const data of shapes)
      await expectEpubError(parseEpub(book({ extra: [entry('c2.xhtml', data)] })), 'XML_DTD');
  });

  it('a comment, CDATA section or PI left open at the end is broken markup: what it hides went unread', async () => {
    for (const tail of ['<!-- <!ENTITY a "x">', '<![CDATA[ <!ENTITY a "x">', '<?pi <!ENTITY a "x">']) {
      const data = `<html><body><p>1</p></body></html>${tail}`;
      await expectEpubError(parseEpub(book({ extra: [entry('c2.xhtml', data)] })), 'BROKEN_XML');
    }
  });

  it('accepts what real books hold: PIs, external DOCTYPEs, `>` and `<` in values, DTD text in comments', async () => {
    const data = `<?xml version="1.0" encoding="utf-8"?>
<?xml-stylesheet href="s.css" type="text/css"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title><!-- <!ENTITY x "y"> --></head>
<body><p title="a > b" data-x='x < y'>1 &lt; 2</p><pre><![CDATA[<!DOCTYPE x [<!ENTITY y "z">]>]]></pre>
<?page 12?></body></html>`;
    await expect(parseEpub(book({ extra: [entry('c2.xhtml', data)] }))).resolves.toBeTruthy();
    const lower = '<!doctype html><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>';
    await expect(parseEpub(book({ extra: [entry('c3.xhtml', lower)] }))).resolves.toBeTruthy();
  });

  it('reads the same whatever the chunks: state and partial openers carry from one chunk to the next', () => {
    const docs = [
      hidden('<?audit <!-- ?>', '<html/>'),
      '<html><p title="<!--">x</p></html>',
      '<?x a="?" b=\'>\'?><!-- <!ENTITY a "x"> --><![CDATA[ ]]> ]]> <html a=\'"\'/><!DOCTYPE html>',
      '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "x.dtd"><html>text</html>',
      '<html><!-- --><!ENTITY a "x"></html>',
      '<html/><!-- open',
    ];
    const outcome = (doc: string, sizes: number[]) => {
      const scanner = new MarkupScanner('doc');
      try {
        let at = 0;
        for (let i = 0; at < doc.length; i++) {
          const size = sizes[i % sizes.length]!;
          scanner.feed(doc.slice(at, at + size));
          at += size;
        }
        scanner.end();
        return JSON.stringify(scanner.doctype);
      } catch (err) {
        return (err as { code?: string }).code;
      }
    };
    for (const doc of docs) {
      const whole = outcome(doc, [doc.length]);
      for (const sizes of [[1], [2], [3, 1], [7, 5, 11]]) expect(outcome(doc, sizes), doc).toBe(whole);
    }
    const span = (doc: string) => {
      const start = doc.indexOf('<!DOCTYPE');
      return JSON.stringify({ start, end: doc.indexOf('>', start) + 1 });
    };
    expect(docs.map((d) => outcome(d, [d.length]))).toEqual([
      'XML_DTD',
      'XML_DTD',
      span(docs[2]!),
      span(docs[3]!),
      'XML_DTD',
      'BROKEN_XML',
    ]);
    // parsing strips the DOCTYPE the scanner found
    expect(stripSafeDoctype(docs[3]!, 'doc')).toBe('<html>text</html>');
  });
});

describe('every entry that is markup is checked, in both readings of its bytes', () => {
  const laughs = '<!DOCTYPE html [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><html><body>&b;</body></html>';

  it('whatever its name: a chapter without an extension, MathML, DTD and entity files', async () => {
    const chapter = book({
      opf: opf(`<item id="c2" href="ch2" media-type="${XHTML}"/>`, '<itemref idref="c2"/>'),
      extra: [entry('ch2', laughs)],
    });
    await expectEpubError(parseEpub(chapter), 'XML_DTD');
    const files: [string, string][] = [
      ['ch2.mml', `<?xml version="1.0"?>${laughs.replace(/html/g, 'math')}`],
      ['evil.dtd', '<!ENTITY a "aaaa">\n<!ENTITY b "&a;&a;">'],
      ['evil.ent', '\n  <!-- entities --><?xml version="1.0"?><!ENTITY % p "x">'],
      ['x.dtd', '<!ELEMENT html ANY>'],
      ['y.dtd', '<!ATTLIST html a CDATA #IMPLIED>'],
      ['z.dtd', '<!NOTATION n SYSTEM "x">'],
      ['c.dtd', '<![INCLUDE[ <!ENTITY a "x"> ]]>'],
    ];
    for (const [name, data] of files) {
      const doc = entry(`c2.xhtml`, '<!DOCTYPE html SYSTEM "evil.dtd"><html/>');
      await expectEpubError(parseEpub(book({ extra: [doc, entry(name, data)] })), 'XML_DTD');
    }
  });

  it('in UTF-16 (with or without a BOM) and when a declared encoding turns ASCII into kanji', async () => {
    const le = Buffer.from(`\n${laughs}`, 'utf16le');
    for (const data of [Buffer.concat([Buffer.from([0xff, 0xfe]), le]), le, Buffer.from(le).swap16()])
      await expectEpubError(parseEpub(book({ extra: [entry('ch2', data)] })), 'XML_DTD');
    // after ESC $ B, ISO-2022-JP reads the ASCII bytes of the DOCTYPE two by two as kanji
    const jis = Buffer.concat([
      Buffer.from('<?xml version="1.0" encoding="ISO-2022-JP"?>'),
      Buffer.from([0x1b, 0x24, 0x42]),
      Buffer.from(laughs),
    ]);
    expect(new TextDecoder('iso-2022-jp').decode(jis)).not.toContain('ENTITY');
    await expectEpubError(parseEpub(book({ extra: [entry('jis.xhtml', jis)] })), 'XML_DTD');
  });

  it('binary entries are not read as markup, whatever bytes they hold', async () => {
    const decl = Buffer.from('<!ENTITY a "x"><![ <!-- <?');
    const png = Buffer.concat([TINY_PNG, decl]);
    const font = Buffer.concat([Buffer.from([0x00, 0x01, 0x00, 0x00]), decl, Buffer.alloc(2048, 0x3c)]);
    const epub = makeEpub({
      cover: png,
      extraEntries: [entry('fonts/f.ttf', font), entry('images/x.png', png), entry('blank.txt', '   \n')],
    });
    await expect(parseEpub(epub)).resolves.toBeTruthy();
  });
});
