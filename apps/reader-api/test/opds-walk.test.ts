import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpdsMediaType } from '@readlib/contracts';
import contentDisposition from 'content-disposition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type Harness, harness, register, view } from './helpers.js';
import { freePort, importCatalogue } from './opds-catalogue.js';
import { type AppDialect, type BookEntry, opds1, opds2, walk } from './opds-walker.js';

interface StoredBook {
  id: number;
  file_name: string;
  title: string;
  author: string;
  publisher: string;
  file_path: string;
  category: string;
}

const urn = (b: StoredBook) => `urn:readlib:book:${b.file_name}`;
const sorted = (ids: string[]) => [...ids].sort();

// OPDS: an e-reader app pointed at /opds can browse every feed, search, and download
describe.each(dialects)('OPDS: an e-reader app walks the catalogue on $name', (dialect) => {
  let t: Harness;
  let base: string;
  let books: StoredBook[];
  /** the three books viewed, most viewed first */
  let viewed: StoredBook[];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await harness(dialect, { PUBLIC_BASE_URL: base });
    await importCatalogue(t);
    books = await t.h.db
      .selectFrom('books')
      .innerJoin('categories', 'categories.id', 'books.category_id')
      .select([
        'books.id',
        'file_name',
        'title',
        'author',
        'publisher',
        'file_path',
        'categories.name as category',
      ])
      .orderBy('books.id', 'desc')
      .execute();
    await register(t, 'walker');
    viewed = [books[5]!, books[20]!, books[33]!];
    for (const [i, b] of viewed.entries())
      for (let n = 0; n < 3 - i; n++) await view(t, b.file_name, 'walker');
    await t.app.listen({ host: '127.0.0.1', port });
  }, 120_000);
  afterAll(async () => t?.close());

  it('the catalogue spans several pages of real EPUBs', () => {
    expect(books.length).toBeGreaterThan(40);
  });

  it.each([
    ['OPDS 1.2', opds1],
    ['OPDS 2.0', opds2],
  ])('%s: root, every navigation and acquisition feed page by page, each book once', async (_name, make) => {
    const app = make(base);
    const root = await app.read(app.root);
    if (app.name === 'OPDS 1.2') expect(root.type).toBe(OpdsMediaType.navigation);
    expect(root.navigation.map((n) => n.title)).toEqual([
      'New books',
      'Popular books',
      'Categories',
      'Authors',
      'Publishers',
    ]);
    const nav = Object.fromEntries(root.navigation.map((n) => [n.title, n.href]));

    // new: every book exactly once across the pages, newest first
    const fresh = await walk(app, nav['New books']!);
    expect(fresh.books.map((b) => b.id)).toEqual(books.map(urn));
    expect(fresh.pages.length).toBe(Math.ceil(books.length / 20));
    expectAcquisition(app, fresh.pages);

    // popular: the hot ranking, most viewed first
    const popular = await walk(app, nav['Popular books']!);
    expect(popular.books.map((b) => b.id)).toEqual(viewed.map(urn));

    // categories, authors, publishers: every value once, each leading to exactly its books
    const groups: Array<[string, (b: StoredBook) => string]> = [
      ['Categories', (b) => b.category],
      ['Authors', (b) => b.author],
      ['Publishers', (b) => b.publisher],
    ];
    for (const [title, groupOf] of groups) {
      const list = await walk(app, nav[title]!);
      if (app.name === 'OPDS 1.2') for (const p of list.pages) expect(p.type).toBe(OpdsMediaType.navigation);
      const entries = list.pages.flatMap((p) => p.navigation);
      const values = [...new Set(books.map(groupOf).filter((v) => v !== ''))];
      expect(entries.map((e) => e.title).sort(), title).toEqual(values.sort());
      for (const entry of entries) {
        const feed = await walk(app, entry.href);
        expectAcquisition(app, feed.pages);
        const ids = feed.books.map((b) => b.id);
        expect(new Set(ids).size, `${title}: ${entry.title}`).toBe(ids.length);
        expect(sorted(ids), `${title}: ${entry.title}`).toEqual(
          sorted(books.filter((b) => groupOf(b) === entry.title).map(urn)),
        );
      }
    }
  });

  it.each([
    ['OPDS 1.2', opds1],
    ['OPDS 2.0', opds2],
  ])(
    '%s: every book downloads as the stored EPUB under its title, with its images and entry',
    async (_n, make) => {
      const app = make(base);
      const root = await app.read(app.root);
      const all = await walk(app, root.navigation[0]!.href);
      for (const entry of all.books) {
        const book = books.find((b) => urn(b) === entry.id)!;
        await expectDownload(entry, book, join(t.storage, book.file_path));
        for (const image of entry.images) {
          const res = await fetch(image);
          expect(res.status, image).toBe(200);
          expect(res.headers.get('content-type'), image).toMatch(/^image\/(png|jpeg|gif)$/);
          await res.arrayBuffer();
        }
        expect(await app.readPublication(entry.publication)).toBe(entry.id);
      }
    },
  );

  it.each([
    ['OPDS 1.2', opds1],
    ['OPDS 2.0', opds2],
  ])('%s: the search link finds books by Latin and CJK keywords', async (_n, make) => {
    const app = make(base);
    const root = await app.read(app.root);
    const search = async (terms: string) => (await walk(app, await app.searchUrl(root, terms))).books;
    const byTitle = (title: string) => urn(books.find((b) => b.title === title)!);

    expect((await search('alice')).map((b) => b.id)).toContain(byTitle("Alice's Adventures in Wonderland"));
    expect((await search('红楼')).map((b) => b.id)).toEqual([byTitle('红楼梦')]);
    expect((await search('刘慈欣')).map((b) => b.id)).toEqual([byTitle('三体')]);
    // a keyword matching more than a page: paged by `next`, each match once
    const generated = await search('Generated Volume');
    expect(generated).toHaveLength(33);
    expect(new Set(generated.map((b) => b.id)).size).toBe(33);
  });
});

/** OPDS 1: a feed of books is served as an acquisition feed (OPDS 1.2 §2). */
function expectAcquisition(app: AppDialect, pages: Array<{ type: string }>) {
  const type = app.name === 'OPDS 1.2' ? OpdsMediaType.acquisition : OpdsMediaType.feed2;
  for (const p of pages) expect(p.type).toBe(type);
}

async function expectDownload(entry: BookEntry, book: StoredBook, stored: string) {
  expect(entry.acquisition.type).toBe(OpdsMediaType.epub);
  const res = await fetch(entry.acquisition.href);
  expect(res.status, entry.acquisition.href).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/epub+zip');
  const disposition = contentDisposition.parse(res.headers.get('content-disposition')!);
  expect(disposition.type).toBe('attachment');
  expect(disposition.parameters.filename).toBe(`${book.title}.epub`);
  expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(stored))).toBe(true);
}
