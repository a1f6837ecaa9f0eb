import { describe, expect, it } from 'vitest';
import { parseEpub } from '../src/index.js';
import { makeEpub, writeZip } from '../src/testing/index.js';

/** A one-chapter EPUB 3 (`c.xhtml`) with the navigation document given. */
function withNav(nav: string): Buffer {
  const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title></metadata>
<manifest><item id="n" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c"/></spine></package>`;
  return writeZip([
    { name: 'mimetype', data: 'application/epub+zip', method: 0 },
    {
      name: 'META-INF/container.xml',
      data: '<container><rootfiles><rootfile full-path="content.opf"/></rootfiles></container>',
    },
    { name: 'content.opf', data: opf },
    { name: 'nav.xhtml', data: nav },
    { name: 'c.xhtml', data: '<html><head><title>C</title></head><body/></html>' },
  ]);
}

describe('table of contents', () => {
  it('prefers the EPUB 3 nav document over the NCX', async () => {
    const book = await parseEpub(
      makeEpub({ version: 3, toc: 'both', chapters: [{ title: 'One' }, { title: 'Two' }] }),
    );
    expect(book.tocSource).toBe('nav');
    expect(book.contents.map((c) => [c.label, c.navId])).toEqual([
      ['One', 'nav-ch1'],
      ['Two', 'nav-ch2'],
    ]);
  });

  it('reads a single navPoint (one object, not an array)', async () => {
    const book = await parseEpub(makeEpub({ version: 2, chapters: [{ title: 'Only' }] }));
    expect(book.tocSource).toBe('ncx');
    expect(book.contents).toEqual([
      {
        id: 'np-ch1',
        href: 'OEBPS/text/chapter-1.xhtml',
        label: 'Only',
        level: 0,
        pid: '',
        navId: 'np-ch1',
        order: 1,
        text: 'OEBPS/text/chapter-1.xhtml',
      },
    ]);
  });

  it.each([2, 3] as const)('keeps deep nesting (EPUB %i)', async (version) => {
    let chapter = { title: 'L6' } as { title: string; children?: unknown[] };
    for (let level = 5; level >= 1; level--) chapter = { title: `L${level}`, children: [chapter] };
    const book = await parseEpub(makeEpub({ version, chapters: [chapter as never, { title: 'Next' }] }));
    expect(book.contents.map((c) => c.level)).toEqual([0, 1, 2, 3, 4, 5, 0]);
    expect(book.contents.map((c) => c.label)).toEqual(['L1', 'L2', 'L3', 'L4', 'L5', 'L6', 'Next']);
    for (let i = 1; i < 6; i++) expect(book.contents[i]!.pid).toBe(book.contents[i - 1]!.id);
    expect(book.contentsTree).toHaveLength(2);
    expect(book.contentsTree[0]!.children[0]!.children[0]!.children[0]!.children[0]!.children[0]!.label).toBe(
      'L6',
    );
  });

  it('falls back to the spine, titled from <title>, when there is no TOC', async () => {
    const book = await parseEpub(
      makeEpub({ version: 2, toc: 'none', chapters: [{ title: 'Alpha' }, { title: 'Beta' }] }),
    );
    expect(book.tocSource).toBe('spine');
    expect(book.contents.map((c) => [c.label, c.text])).toEqual([
      ['Alpha', 'OEBPS/text/chapter-1.xhtml'],
      ['Beta', 'OEBPS/text/chapter-2.xhtml'],
    ]);
  });

  it.each([2, 3] as const)(
    'resolves hrefs across folders relative to the nav/NCX (EPUB %i)',
    async (version) => {
      const book = await parseEpub(
        makeEpub({
          version,
          toc: version === 3 ? 'nav' : 'ncx',
          opfDir: 'book/pkg',
          navDir: 'nav/deep',
          chapterDir: '../content',
        }),
      );
      expect(book.rootFile).toBe('book/pkg/content.opf');
      expect(book.contents[0]!.text).toBe('book/content/chapter-1.xhtml');
    },
  );

  it.each([2, 3] as const)(
    'decodes percent-encoded, non-ASCII and spaced file names (EPUB %i)',
    async (version) => {
      const book = await parseEpub(
        makeEpub({
          version,
          chapters: [
            { title: '第一章', fileName: '第一章 序.xhtml' },
            { title: '100% done', fileName: 'a b%c.xhtml' },
          ],
        }),
      );
      expect(book.contents.map((c) => c.text)).toEqual([
        'OEBPS/text/第一章 序.xhtml',
        'OEBPS/text/a b%c.xhtml',
      ]);
      expect(book.contents[0]!.label).toBe('第一章');
    },
  );

  it("gives every entry its own id, also when the book's own ids take the generated ones", async () => {
    // `toc-2` names Chapter A and, generated, Chapter B too: the tree must keep Chapter A
    const nav = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
<nav epub:type="toc"><ol><li id="toc-2"><a href="c.xhtml">Chapter A</a></li><li><a href="c.xhtml#b">Chapter B</a><ol><li><a href="c.xhtml#c">Section B.1</a></li></ol></li><li id="toc-2-2"><a href="c.xhtml#d">Chapter D</a></li></ol></nav></body></html>`;
    const book = await parseEpub(withNav(nav));
    expect(book.contents.map((c) => [c.id, c.label, c.pid])).toEqual([
      ['toc-2', 'Chapter A', ''],
      ['toc-2-2', 'Chapter B', ''],
      ['toc-3', 'Section B.1', 'toc-2-2'],
      ['toc-4', 'Chapter D', ''], // its own id was taken by then
    ]);
    expect(book.contentsTree.map((n) => [n.label, n.children.map((c) => c.label)])).toEqual([
      ['Chapter A', []],
      ['Chapter B', ['Section B.1']],
      ['Chapter D', []],
    ]);
  });

  it('keeps fragments in href but not in text', async () => {
    const nav = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
<nav epub:type="landmarks"><ol><li><a href="c.xhtml">Landmark</a></li></ol></nav>
<nav epub:type="toc"><ol><li><span>Part <em>One</em></span><ol><li><a href="c.xhtml#s1">Section &amp; <b>1</b></a></li></ol></li></ol></nav></body></html>`;
    const book = await parseEpub(withNav(nav));
    expect(book.contents.map((c) => [c.label, c.href, c.text, c.level])).toEqual([
      ['Part One', 'c.xhtml#s1', 'c.xhtml', 0],
      ['Section & 1', 'c.xhtml#s1', 'c.xhtml', 1],
    ]);
  });
});

describe('metadata', () => {
  it('reads CJK metadata, several creators and subjects', async () => {
    const book = await parseEpub(
      makeEpub({
        title: '三体 — 地球往事',
        creators: ['刘慈欣', 'Ken Liu'],
        publisher: '重庆出版社',
        language: 'zh-CN',
        subjects: ['科幻', '小说'],
        description: 'A & B <c>',
      }),
    );
    expect(book.metadata).toEqual({
      title: '三体 — 地球往事',
      creators: ['刘慈欣', 'Ken Liu'],
      author: '刘慈欣, Ken Liu',
      publisher: '重庆出版社',
      language: 'zh-CN',
      identifiers: ['urn:uuid:00000000-0000-4000-8000-000000000000'],
      description: 'A & B <c>',
      subjects: ['科幻', '小说'],
    });
  });

  it.each([2, 3] as const)(
    'finds the cover of EPUB %i books and reports none when absent',
    async (version) => {
      expect((await parseEpub(makeEpub({ version, cover: true }))).cover).toEqual({
        href: 'OEBPS/images/cover.png',
        mediaType: 'image/png',
      });
      expect((await parseEpub(makeEpub({ version }))).cover).toBeNull();
    },
  );
});
