import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  MAX_FRAGMENT,
  MAX_TOC_DEPTH,
  MAX_TOC_ENTRIES,
  MAX_TOC_ID,
  MAX_TOC_LABEL,
  MAX_XML_DOCUMENT_BYTES,
  MAX_XML_MARKUP,
  MAX_XML_NESTING,
  parseEpub,
} from '../src/index.js';
import { containerXml, writeZip } from '../src/testing/index.js';
import { expectEpubError, turnsDuring } from './helpers.js';

// How much of a hostile book the parser reads (spec: "safe against hostile uploads"; decisions.md
// limits): parsing is synchronous, so what it reads is time the admin service answers nobody.

const NCX_TYPE = 'application/x-dtbncx+xml';
const XHTML = 'application/xhtml+xml';

interface Doc {
  name: string;
  data: string;
  /** manifest attributes besides id, href and media-type */
  props?: string;
  type?: string;
}

/** An EPUB whose spine is every XHTML document given, in order, with `spineToc` naming the NCX. */
function book(docs: Doc[], opfPadding = ''): Buffer {
  const items = docs.map(
    (d, i) => `<item id="d${i}" href="${d.name}" media-type="${d.type ?? XHTML}"${d.props ?? ''}/>`,
  );
  const ncx = docs.findIndex((d) => d.type === NCX_TYPE);
  const spine = docs
    .map((d, i) => (d.type === undefined && !d.props ? `<itemref idref="d${i}"/>` : ''))
    .join('');
  const opf = `<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title><dc:language>en</dc:language><dc:identifier id="id">x</dc:identifier></metadata><!--${opfPadding}--><manifest>${items.join('')}</manifest><spine${ncx >= 0 ? ` toc="d${ncx}"` : ''}>${spine}</spine></package>`;
  return writeZip([
    { name: 'mimetype', data: 'application/epub+zip', method: 0 },
    { name: 'META-INF/container.xml', data: containerXml('content.opf') },
    { name: 'content.opf', data: opf },
    ...docs.map((d) => ({ name: d.name, data: d.data })),
  ]);
}

const page = (head: string, body = '') =>
  `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head>${head}</head><body><p>${body}</p></body></html>`;
