import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BOOK_LIST_SORT_FIELDS, MaxLength } from '@readlib/contracts';
import { deleteBook, findBookByFileName, insertBook } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import { makeEpub } from '@readlib/epub/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { count, type Harness, harness, REAL_EPUB, storeFiles, upload } from './helpers.js';

const dialects = await testDialects();

describe.each(dialects)('spec §4.11, decisions.md §4: operator journey on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.auth });
  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, payload, headers: t.auth });

  it('uploads a real EPUB, creates, lists, gets, updates and deletes it; its files go with it', async () => {
    const up = await upload(t, await readFile(REAL_EPUB('alice.epub')), '../../etc/alice.epub');
    expect(up.statusCode).toBe(200);
    const book = up.json().data;
    expect(book).toMatchObject({
      id: '',
      title: expect.stringMatching(/Alice/),
      rootFile: expect.stringMatching(/\.opf$/),
    });
    expect(book.fileName).toMatch(/^[a-z0-9]+_[0-9a-f]{12}$/);
    expect(book.fileName).not.toMatch(/alice|etc/);
    expect(book.contents.length).toBeGreaterThan(3);
    expect(book.contentsTree.length).toBeGreaterThan(0);
    expect(book.contents[0].text).toMatch(new RegExp(`^http://res\\.test/res/unzip/${book.fileName}/`));
    expect(book.categoryText).toBe('Uncategorised');
    expect(existsSync(join(t.root, 'epub', `${book.fileName}.epub`))).toBe(true);
    expect(await count(t, 'uploads')).toBe(1);
    expect(await count(t, 'books')).toBe(0);

    const created = await post('/book/create', { fileName: book.fileName, publisher: 'Macmillan' });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toEqual({ code: 0, msg: expect.any(String), data: null });
    expect(await count(t, 'uploads')).toBe(0);
    expect(await count(t, 'toc_entries')).toBe(book.contents.length);

    const list = (await get('/book/list')).json();
    expect(list).toMatchObject({ code: 0, page: 1, pageSize: 20, total: 1 });
    expect(list.data[0]).toMatchObject({
      fileName: book.fileName,
      publisher: 'Macmillan',
      id: expect.stringMatching(/^\d+$/),
    });
    expect(list.data[0].contents).toBeUndefined();

    const detail = (await get(`/book/get?fileName=${book.fileName}`)).json().data;
    expect(detail).toMatchObject({ fileName: book.fileName, title: book.title, publisher: 'Macmillan' });
    expect(detail.contents).toEqual(book.contents);
    expect(detail.contentsTree).toEqual(book.contentsTree);

    const updated = await post('/book/update', {
      fileName: book.fileName,
      author: 'Lewis Carroll',
      categoryText: 'Classics',
    });
    expect(updated.statusCode).toBe(200);
    const after = (await get(`/book/get?fileName=${book.fileName}`)).json().data;
    expect(after).toMatchObject({
      author: 'Lewis Carroll',
      title: book.title,
      publisher: 'Macmillan',
      categoryText: 'Classics',
    });

    const home = (await get('/book/home')).json();
    expect(home).toEqual({ code: 0, msg: expect.any(String), data: { book: 1, rank: 0, shelf: 0, user: 0 } });
    const cats = (await get('/book/category')).json().data;
    expect(cats).toContainEqual({ label: 'Classics', value: after.category, num: 1 });
    expect(cats).toContainEqual({ label: 'ComputerScience', value: 1, num: 0 });

    const del = await get(`/book/delete?fileName=${book.fileName}`);
    expect(del.json()).toEqual({ code: 0, msg: expect.any(String), data: null });
    expect(await count(t, 'books')).toBe(0);
    expect(await count(t, 'toc_entries')).toBe(0);
    expect(await storeFiles(t)).toEqual(['epub', 'img', 'unzip']);
    const again = await get(`/book/delete?fileName=${book.fileName}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe(-1);
  });

  it('takes the category from EPUB subjects when one names a category, and a URL-encoded create', async () => {
    const up = await upload(
      t,
      makeEpub({ title: 'Algorithms', creators: ['Knuth'], subjects: ['Computer Science'], cover: true }),
    );
    const book = up.json().data;
    expect(book).toMatchObject({
      category: 1,
      categoryText: 'ComputerScience',
      cover: expect.stringMatching(/^http:\/\/res\.test\/res\/img\//),
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/book/create',
      headers: { ...t.auth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        fileName: book.fileName,
        title: 'Algorithms, vol. 1',
        category: '16',
      }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(await findBookByFileName(t.h.db, book.fileName)).toMatchObject({
      title: 'Algorithms, vol. 1',
      category_id: 16,
      category_name: 'Mathematics',
    });
  });

  it('GET /book/get: missing fileName 400, unknown 404, both code -1', async () => {
    const missing = await get('/book/get');
    expect([missing.statusCode, missing.json().code]).toEqual([400, -1]);
    const unknown = await get('/book/get?fileName=nope');
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, -1]);
  });

  it('POST /book/update: only the fields sent change; category by id (must exist) or by new name; unknown 404', async () => {
    const b = await insertBook(
      t.h.db,
      sampleBook({ title: 'T', author: 'A', publisher: 'P', language: 'en' }),
      [],
    );
    expect((await post('/book/update', { fileName: b.file_name, language: 'fr' })).statusCode).toBe(200);
    expect(await findBookByFileName(t.h.db, b.file_name)).toMatchObject({
      title: 'T',
      author: 'A',
      publisher: 'P',
      language: 'fr',
    });
    expect((await post('/book/update', { fileName: b.file_name, category: 8 })).statusCode).toBe(200);
    expect((await findBookByFileName(t.h.db, b.file_name))!.category_name).toBe('History');
    const bad = await post('/book/update', { fileName: b.file_name, category: 999 });
    expect([bad.statusCode, bad.json().code]).toEqual([400, -1]);
    const before = await count(t, 'categories');
    expect((await post('/book/update', { fileName: b.file_name, categoryText: 'Poetry' })).statusCode).toBe(
      200,
    );
    expect(await count(t, 'categories')).toBe(before + 1);
    expect((await findBookByFileName(t.h.db, b.file_name))!.category_name).toBe('Poetry');
    expect((await post('/book/update', { fileName: b.file_name, categoryText: 'Poetry' })).statusCode).toBe(
      200,
    );
    expect(await count(t, 'categories')).toBe(before + 1);
    // another case or spacing names the same category, as EPUB subjects do (it made a second one)
    for (const [text, name] of [
      ['poetry', 'Poetry'],
      [' history ', 'History'],
      ['computer science', 'ComputerScience'],
    ]) {
      expect((await post('/book/update', { fileName: b.file_name, categoryText: text })).statusCode).toBe(
        200,
      );
      expect((await findBookByFileName(t.h.db, b.file_name))!.category_name, text).toBe(name);
    }
    expect(await count(t, 'categories')).toBe(before + 1);
    const unknown = await post('/book/update', { fileName: 'nope', title: 'x' });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, -1]);
    // create requires a title, so an update cannot blank it (null is coerced to "" by validation)
    for (const title of ['', '   ', null]) {
      const blank = await post('/book/update', { fileName: b.file_name, title });
      expect([blank.statusCode, blank.json().code], String(title)).toEqual([400, -1]);
    }
    expect((await findBookByFileName(t.h.db, b.file_name))!.title).toBe('T');
    // `cover` names a stored image by its /res/ URL, or none by ''; any other is refused, not dropped
    // without a word
    await mkdir(join(t.root, 'img'), { recursive: true });
    await writeFile(join(t.root, `img/${b.file_name}.png`), 'png');
    const own = await post('/book/update', {
      fileName: b.file_name,
      cover: `http://res.test/res/img/${b.file_name}.png`,
    });
    expect(own.statusCode).toBe(200);
    expect((await findBookByFileName(t.h.db, b.file_name))!.cover_path).toBe(`img/${b.file_name}.png`);
    // a cover is a file of this book: not a folder, not another book's cover, which goes with that
    // book
    await writeFile(join(t.root, 'img/other-book.png'), 'png');
    for (const cover of ['img', 'img/other-book.png', `img/${b.file_name}.png/../other-book.png`]) {
      const res = await post('/book/update', {
        fileName: b.file_name,
        cover: `http://res.test/res/${cover}`,
      });
      expect([res.statusCode, res.json().code], cover).toEqual([400, -1]);
    }
    await mkdir(join(t.root, `unzip/${b.file_name}/OEBPS`), { recursive: true });
    await writeFile(join(t.root, `unzip/${b.file_name}/OEBPS/cover.jpg`), 'jpg');
    const inside = await post('/book/update', {
      fileName: b.file_name,
      coverPath: `unzip/${b.file_name}/OEBPS/cover.jpg`,
    });
    expect(inside.statusCode).toBe(200);
    // rootFile: the package document inside the book's own unpacked folder, which `opf` publishes
    await writeFile(join(t.root, `unzip/${b.file_name}/OEBPS/content.opf`), '<package/>');
    expect(
      (await post('/book/update', { fileName: b.file_name, rootFile: 'OEBPS/content.opf' })).statusCode,
    ).toBe(200);
    for (const rootFile of ['OEBPS', 'OEBPS/../OEBPS/content.opf', `../${b.file_name}/OEBPS/content.opf`]) {
      const res = await post('/book/update', { fileName: b.file_name, rootFile });
      expect([res.statusCode, res.json().msg], rootFile).toEqual([400, expect.stringMatching(/rootFile/)]);
    }
    expect((await findBookByFileName(t.h.db, b.file_name))!.root_file).toBe('OEBPS/content.opf');
    const folder = await post('/book/update', {
      fileName: b.file_name,
      coverPath: `unzip/${b.file_name}/OEBPS`,
    });
    expect([folder.statusCode, folder.json().msg]).toEqual([400, expect.stringMatching(/names a folder/)]);
    const foreign = await post('/book/update', { fileName: b.file_name, cover: 'https://cdn.example/x.jpg' });
    expect([foreign.statusCode, foreign.json().code]).toEqual([400, -1]);
    expect(foreign.json().msg).toMatch(/cover must be empty or a URL of this service's \/res\/ files/);
    expect((await post('/book/update', { fileName: b.file_name, cover: '' })).statusCode).toBe(200);
    expect((await findBookByFileName(t.h.db, b.file_name))!.cover_path).toBe('');
  });

  it('POST /book/update refuses paths not in the store, a blank categoryText and text that is not Unicode (found by an audit)', async () => {
    const b = await insertBook(t.h.db, sampleBook({ title: 'T' }), []);
    const before = await findBookByFileName(t.h.db, b.file_name);
    for (const body of [
      { coverPath: '../../../etc/passwd' },
      { unzipPath: 'nope/none' },
      { filePath: '/etc/shadow' },
      { rootFile: '../../../etc/passwd' },
      { rootFile: '/etc/passwd' },
      { rootFile: 'OEBPS/none.opf' },
      { categoryText: '   ' },
      { title: 'Lone \ud800 surrogate' },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/book/update',
        headers: { ...t.auth, 'content-type': 'application/json' },
        // JSON.stringify writes the lone surrogate as the escape \ud800, as a client would send it
        payload: JSON.stringify({ fileName: b.file_name, ...body }),
      });
      expect([res.statusCode, res.json().code], JSON.stringify(body)).toEqual([400, -1]);
    }
    expect(await findBookByFileName(t.h.db, b.file_name)).toEqual(before);
  });

  it('HEAD /book/delete deletes nothing (404); the spec puts delete on GET, which does', async () => {
    const b = await insertBook(t.h.db, sampleBook(), []);
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/book/delete?fileName=${b.file_name}`,
      headers: t.auth,
    });
    expect(head.statusCode).toBe(404);
    expect(await findBookByFileName(t.h.db, b.file_name)).toBeDefined();
    expect((await get(`/book/delete?fileName=${b.file_name}`)).statusCode).toBe(200);
    expect(await findBookByFileName(t.h.db, b.file_name)).toBeUndefined();
  });

  it("POST /book/create: existing fileName 409; duplicate title+author+publisher 409 keeping both books' files", async () => {
    const first = (
      await upload(t, makeEpub({ title: 'Same', creators: ['Author'], publisher: 'House' }))
    ).json().data;
    expect((await post('/book/create', { fileName: first.fileName })).statusCode).toBe(200);
    const again = await post('/book/create', { fileName: first.fileName });
    expect([again.statusCode, again.json().code]).toEqual([409, -1]);

    const second = (
      await upload(
        t,
        makeEpub({ title: 'Same', creators: ['Author'], publisher: 'House', chapters: [{ title: 'Other' }] }),
      )
    ).json().data;
    const categories = await count(t, 'categories');
    const dup = await post('/book/create', { fileName: second.fileName, categoryText: 'Refused Shelf' });
    expect([dup.statusCode, dup.json().code]).toEqual([409, -1]);
    // a refused create adds nothing, not even the category it named
    expect(await count(t, 'categories')).toBe(categories);
    expect(await t.store.hasBook(first.fileName)).toBe(true);
    expect(await t.store.hasBook(second.fileName)).toBe(true);
    expect(await count(t, 'uploads')).toBe(1);
    // the operator fixes the metadata and tries again
    expect(
      (await post('/book/create', { fileName: second.fileName, title: 'Same, second edition' })).statusCode,
    ).toBe(200);
    expect(await count(t, 'books')).toBe(2);
  });

  it('GET /book/same: the books a create would collide with, compared exactly as the create compares', async () => {
    const book = (
      await upload(t, makeEpub({ title: 'Same', creators: ['Author'], publisher: 'House' }))
    ).json().data;
    const same = (qs: string) => get(`/book/same?${qs}`);
    expect((await same('title=Same&author=Author&publisher=House')).json()).toEqual({
      code: 0,
      msg: expect.any(String),
      data: [],
    });
    expect((await post('/book/create', { fileName: book.fileName })).statusCode).toBe(200);
    const found = (await same('title=Same&author=Author&publisher=House')).json().data;
    expect(found).toEqual([
      expect.objectContaining({ fileName: book.fileName, title: 'Same', author: 'Author' }),
    ]);
    expect(found).toEqual((await get('/book/list?title=Same')).json().data);
    // what the create would let in is not the same: another case, a space, an author or publisher left out
    for (const qs of [
      'title=same&author=Author&publisher=House',
      'title=Same%20&author=Author&publisher=House',
      'title=Same&author=Author',
      'title=Same&publisher=House',
    ])
      expect((await same(qs)).json().data, qs).toEqual([]);
    // a book with no author or publisher is found by the title alone
    await insertBook(t.h.db, sampleBook({ title: 'Anonymous', author: '', publisher: '' }), []);
    expect((await same('title=Anonymous')).json().data).toHaveLength(1);
    const missing = await same('author=Author');
    expect([missing.statusCode, missing.json().code]).toEqual([400, -1]);
    const anonymous = await t.app.inject({ method: 'GET', url: '/book/same?title=Same' });
    expect([anonymous.statusCode, anonymous.json().code]).toEqual([401, -2]);
  });

  it('POST /book/create without an upload stores the url, fetches nothing and writes no files', async () => {
    const res = await post('/book/create', {
      fileName: 'remote_1',
      title: 'Remote',
      author: 'R',
      url: 'https://example.org/r.epub',
      categoryText: 'Web',
    });
    expect(res.statusCode).toBe(200);
    expect(await findBookByFileName(t.h.db, 'remote_1')).toMatchObject({
      url: 'https://example.org/r.epub',
      file_path: '',
      category_name: 'Web',
    });
    expect(await storeFiles(t)).toEqual([]);
    const badName = await post('/book/create', { fileName: '../x', title: 'X' });
    expect([badName.statusCode, badName.json().code]).toEqual([400, -1]);
    const categories = await count(t, 'categories');
    const noTitle = await post('/book/create', { fileName: 'remote_2', categoryText: 'Never Made' });
    expect(noTitle.statusCode).toBe(400);
    const noCategory = await post('/book/create', { fileName: 'remote_3', title: 'R3', category: 999 });
    expect([noCategory.statusCode, noCategory.json().msg]).toEqual([400, 'category 999 does not exist']);
    expect(await count(t, 'categories')).toBe(categories);
    expect(await findBookByFileName(t.h.db, 'remote_3')).toBeUndefined();
    // it may point at files of the store, not at files that are not there (after
    // the expiry sweep, a create repeating an expired upload's paths would make a book without its files)
    for (const paths of [
      { coverPath: 'img/remote_4.png' },
      { filePath: 'epub/remote_4.epub', unzipPath: 'unzip/remote_4' },
    ]) {
      const dangling = await post('/book/create', { fileName: 'remote_4', title: 'R4', ...paths });
      expect([dangling.statusCode, dangling.json().code], JSON.stringify(paths)).toEqual([400, -1]);
      expect(dangling.json().msg).toMatch(/is not in the store .*upload the book again/);
    }
    // nor at files of another book, or outside the store
    for (const paths of [{ coverPath: '../../etc/passwd' }, { filePath: 'epub/gone.epub' }]) {
      const foreign = await post('/book/create', { fileName: 'remote_4', title: 'R4', ...paths });
      expect([foreign.statusCode, foreign.json().msg]).toEqual([
        400,
        expect.stringMatching(/is not a file of book remote_4/),
      ]);
    }
    expect(await findBookByFileName(t.h.db, 'remote_4')).toBeUndefined();
    const stored = (await upload(t, makeEpub({ title: 'Stored', cover: true }))).json().data;
    expect((await post('/book/create', { fileName: stored.fileName })).statusCode).toBe(200);
    const row = (await findBookByFileName(t.h.db, stored.fileName))!;
    expect([row.cover_path, row.file_path]).toEqual([
      expect.stringMatching(/^img\//),
      `epub/${stored.fileName}.epub`,
    ]);
    // another book's files are not this one's: deleting that book took them from under it
    const sharing = await post('/book/create', {
      fileName: 'remote_5',
      title: 'R5',
      coverPath: row.cover_path,
      filePath: row.file_path,
    });
    expect([sharing.statusCode, sharing.json().code]).toEqual([400, -1]);
    expect(await findBookByFileName(t.h.db, 'remote_5')).toBeUndefined();
    expect((await get('/book/delete?fileName=remote_1')).statusCode).toBe(200);
  });
});

describe.each(dialects)('decisions.md §4 List: filters, sort, paging on $name', (dialect) => {
  let t: Harness;
  beforeAll(async () => {
    t = await harness(dialect);
    const rows = [
      { title: 'Deep Learning', author: 'Goodfellow', category_id: 1 },
      { title: 'Learning Python', author: 'Lutz', category_id: 1 },
      { title: 'A History of Rome', author: 'Beard', category_id: 8 },
      { title: 'Machine Learning', author: 'Murphy', category_id: 1 },
      { title: 'Zen Poems', author: 'Basho', category_id: 11 },
    ];
    for (const r of rows) await insertBook(t.h.db, sampleBook(r), []);
  });
  afterAll(async () => t.close());

  const list = async (qs: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/book/list?${qs}`, headers: t.auth });
    return { status: res.statusCode, body: res.json() };
  };

  it('filters title and author by substring (case-insensitive) and category by name, AND-ed', async () => {
    expect((await list('title=learning')).body.total).toBe(3);
    expect(
      (await list('title=learning&author=MUR')).body.data.map((b: { title: string }) => b.title),
    ).toEqual(['Machine Learning']);
    expect((await list('category=ComputerScience')).body.total).toBe(3);
    expect((await list('category=History&title=learning')).body.total).toBe(0);
    expect((await list('category=Nope')).body.total).toBe(0);
  });

  it('filters by a whole title or author as long as a book stores one (an operator pastes it)', async () => {
    const title = `Proceedings ${'of the long-titled symposium, '.repeat(10)}`.slice(0, MaxLength.text);
    const author = `Committee ${'on names, '.repeat(30)}`.slice(0, MaxLength.text);
    const row = await insertBook(t.h.db, sampleBook({ title, author, category_id: 8 }), []);
    try {
      for (const qs of [`title=${encodeURIComponent(title)}`, `author=${encodeURIComponent(author)}`]) {
        const res = await list(qs);
        expect(res.status).toBe(200);
        expect(res.body.data.map((b: { title: string }) => b.title)).toEqual([title]);
      }
      const tooLong = await list(`title=${encodeURIComponent(`${title}x`)}`);
      expect([tooLong.status, tooLong.body.code]).toEqual([400, -1]);
    } finally {
      await deleteBook(t.h.db, row.file_name);
    }
  });

  it('reads filters as a search box sends them: trimmed, blank as not sent', async () => {
    // `python ` kept its space as a 7-character substring; `on ` asked the gram index for a gram with
    // white space in it, which it never holds: both found nothing
    expect((await list('title=python%20')).body.total).toBe(1);
    expect((await list('title=%20Rome')).body.total).toBe(1);
    expect((await list('title=on%20')).body.total).toBe(1);
    expect((await list('author=%20%20&category=ComputerScience%20')).body.total).toBe(3);
    expect((await list('title=%20%20')).body.total).toBe((await list('')).body.total);
  });

  it('sorts by +field / -field; an unencoded + is read as ascending; unknown fields are 400 code -1', async () => {
    const titles = (b: { data: Array<{ title: string }> }) => b.data.map((x) => x.title);
    expect(titles((await list('sort=%2Btitle')).body)).toEqual([
      'A History of Rome',
      'Deep Learning',
      'Learning Python',
      'Machine Learning',
      'Zen Poems',
    ]);
    expect(titles((await list('sort=-title')).body)[0]).toBe('Zen Poems');
    expect(titles((await list('sort=+author')).body)[0]).toBe('Zen Poems');
    for (const bad of ['sort=-password', 'sort=%2Bgrams', 'sort=title;drop']) {
      const res = await list(bad);
      expect([res.status, res.body.code], bad).toEqual([400, -1]);
    }
    // the refusal names the contracts' list, and every field of it sorts
    expect((await list('sort=-password')).body.msg).toContain(
      `sortable: ${BOOK_LIST_SORT_FIELDS.join(', ')}`,
    );
    for (const field of BOOK_LIST_SORT_FIELDS) {
      for (const sort of [`%2B${field}`, `-${field}`]) {
        const res = await list(`sort=${sort}`);
        expect([res.status, res.body.code, res.body.total], sort).toEqual([200, 0, 5]);
      }
    }
  });

  it('pages a filtered list in every sort as the whole list filtered by hand, with its total', async () => {
    // SQLite pages and counts title/author matches from the search indexes themselves when sorted by
    // id; the other sorts and PostgreSQL go through the books table: all must agree
    type Row = { title: string; author: string; fileName: string };
    const has = (v: string, kw: string) => v.toLowerCase().includes(kw.toLowerCase());
    for (const sort of ['-id', '%2Bid', '%2Btitle', '-author']) {
      const all: Row[] = (await list(`pageSize=100&sort=${sort}`)).body.data;
      for (const [qs, keep] of [
        ['title=learning', (r: Row) => has(r.title, 'learning')],
        ['author=u', (r: Row) => has(r.author, 'u')],
        ['title=learning&author=o', (r: Row) => has(r.title, 'learning') && has(r.author, 'o')],
      ] as const) {
        const expected = all.filter(keep).map((r) => r.fileName);
        expect(expected.length, qs).toBeGreaterThan(0);
        expect(typeof expected[0]).toBe('string');
        const pages: string[] = [];
        for (let page = 1; page <= 3; page++) {
          const body = (await list(`${qs}&sort=${sort}&page=${page}&pageSize=2`)).body;
          expect(body.total, `${qs} ${sort}`).toBe(expected.length);
          pages.push(...body.data.map((r: Row) => r.fileName));
        }
        expect(pages, `${qs} ${sort}`).toEqual(expected);
      }
    }
  });

  it('pages the list in every sort as the list read whole; ties go in id order, the way the sort goes', async () => {
    const idsOf = (b: { data: Array<{ id: number | string }> }) => b.data.map((r) => Number(r.id));
    for (const field of BOOK_LIST_SORT_FIELDS)
      for (const sort of [`%2B${field}`, `-${field}`]) {
        const whole = idsOf((await list(`pageSize=100&sort=${sort}`)).body);
        expect(whole, sort).toHaveLength(5);
        const paged: number[] = [];
        for (let page = 1; page <= 3; page++)
          paged.push(...idsOf((await list(`page=${page}&pageSize=2&sort=${sort}`)).body));
        expect(paged, sort).toEqual(whole);
      }
    // every book here has the same publisher and language: those sorts are the id order alone
    const byId = idsOf((await list('pageSize=100&sort=%2Bid')).body);
    expect(byId).toEqual([...byId].sort((a, b) => a - b));
    expect(idsOf((await list('pageSize=100&sort=%2Bpublisher')).body)).toEqual(byId);
    expect(idsOf((await list('pageSize=100&sort=-language')).body)).toEqual([...byId].reverse());
    // three books of category 1 (ComputerScience), in id order within it
    const byCategory = idsOf((await list('pageSize=3&sort=%2Bcategory')).body);
    expect(byCategory).toEqual([...byCategory].sort((a, b) => a - b));
  });

  it('pages with the total of all pages; page 0 is 400, a pageSize over 100 is served as 100', async () => {
    const p2 = (await list('page=2&pageSize=2&sort=%2Bid')).body;
    expect(p2).toMatchObject({ code: 0, page: 2, pageSize: 2, total: 5 });
    expect(p2.data).toHaveLength(2);
    expect((await list('page=3&pageSize=2')).body.data).toHaveLength(1);
    expect((await list('pageSize=101')).body).toMatchObject({ code: 0, page: 1, pageSize: 100, total: 5 });
    expect((await list('pageSize=0')).status).toBe(400);
    expect((await list('page=0')).status).toBe(400);
  });
});
