import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countBooks, type DbHandle, findBookByFileName, findToc } from '@readlib/data';
import { testDialects } from '@readlib/data/testing';
import { FileStore } from '@readlib/epub';
import { makeHostileZip } from '@readlib/epub/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectEpubs, importAll } from '../src/commands/import.command.js';
import { demoInputs, REAL_EPUB_DIR } from '../src/demo/demo-catalogue.js';

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
    expect(again).toEqual({ added: 0, duplicate: 8, failed: [] });
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
    expect(s).toEqual({ added: 2, duplicate: 2, failed: [{ file: 'd.epub', reason: 'unreadable' }] });
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
