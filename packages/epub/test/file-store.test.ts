import { mkdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { coverExtension } from '../src/file-store.helpers.js';
import { FileStore, parseEpub } from '../src/index.js';
import { makeEpub, TINY_PNG } from '../src/testing/index.js';
import { expectEpubError, listTree, REAL, tempRoot } from './helpers.js';

describe('FileStore', () => {
  let root: string;
  let dispose: () => Promise<void>;
  let store: FileStore;
  beforeEach(async () => {
    ({ root, dispose } = await tempRoot());
    store = new FileStore(root);
  });
  afterEach(() => dispose());

  it('stores epub, unpacked files and cover in the decided layout', async () => {
    const buf = await readFile(REAL('example-v3.epub'));
    const parsed = await parseEpub(buf);
    const stored = await store.putBook('abc_123', buf, parsed);
    expect(stored.relative).toEqual({
      epub: 'epub/abc_123.epub',
      unzip: 'unzip/abc_123',
      cover: 'img/abc_123.png',
    });
    expect(await readFile(join(root, 'epub/abc_123.epub'))).toEqual(buf);
    expect(await readFile(join(root, 'img/abc_123.png'))).toEqual(
      await readFile(join(root, 'unzip/abc_123/OEBPF/images/test-cover.png')),
    );
    expect(await listTree(join(root, 'unzip/abc_123'))).toContain(join('OEBPF', 'ebook.opf'));
    expect(await store.hasBook('abc_123')).toBe(true);
    expect(await store.findCover('abc_123')).toBe(join(root, 'img/abc_123.png'));
    expect(await listTree(join(root, '.tmp'))).toEqual([]);
    expect(await store.listFileNames()).toEqual(['abc_123']);
  });

  it('stores an epub given as a path readable by every user, whatever the mode of its source file', async () => {
    const source = join(root, 'upload-0600.epub');
    await writeFile(source, await readFile(REAL('example-v3.epub')), { mode: 0o600 });
    expect((await stat(source)).mode & 0o777).toBe(0o600);
    await store.putBook('from_path', source);
    expect((await stat(join(root, 'epub/from_path.epub'))).mode & 0o777).toBe(0o644);
    await store.placeBook('placed_path', source);
    expect((await stat(join(root, 'epub/placed_path.epub'))).mode & 0o777).toBe(0o644);
  });

  it('unpacks non-ASCII file names and books without a cover', async () => {
    const buf = makeEpub({ chapters: [{ title: '序', fileName: '序 章.xhtml' }] });
    const stored = await store.putBook('cjk', buf, await parseEpub(buf));
    expect(stored.coverPath).toBeNull();
    expect(await readFile(join(root, 'unzip/cjk/OEBPS/text/序 章.xhtml'), 'utf8')).toContain('序');
  });

  it('keeps a cover of an unknown media type only when its name is an image: never an .html "cover"', async () => {
    const cover = (href: string, mediaType = 'image/x-unknown') => ({ href, mediaType });
    expect(coverExtension(cover('OEBPS/c.html'))).toBeNull();
    expect(coverExtension(cover('OEBPS/c.xhtml'))).toBeNull();
    expect(coverExtension(cover('OEBPS/c.js'))).toBeNull();
    expect(coverExtension(cover('OEBPS/C.JPEG'))).toBe('jpeg');
    expect(coverExtension(cover('OEBPS/c.avif'))).toBe('avif');
    expect(coverExtension(cover('OEBPS/c.bin', 'image/png'))).toBe('png');
  });

  it('refuses to overwrite an existing book and leaves it intact', async () => {
    const buf = makeEpub({ cover: TINY_PNG });
    const parsed = await parseEpub(buf);
    await store.putBook('dup', buf, parsed);
    const before = await listTree(root);
    await expectEpubError(store.putBook('dup', makeEpub({ title: 'Other' }), parsed), 'BOOK_EXISTS');
    expect(await listTree(root)).toEqual(before);
  });

  it('an archive file that vanished is the service\'s fault, not a book that is "not an EPUB"', async () => {
    // a temp upload removed under the request answered 415 UNREADABLE with the server's path in it
    const gone = join(root, '.tmp', 'upload-gone.epub');
    const err = await store.putBook('gone', gone).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ENOENT', syscall: 'open' });
    expect(await listTree(root)).toEqual([]);
  });

  it('removes a book completely and idempotently', async () => {
    const buf = makeEpub({ cover: true });
    await store.putBook('gone', buf, await parseEpub(buf));
    await store.putBook('kept', buf, await parseEpub(buf));
    await store.removeBook('gone');
    await store.removeBook('gone');
    expect(await store.hasBook('gone')).toBe(false);
    expect(await store.listFileNames()).toEqual(['kept']);
    expect((await listTree(root)).filter((p) => p.includes('gone'))).toEqual([]);
  });

  it('cleans everything up when a write fails midway', async () => {
    const buf = makeEpub({ cover: true });
    // A file where the img folder should be makes the cover rename fail after unzip/ was moved in.
    await writeFile(join(root, 'img'), 'not a folder');
    await expectEpubError(store.putBook('half', buf, await parseEpub(buf)), 'STORE_FAILED');
    expect(await listTree(root)).toEqual(['.tmp', 'img', 'unzip']);
    expect(await store.hasBook('half')).toBe(false);
  });

  // a bulk import names a book by its bytes: files under the name are this very book, stored by an
  // import running at the same time or left by a crashed one: two imports at once must not remove
  // each other's files
  describe('placeBook, for names derived from the bytes', () => {
    const book = () => makeEpub({ title: 'Placed', cover: TINY_PNG, chapters: [{ title: 'One' }] });

    it('stores like putBook, and again finds the whole book in place and keeps it as it is', async () => {
      const buf = book();
      const first = await store.placeBook('b-1', buf, await parseEpub(buf));
      expect(first).toMatchObject({
        placed: true,
        relative: { epub: 'epub/b-1.epub', unzip: 'unzip/b-1', cover: 'img/b-1.png' },
        coverPath: join(root, 'img/b-1.png'),
      });
      const before = await listTree(join(root, 'unzip'));
      const inodes = async () =>
        Promise.all(
          ['epub/b-1.epub', 'img/b-1.png', 'unzip/b-1'].map(async (p) => (await stat(join(root, p))).ino),
        );
      const ino = await inodes();
      const again = await store.placeBook('b-1', buf);
      expect(again).toMatchObject({ placed: false, relative: first.relative, coverPath: first.coverPath });
      expect(await listTree(join(root, 'unzip'))).toEqual(before);
      // not written again
      expect(await inodes()).toEqual(ino);
      expect(await listTree(join(root, '.tmp'))).toEqual([]);
    });

    it('two placements at once both succeed and leave one whole book', async () => {
      const buf = book();
      const results = await Promise.all(Array.from({ length: 4 }, () => store.placeBook('b-2', buf)));
      expect(results.some((r) => r.placed)).toBe(true);
      expect(new Set(results.map((r) => JSON.stringify(r.relative))).size).toBe(1);
      const fresh = new FileStore(join(root, 'fresh'));
      await fresh.putBook('b-2', buf);
      expect(await listTree(join(root, 'unzip'))).toEqual(await listTree(join(root, 'fresh/unzip')));
      expect(await readFile(join(root, 'epub/b-2.epub'))).toEqual(buf);
      expect(await store.findCover('b-2')).toBe(join(root, 'img/b-2.png'));
    });

    it('completes what a crash left (an unpacked folder in part, no epub) without removing anything', async () => {
      const buf = book();
      const parsed = await parseEpub(buf);
      await store.putBook('b-3', buf, parsed);
      const whole = await listTree(join(root, 'unzip/b-3'));
      // a removal killed midway: the epub first, then some of the unpacked files
      await rm(join(root, 'epub/b-3.epub'));
      await rm(join(root, 'unzip/b-3', parsed.rootFile));
      await rm(join(root, 'unzip/b-3/OEBPS/text'), { recursive: true });
      const kept = join(root, 'unzip/b-3/META-INF/container.xml');
      const keptIno = (await stat(kept)).ino;
      const res = await store.placeBook('b-3', buf, parsed);
      expect(res.placed).toBe(true);
      expect(await listTree(join(root, 'unzip/b-3'))).toEqual(whole);
      expect((await stat(kept)).ino).toBe(keptIno);
      expect(await readFile(join(root, 'epub/b-3.epub'))).toEqual(buf);
      expect(await listTree(join(root, '.tmp'))).toEqual([]);
    });

    it('refuses what putBook refuses, before writing anything', async () => {
      await expectEpubError(store.placeBook('b-4', Buffer.from('not a zip')), 'NOT_A_ZIP');
      await expectEpubError(store.placeBook('../b-4', book()), 'INVALID_FILE_NAME');
      expect(await listTree(root)).toEqual([]);
    });
  });

  it('unpacks many entries side by side, each file whole', async () => {
    const good = (i: number) => ({ name: `OEBPS/extra/${i}.txt`, data: `file ${i} `.repeat(100 + i) });
    await store.putBook('many', makeEpub({ extraEntries: Array.from({ length: 30 }, (_, i) => good(i)) }));
    for (let i = 0; i < 30; i++)
      expect(await readFile(join(root, `unzip/many/OEBPS/extra/${i}.txt`), 'utf8')).toBe(good(i).data);
    expect(await listTree(join(root, '.tmp'))).toEqual([]);
  });

  it.each(['', '.hidden', '..', '../x', 'a/b', 'a\\b', 'x'.repeat(129), 'name with space', 'é'])(
    'refuses the file name %j',
    async (name) => {
      const buf = makeEpub();
      await expectEpubError(store.putBook(name, buf, await parseEpub(buf)), 'INVALID_FILE_NAME');
      expect(() => store.paths(name)).toThrow(/invalid book file name/);
      await expectEpubError(store.removeBook(name), 'INVALID_FILE_NAME');
      expect(await listTree(root)).toEqual([]);
    },
  );

  it('accepts names up to 128 characters with dots, dashes and underscores', async () => {
    const buf = makeEpub();
    const name = `a.b-c_${'x'.repeat(122)}`;
    await store.putBook(name, buf, await parseEpub(buf));
    expect(await store.hasBook(name)).toBe(true);
  });

  it('cleanTemp removes leftovers of crashed imports', async () => {
    await mkdir(join(root, '.tmp/crashed/unzip'), { recursive: true });
    await writeFile(join(root, '.tmp/crashed/book.epub'), 'x');
    expect(await store.cleanTemp(60_000)).toBe(0);
    expect(await store.cleanTemp()).toBe(1);
    expect(await listTree(join(root, '.tmp'))).toEqual([]);
  });

  it('cleanTemp with a grace period removes only leftovers older than it', async () => {
    await mkdir(join(root, '.tmp/old'), { recursive: true });
    await mkdir(join(root, '.tmp/fresh'), { recursive: true });
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await utimes(join(root, '.tmp/old'), twoMinutesAgo, twoMinutesAgo);
    expect(await store.cleanTemp(60_000)).toBe(1);
    expect(await listTree(join(root, '.tmp'))).toEqual(['fresh']);
  });

  it('cleanTemp() removes a leftover stamped later than the clock reads (sub-millisecond mtime, skew)', async () => {
    await mkdir(join(root, '.tmp/ahead'), { recursive: true });
    const ahead = new Date(Date.now() + 1_000);
    await utimes(join(root, '.tmp/ahead'), ahead, ahead);
    expect(await store.cleanTemp()).toBe(1);
    expect(await listTree(join(root, '.tmp'))).toEqual([]);
  });
});
