import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countBooks, createDb, type DbHandle, findBookByFileName, findToc } from '@readlib/data';
import { testDialects } from '@readlib/data/testing';
import { FileStore } from '@readlib/epub';
import { makeEpub, makeHostileZip } from '@readlib/epub/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectEpubs, importAll } from '../src/commands/import.command.js';
import { demoInputs, REAL_EPUB_DIR } from '../src/demo/demo-catalogue.js';
import { runCli } from './run-cli.js';

const dialects = await testDialects();

describe.each(dialects)('bulk import (issue: EPUB ingestion §4) on $name', (dialect) => {
  let h: DbHandle;
  let dir: string;
  let store: FileStore;
  beforeEach(async () => {
    h = await dialect.create();
    dir = mkdtempSync(join(tmpdir(), 'readlib-import-'));
    store = new FileStore(join(dir, 'store'));
  });
  afterEach(async () => {
    await h.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  const deps = () => ({ db: h.db, store, limits: {} });

  it('imports the real EPUBs of a folder, skips duplicates, and is idempotent when run again', async () => {
    const sources = await collectEpubs([REAL_EPUB_DIR]);
    expect(sources.length).toBe(8);
    const first = await importAll(deps(), sources);
    // nodepub ships the same book as EPUB2 and EPUB3 twice: same title, author, publisher
    expect(first.failed).toEqual([]);
    expect(first.added + first.duplicate).toBe(8);
    expect(first.added).toBe(await countBooks(h.db));
    const again = await importAll(deps(), sources);
    expect(again).toMatchObject({ added: 0, duplicate: 8, failed: [] });
    // each file skipped is named, with the book it is a duplicate of and why
    expect(again.skipped.map((d) => d.file).sort()).toEqual(sources.map((src) => src.name).sort());
    const whys = new Set(again.skipped.map((d) => d.why));
    expect(whys.has('same-file')).toBe(true);
    expect(readdirSync(join(dir, 'store', 'epub')).length).toBe(first.added);
  });

  it('reports each failure with its reason and goes on; a broken file leaves no rows or files', async () => {
    const bad = join(dir, 'bad');
    rmSync(bad, { recursive: true, force: true });
    mkdirSync(bad);
    writeFileSync(join(bad, 'a-traversal.epub'), makeHostileZip('traversal'));
    writeFileSync(join(bad, 'b-not-zip.epub'), Buffer.from('plain text'));
    const sources = [
      ...(await collectEpubs([bad])),
      ...(await collectEpubs([join(REAL_EPUB_DIR, 'alice.epub')])),
    ];
    const s = await importAll(deps(), sources);
    expect(s.added).toBe(1);
    expect(s.failed.map((f) => f.reason.split(':')[0])).toEqual(['UNSAFE_PATH', 'NOT_A_ZIP']);
    expect(await countBooks(h.db)).toBe(1);
    expect(readdirSync(join(dir, 'store', 'epub'))).toHaveLength(1);
  });

  it('reports a broken symbolic link or a missing path among the failures and imports the rest', async () => {
    const folder = join(dir, 'books');
    mkdirSync(join(folder, 'nested'), { recursive: true });
    symlinkSync(join(REAL_EPUB_DIR, 'alice.epub'), join(folder, 'a-alice.epub'));
    symlinkSync(join(dir, 'gone.epub'), join(folder, 'b-gone.epub'));
    symlinkSync(join(dir, 'gone-folder'), join(folder, 'c-gone-folder'));
    symlinkSync(folder, join(folder, 'nested', 'back-up')); // a loop, walked once
    const missing = join(dir, 'never-there');
    const sources = await collectEpubs([folder, missing]);
    const s = await importAll(deps(), sources);
    expect(s.added).toBe(1);
    expect(s.failed).toEqual([
      { file: join(folder, 'b-gone.epub'), reason: 'broken symbolic link: its target does not exist' },
      { file: join(folder, 'c-gone-folder'), reason: 'broken symbolic link: its target does not exist' },
      { file: missing, reason: 'not found' },
    ]);
    expect(await countBooks(h.db)).toBe(1);
  });

  // a FIFO named *.epub, in a folder or named directly, and /dev/zero must not hang the import
  it('reads regular files only: a FIFO or a device is a failure "not a regular file", and the rest goes on', async () => {
    const folder = join(dir, 'books');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a-book.epub'), makeEpub({ title: 'Regular' }));
    execFileSync('mkfifo', [
      join(folder, 'b-pipe.epub'),
      join(dir, 'named.epub'),
      join(folder, 'c-pipe.txt'),
    ]);
    const sources = await collectEpubs([folder, join(dir, 'named.epub'), '/dev/zero']);
    const s = await importAll(deps(), sources);
    expect(s.added).toBe(1);
    expect(s.failed).toEqual([
      { file: join(folder, 'b-pipe.epub'), reason: 'not a regular file' },
      { file: join(dir, 'named.epub'), reason: 'not a regular file' },
      { file: '/dev/zero', reason: 'not a regular file' },
    ]);
  });

  // a file over the archive limit must be refused from its size, never read into memory first
  it('refuses a file over maxArchiveBytes without reading it, and imports the rest', async () => {
    const folder = join(dir, 'books');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a-book.epub'), makeEpub({ title: 'Small enough' }));
    const big = join(folder, 'b-big.epub');
    writeFileSync(big, Buffer.alloc(4096));
    const sources = await collectEpubs([folder]);
    const reads: string[] = [];
    const watched = sources.map((src) => ({
      ...src,
      load: () => {
        reads.push(src.name);
        return src.load();
      },
    }));
    const s = await importAll({ ...deps(), limits: { maxArchiveBytes: 2048 } }, watched);
    expect(s.added).toBe(1);
    expect(s.failed).toEqual([
      { file: big, reason: 'TOO_LARGE: the archive is 4096 bytes, over the 2048 limit' },
    ]);
    expect(reads).toEqual([join(folder, 'a-book.epub')]);
  });

  // a link to / inside the folder must not make the import walk the whole machine
  it('follows links to files but not links to folders below a named folder; a named folder may be a link', async () => {
    const folder = join(dir, 'books');
    const outside = join(dir, 'outside');
    mkdirSync(folder);
    mkdirSync(outside);
    writeFileSync(join(outside, 'far.epub'), makeEpub({ title: 'Far away' }));
    symlinkSync(join(REAL_EPUB_DIR, 'alice.epub'), join(folder, 'alice.epub'));
    symlinkSync(outside, join(folder, 'elsewhere'));
    symlinkSync('/', join(folder, 'root'));
    expect((await collectEpubs([folder])).map((src) => src.name)).toEqual([join(folder, 'alice.epub')]);
    const named = join(dir, 'named-link');
    symlinkSync(outside, named);
    expect((await collectEpubs([named])).map((src) => src.name)).toEqual([join(named, 'far.epub')]);
  });

  // a name that is not UTF-8 must not be read back as another name, "not found"
  it('imports a file whose name is not UTF-8', async () => {
    const folder = join(dir, 'books');
    mkdirSync(folder);
    const raw = Buffer.concat([
      Buffer.from(`${folder}/bad-`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('-name.epub'),
    ]);
    writeFileSync(raw, makeEpub({ title: 'Latin-1 named' }));
    const sources = await collectEpubs([folder]);
    expect(sources.map((src) => src.name)).toEqual([join(folder, 'bad-\uFFFD\uFFFD-name.epub')]);
    expect(await importAll(deps(), sources)).toEqual({ added: 1, duplicate: 0, skipped: [], failed: [] });
  });

  it('reads and parses the next books while one is written, yet writes in order, one at a time', async () => {
    // the same bytes twice in a row and the same metadata twice in a row: parsed side by side, the
    // second of each must still be a duplicate, as in a loop over the files
    const { makeEpub } = await import('@readlib/epub/testing');
    const one = makeEpub({ title: 'Lookahead', creators: ['A. Writer'], publisher: 'P' });
    const sameMeta = makeEpub({
      title: 'Lookahead',
      creators: ['A. Writer'],
      publisher: 'P',
      chapters: [{ title: 'Other' }],
    });
    const events: string[] = [];
    const source = (name: string, bytes: () => Buffer) => ({
      name,
      load: async () => {
        events.push(`load ${name}`);
        return bytes();
      },
    });
    const sources = [
      source('a.epub', () => one),
      source('b.epub', () => one),
      source('c.epub', () => sameMeta),
      source('d.epub', () => {
        throw new Error('unreadable');
      }),
      source('e.epub', () => makeEpub({ title: 'Last' })),
    ];
    const progress = { start() {}, tick: () => events.push('written'), done() {} };
    const s = await importAll(deps(), sources, { progress });
    expect(s).toEqual({
      added: 2,
      duplicate: 2,
      skipped: [
        { file: 'b.epub', of: expect.stringMatching(/^b_/), why: 'same-file' },
        { file: 'c.epub', of: expect.stringMatching(/^b_/), why: 'same-title-author-publisher' },
      ],
      failed: [{ file: 'd.epub', reason: 'unreadable' }],
    });
    // two books ahead of the one being written, never more
    expect(events.slice(0, 4)).toEqual(['load a.epub', 'load b.epub', 'load c.epub', 'written']);
    expect(events.filter((e) => e === 'written')).toHaveLength(5);
    expect(await countBooks(h.db)).toBe(2);
  });

  it('assigns the --category given, creating it when new', async () => {
    const s = await importAll(deps(), await collectEpubs([join(REAL_EPUB_DIR, 'alice.epub')]), {
      category: 'Fairy Tales',
    });
    expect(s.added).toBe(1);
    const row = await h.db
      .selectFrom('books')
      .innerJoin('categories', 'categories.id', 'books.category_id')
      .select('categories.name')
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Fairy Tales');
  });

  it('builds the demo catalogue: real and generated books, Latin and CJK, with and without covers', async () => {
    const inputs = await demoInputs();
    const s = await importAll(deps(), inputs);
    expect(s.failed).toEqual([]);
    expect(s.added).toBeGreaterThanOrEqual(28);
    const titles = await h.db
      .selectFrom('books')
      .select(['title', 'cover_path', 'file_name', 'id'])
      .execute();
    expect(titles.map((t) => t.title)).toEqual(
      expect.arrayContaining([
        '红楼梦',
        '羅生門',
        "Alice's Adventures in Wonderland",
        'Live システムマニュアル',
      ]),
    );
    expect(titles.some((t) => t.cover_path === '')).toBe(true);
    expect(titles.some((t) => t.cover_path !== '')).toBe(true);
    const dream = titles.find((t) => t.title === '红楼梦')!;
    expect((await findBookByFileName(h.db, dream.file_name))?.category_name).toBe('Literature');
    expect((await findToc(h.db, dream.id)).map((e) => e.label)[0]).toBe('第一回 甄士隐梦幻识通灵');
  });
});

// two imports of the same folder at once (two terminals, an overlapping cron run) must not leave books
// in the catalogue without their files, which running it again would skip as duplicates
describe('two import processes over the same books at once', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-import-race-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('add each book once, every one with its files; running again finds duplicates only', async () => {
    const folder = join(dir, 'books');
    mkdirSync(folder);
    const n = 60;
    for (let i = 0; i < n; i++)
      writeFileSync(
        join(folder, `b${String(i).padStart(2, '0')}.epub`),
        makeEpub({ title: `Twin ${i}`, identifier: `urn:t:${i}`, cover: true }),
      );
    expect((await runCli(dir, ['migrate'])).code).toBe(0);
    const [a, b] = await Promise.all([runCli(dir, ['import', folder]), runCli(dir, ['import', folder])]);
    const h = createDb({ dialect: 'sqlite', file: join(dir, 'library.db') });
    try {
      const rows = await h.db
        .selectFrom('books')
        .select(['file_name', 'file_path', 'unzip_path', 'root_file', 'cover_path'])
        .execute();
      expect(rows).toHaveLength(n);
      const store = join(dir, 'store');
      const broken = rows.filter(
        (r) =>
          !existsSync(join(store, r.file_path)) ||
          !existsSync(join(store, r.unzip_path, r.root_file)) ||
          !r.cover_path ||
          !existsSync(join(store, r.cover_path)),
      );
      expect(broken.map((r) => r.file_name)).toEqual([]);
    } finally {
      await h.destroy();
    }
    // neither reported a failure: the one that came second found the book there, whole
    expect([a, b].map((r) => [r.code, r.out.match(/\d+ failed/)?.[0]])).toEqual([
      [0, '0 failed'],
      [0, '0 failed'],
    ]);
    const again = await runCli(dir, ['import', folder]);
    expect(again.out).toMatch(new RegExp(`: 0 added, ${n} skipped as duplicate, 0 failed`));
    // and says which files, as what
    expect(again.out.match(/^ {2}skipped .+: the same file as b_[0-9a-f]{16}$/gm)).toHaveLength(n);
  }, 120_000);
});