const ncx = (points: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head/><docTitle><text>T</text></docTitle><navMap>${points}</navMap></ncx>`;
const point = (label: string, children = '') =>
  `<navPoint id="${label}"><navLabel><text>${label}</text></navLabel><content src="c.xhtml#${label}"/>${children}</navPoint>`;
/** Text past MAX_XML_DOCUMENT_BYTES that does not compress (the archive checks refuse what does). */
const oversize = randomBytes(MAX_XML_DOCUMENT_BYTES).toString('base64');

describe('bounds on what a book makes the parser read', () => {
  it("titles spine entries from each document's head, without parsing its body", async () => {
    const parsed = await parseEpub(
      book([
        { name: 'a.xhtml', data: page('<title>\n  Tom &amp; Jerry\n</title>', oversize) },
        { name: 'b.xhtml', data: page('<meta charset="utf-8"/>') },
        { name: 'c.xhtml', data: page('<title lang="zh">第一章</title>') },
      ]),
    );
    expect(parsed.tocSource).toBe('spine');
    expect(parsed.contents.map((c) => [c.label, c.text])).toEqual([
      ['Tom & Jerry', 'a.xhtml'],
      ['b', 'b.xhtml'], // no title in its head: named by its file, as before
      ['第一章', 'c.xhtml'],
    ]);
  });

  it('does not parse a navigation document over the limit: the NCX serves, then the spine', async () => {
    const nav = (padding: string) =>
      `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol><li><a href="c.xhtml">From nav</a></li></ol></nav><p>${padding}</p></body></html>`;
    const docs = (navPadding: string, ncxPadding: string): Doc[] => [
      { name: 'c.xhtml', data: page('<title>From spine</title>') },
      { name: 'nav.xhtml', data: nav(navPadding), props: ' properties="nav"' },
      { name: 'toc.ncx', data: ncx(point('FromNcx') + `<!--${ncxPadding}-->`), type: NCX_TYPE },
    ];
    const label = async (d: Doc[]) => (await parseEpub(book(d))).contents.map((c) => c.label);
    expect(await label(docs('', ''))).toEqual(['From nav']);
    expect(await label(docs(oversize, ''))).toEqual(['FromNcx']);
    expect(await label(docs(oversize, oversize))).toEqual(['From spine']);
  });

  it('parses at most maxXmlBytes of XML per book: a navigation document past it is not read, the spine serves', async () => {
    // three documents each under MAX_XML_DOCUMENT_BYTES, 8.4 MiB together (default budget 8 MiB)
    const near = randomBytes(Math.floor(MAX_XML_DOCUMENT_BYTES * 0.7 * 0.75)).toString('base64');
    const emptyNav = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol></ol></nav><p>${near}</p></body></html>`;
    const docs = (ncxPadding: string): Doc[] => [
      { name: 'c.xhtml', data: page('<title>From spine</title>') },
      { name: 'nav.xhtml', data: emptyNav, props: ' properties="nav"' },
      { name: 'toc.ncx', data: ncx(point('FromNcx') + `<!--${ncxPadding}-->`), type: NCX_TYPE },
    ];
    const label = async (d: Doc[]) => (await parseEpub(book(d, near))).contents.map((c) => c.label);
    expect(await label(docs(''))).toEqual(['FromNcx']);
    expect(await label(docs(near))).toEqual(['From spine']);
  });

  it('refuses a book whose package document does not fit a smaller maxXmlBytes', async () => {
    const small = book([{ name: 'c.xhtml', data: page('<title>C</title>') }]);
    expect((await parseEpub(small, { maxXmlBytes: 4096 })).metadata.title).toBe('T');
    const err = await expectEpubError(parseEpub(small, { maxXmlBytes: 600 }), 'TOO_LARGE');
    expect(err.message).toMatch(/content\.opf would take the XML parsed for this book over 600 bytes/);
  });

  it('refuses a book whose package document is over the limit', async () => {
    const err = await expectEpubError(
      parseEpub(book([{ name: 'c.xhtml', data: page('<title>C</title>') }], oversize)),
      'TOO_LARGE',
    );
    expect(err.message).toMatch(/content\.opf is \d+ bytes, over the 4194304 bytes read of an XML document/);
  });

  it('keeps the first MAX_TOC_ENTRIES entries of a longer table of contents, in document order', async () => {
    const flat = Array.from({ length: MAX_TOC_ENTRIES + 2 }, (_, i) => point(`P${i + 1}`)).join('');
    const parsed = await parseEpub(
      book([
        { name: 'c.xhtml', data: page('<title>C</title>') },
        { name: 'toc.ncx', data: ncx(point('P0', point('C1') + point('C2')) + flat), type: NCX_TYPE },
      ]),
    );
    expect(parsed.contents).toHaveLength(MAX_TOC_ENTRIES);
    expect(parsed.contents.slice(0, 4).map((c) => [c.label, c.level])).toEqual([
      ['P0', 0],
      ['C1', 1],
      ['C2', 1],
      ['P1', 0],
    ]);
    // P0 and its two children, then P1 .. P9997
    expect(parsed.contents.at(-1)!.label).toBe(`P${MAX_TOC_ENTRIES - 3}`);
    expect(parsed.contentsTree).toHaveLength(MAX_TOC_ENTRIES - 2);
    expect(parsed.contentsTree[0]!.children.map((c) => c.label)).toEqual(['C1', 'C2']);
  });

  it('clips labels to MAX_TOC_LABEL characters and drops ids, paths and fragments too long to be real', async () => {
    const long = 'L'.repeat(900_000); // one 3.5 MB nav label was stored whole
    const smile = `${'a'.repeat(MAX_TOC_LABEL - 1)}😀`; // clipped before the pair, not through it
    const id = 'i'.repeat(MAX_TOC_ID + 1);
    const items = [
      `<li id="n1"><a href="c.xhtml#top">${long}</a></li>`,
      `<li id="${id}"><a href="c.xhtml">${smile}</a></li>`,
      `<li><a href="c.xhtml#${'f'.repeat(MAX_FRAGMENT + 1)}">Long fragment</a></li>`,
      `<li><a href="${'d/'.repeat(600)}c.xhtml">Long path</a></li>`,
    ];
    const nav = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol>${items.join('')}</ol></nav></body></html>`;
    const parsed = await parseEpub(
      book([
        { name: 'c.xhtml', data: page('<title>C</title>') },
        { name: 'nav.xhtml', data: nav, props: ' properties="nav"' },
      ]),
    );
    expect(parsed.tocSource).toBe('nav');
    expect(parsed.contents.map((c) => [c.label.length, c.id, c.navId, c.href])).toEqual([
      [MAX_TOC_LABEL, 'n1', 'n1', 'c.xhtml#top'],
      [MAX_TOC_LABEL - 1, 'toc-2', '', 'c.xhtml'],
      [13, 'toc-3', '', 'c.xhtml'],
      // a path longer than any entry name names nothing: left out like a link out of the book
    ]);
    // the NCX is held to the same bounds
    const fromNcx = await parseEpub(
      book([
        { name: 'c.xhtml', data: page('<title>C</title>') },
        { name: 'toc.ncx', data: ncx(point('P1').replace('>P1<', `>${long}<`)), type: NCX_TYPE },
      ]),
    );
    expect(fromNcx.contents.map((c) => c.label.length)).toEqual([MAX_TOC_LABEL]);
  });

  it('refuses a package document with more markup than MAX_XML_MARKUP before parsing it', async () => {
    // empty elements parse slowest per byte: 4 MiB of them held the admin service for 2 to 4 s
    const docs = [{ name: 'c.xhtml', data: page('<title>C</title>') }];
    const markup = (n: number) => '<x/>'.repeat(n);
    // the rest of the package document and the padding's comment hold 29 markup characters
    const rest = 29;
    expect((await parseEpub(book(docs, markup(MAX_XML_MARKUP - rest)))).metadata.title).toBe('T');
    const err = await expectEpubError(parseEpub(book(docs, markup(MAX_XML_MARKUP - rest + 1))), 'TOO_LARGE');
    expect(err.message).toBe(
      `content.opf has ${MAX_XML_MARKUP + 1} markup characters (<, & and =), over the ${MAX_XML_MARKUP} read of an XML document`,
    );
  });

  it('does not parse a navigation document with more markup than MAX_XML_MARKUP: the NCX serves', async () => {
    const attributes = Array.from({ length: MAX_XML_MARKUP }, (_, i) => `a${i.toString(36)}=""`).join(' ');
    const nav = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol><li><a href="c.xhtml">From nav</a></li></ol></nav><p ${attributes}/></body></html>`;
    const parsed = await parseEpub(
      book([
        { name: 'c.xhtml', data: page('<title>C</title>') },
        { name: 'nav.xhtml', data: nav, props: ' properties="nav"' },
        { name: 'toc.ncx', data: ncx(point('FromNcx')), type: NCX_TYPE },
      ]),
    );
    expect([parsed.tocSource, parsed.contents.map((c) => c.label)]).toEqual(['ncx', ['FromNcx']]);
  });

  it('parses each XML document in a turn of the event loop of its own', async () => {
    // container, package, navigation, NCX: other requests are answered between them
    const bytes = book([
      { name: 'c.xhtml', data: page('<title>C</title>') },
      {
        name: 'nav.xhtml',
        data: '<html><body><nav><ol></ol></nav></body></html>',
        props: ' properties="nav"',
      },
      { name: 'toc.ncx', data: ncx(point('FromNcx')), type: NCX_TYPE },
    ]);
    let parsed: Awaited<ReturnType<typeof parseEpub>> | undefined;
    const turns = await turnsDuring(async () => {
      parsed = await parseEpub(bytes);
    });
    expect(parsed?.contents.map((c) => c.label)).toEqual(['FromNcx']);
    expect(turns).toBeGreaterThanOrEqual(4);
  });
});

