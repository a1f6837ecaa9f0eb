import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importEpub } from '@readlib/catalog';
import { findBookByFileName, insertBook } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epubLimits } from '../src/index.js';
import { count, type Harness, harness, REAL_EPUB, storeFiles, upload } from './helpers.js';

const dialects = await testDialects();

/** The original console's edit route: `edit/:fileName(\\w+)`. */
const CONSOLE_ROUTE_NAME = /^\w+$/;

interface TreeNode {
  id: string;
  children: TreeNode[];
}

describe.each(dialects)('decisions.md §4, verified against the original clients, on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.auth });
  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, payload, headers: t.auth });

  it('contentsTree is the array of top-level entries, each with its own children, in upload and get', async () => {
    const up = (await upload(t, await readFile(REAL_EPUB('alice.epub')))).json().data;
    expect(Array.isArray(up.contentsTree)).toBe(true);
    const flat = (nodes: TreeNode[]): string[] => nodes.flatMap((n) => [n.id, ...flat(n.children)]);
    // every entry of the flat list once, in document order, and each node carries an array of children
    expect(flat(up.contentsTree)).toEqual(up.contents.map((e: { id: string }) => e.id));
    for (const node of up.contentsTree) expect(Array.isArray(node.children)).toBe(true);
    expect((await post('/book/create', { fileName: up.fileName })).statusCode).toBe(200);
    const got = (await get(`/book/get?fileName=${up.fileName}`)).json().data;
    expect(got.contentsTree).toEqual(up.contentsTree);
  });

  it('upload and get return filePath, unzipPath, coverPath and originalName; the upload posted back creates the book', async () => {
    const res = await upload(t, await readFile(REAL_EPUB('alice.epub')), 'C:\\books\\Alice.epub');
    const up = res.json().data;
    expect(up).toMatchObject({
      filePath: `epub/${up.fileName}.epub`,
      unzipPath: `unzip/${up.fileName}`,
      coverPath: expect.stringMatching(new RegExp(`^img/${up.fileName}\\.`)),
      originalName: 'Alice.epub',
    });
    for (const path of [up.filePath, up.unzipPath, up.coverPath])
      expect(existsSync(join(t.root, path))).toBe(true);
    // the original console's form: the upload's answer, every field of it, posted back to create
    const created = await post('/book/create', up);
    expect(created.json()).toMatchObject({ code: 0 });
    const row = await findBookByFileName(t.h.db, up.fileName);
    expect(row).toMatchObject({
      file_path: up.filePath,
      unzip_path: up.unzipPath,
      cover_path: up.coverPath,
      original_name: 'Alice.epub',
    });
    const got = (await get(`/book/get?fileName=${up.fileName}`)).json().data;
    expect(got).toMatchObject({
      filePath: up.filePath,
      unzipPath: up.unzipPath,
      coverPath: up.coverPath,
      originalName: 'Alice.epub',
    });
    // and the edit form posted back to update changes nothing it did not change
    expect((await post('/book/update', { ...got, title: 'Alice (edited)' })).json()).toMatchObject({
      code: 0,
    });
    expect(await findBookByFileName(t.h.db, up.fileName)).toMatchObject({
      title: 'Alice (edited)',
      file_path: up.filePath,
      cover_path: up.coverPath,
    });
  });

  it('a book without files answers empty paths', async () => {
    const created = await post('/book/create', {
      fileName: 'linked_only',
      title: 'Linked',
      url: 'http://x/y',
    });
    expect(created.json()).toMatchObject({ code: 0 });
    expect((await get('/book/get?fileName=linked_only')).json().data).toMatchObject({
      filePath: '',
      unzipPath: '',
      coverPath: '',
      originalName: '',
    });
  });

  it('new uploads and imports get names of letters, digits and _ only', async () => {
    const names = [];
    for (let i = 0; i < 20; i++) {
      const up = await upload(t, await readFile(REAL_EPUB('alice.epub')));
      names.push(up.json().data.fileName);
    }
    const deps = { db: t.h.db, store: t.store, limits: epubLimits(t.config) };
    names.push((await importEpub(deps, await readFile(REAL_EPUB('example-v3.epub')))).fileName);
    for (const name of names) expect(name).toMatch(CONSOLE_ROUTE_NAME);
    expect(new Set(names).size).toBe(names.length);
  });

  it('a new book named by its creator is held to the same names; a - or . is refused', async () => {
    for (const fileName of ['my-book', 'my.book', 'a b']) {
      const res = await post('/book/create', { fileName, title: 'T' });
      expect([res.statusCode, res.json().code], fileName).toEqual([400, -1]);
      expect(res.json().msg).toMatch(/letters, digits and "_"/);
    }
    expect(await count(t, 'books')).toBe(0);
  });

  it('a book stored under an older name with - and . keeps working everywhere a fileName is taken', async () => {
    // names given before they were narrowed: an upload's (base36-hex) and an import's (b-<sha256>)
    for (const legacy of ['lq3k9x-0a1b2c3d4e5f', 'b-0123456789abcdef', 'book.v2']) {
      const bytes = await readFile(REAL_EPUB('alice.epub'));
      const stored = await t.store.putBook(legacy, bytes);
      await insertBook(
        t.h.db,
        sampleBook({
          file_name: legacy,
          title: `Alice ${legacy}`,
          file_path: stored.relative.epub,
          unzip_path: stored.relative.unzip,
          cover_path: stored.relative.cover ?? '',
        }),
        [],
      );
      const got = await get(`/book/get?fileName=${legacy}`);
      expect([got.statusCode, got.json().data.fileName], legacy).toEqual([200, legacy]);
      expect(got.json().data.filePath).toBe(`epub/${legacy}.epub`);
      const list = (await get(`/book/list?title=${encodeURIComponent(legacy)}`)).json();
      expect(list.data.map((b: { fileName: string }) => b.fileName)).toEqual([legacy]);
      expect((await post('/book/update', { fileName: legacy, author: 'Carroll' })).json().code).toBe(0);
      expect((await findBookByFileName(t.h.db, legacy))!.author).toBe('Carroll');
      expect((await get(`/book/delete?fileName=${legacy}`)).json().code).toBe(0);
      expect(await findBookByFileName(t.h.db, legacy)).toBeUndefined();
    }
    expect(await storeFiles(t)).toEqual(['epub', 'img', 'unzip']);
  });

  it('re-importing bytes imported under an older b- name is a duplicate of that book, not a second one', async () => {
    const bytes = await readFile(REAL_EPUB('example-v3.epub'));
    const deps = { db: t.h.db, store: t.store, limits: epubLimits(t.config) };
    const fresh = await importEpub(deps, bytes);
    // the same book as an earlier version named it, with its title edited since (so no metadata match)
    const legacy = fresh.fileName.replace(/^b_/, 'b-');
    await t.h.db.updateTable('books').set({ file_name: legacy, title: 'Renamed' }).execute();
    const again = await importEpub(deps, bytes);
    expect(again).toEqual({ status: 'duplicate', fileName: legacy, title: 'Renamed', why: 'same-file' });
    expect(await count(t, 'books')).toBe(1);
  });
});