describe('a table of contents nested deeper than MAX_TOC_DEPTH', () => {
  const levels = 120;
  const nestedPoints = (depth: number): string =>
    Array.from({ length: depth }, (_, i) => point(`L${i}`).replace('</navPoint>', '')).join('') +
    '</navPoint>'.repeat(depth);
  const nestedNav = (depth: number): string => {
    const items = Array.from({ length: depth }, (_, i) => `<li><a href="c.xhtml#L${i}">L${i}</a><ol>`).join(
      '',
    );
    return `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol>${items}${'</ol></li>'.repeat(depth)}</ol></nav></body></html>`;
  };
  const chapter = { name: 'c.xhtml', data: page('<title>From spine</title>') };

  it.each([
    ['ncx', [chapter, { name: 'toc.ncx', data: ncx(nestedPoints(levels)), type: NCX_TYPE }]],
    ['nav', [chapter, { name: 'nav.xhtml', data: nestedNav(levels), props: ' properties="nav"' }]],
  ] as const)('from the %s keeps every entry, the deeper ones at its last level', async (source, docs) => {
    const parsed = await parseEpub(book([...docs]));
    expect(parsed.tocSource).toBe(source);
    expect(parsed.contents.map((c) => c.label)).toEqual(Array.from({ length: levels }, (_, i) => `L${i}`));
    expect(parsed.contents.map((c) => c.level)).toEqual(
      Array.from({ length: levels }, (_, i) => Math.min(i, MAX_TOC_DEPTH - 1)),
    );
    // each entry's parent is the one before it, down to the last level, whose entries share one parent
    const last = parsed.contents[MAX_TOC_DEPTH - 2]!;
    expect(parsed.contents.slice(MAX_TOC_DEPTH - 1).every((c) => c.pid === last.id)).toBe(true);
  });

  it('nested deeper than MAX_XML_NESTING elements is broken XML: the next source serves', async () => {
    const parsed = await parseEpub(
      book([chapter, { name: 'toc.ncx', data: ncx(nestedPoints(MAX_XML_NESTING)), type: NCX_TYPE }]),
    );
    expect([parsed.tocSource, parsed.contents.map((c) => c.label)]).toEqual(['spine', ['From spine']]);
  });
});
