import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@readlib/data';
import { testDialects } from '@readlib/data/testing';
import { FileStore } from '@readlib/epub';
import { makeEpub } from '@readlib/epub/testing';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  commitImport,
  createAdminBook,
  type ImportResult,
  type IngestDeps,
  type PreparedImport,
  prepareImport,
} from '../src/admin/ingest.service.js';
import { PublicUrls } from '../src/urls.js';

const dialects = await testDialects();

// Two imports of the same folder at once (two terminals, an overlapping cron run) must leave every book
// with its files: an import that removed "leftover" files before storing, or again when its insert lost
// the race, would delete what the other one had stored or just committed, and a re-run would skip those
// books as duplicates.
describe.each(dialects)('imports of the same books at once on $name', (dialect) => {
  let h: Awaited<ReturnType<typeof dialect.create>>;
  let dir: string;
  let store: FileStore;
  beforeEach(async () => {
    h = await dialect.create();
    dir = mkdtempSync(join(tmpdir(), 'readlib-ingest-race-'));
    store = new FileStore(join(dir, 'store'));
  });
  afterEach(async () => {
    await h.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  const deps = (db: Kysely<Database> = h.db): IngestDeps => ({ db, store, limits: {} });

  const books = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      makeEpub({
        title: `Race ${i}`,
        creators: [`Author ${i}`],
        cover: true,
        chapters: [{ title: `One of ${i}` }, { title: `Two of ${i}` }],
      }),
    );

  /** Every book row has its files: the archive, the unpacked folder with its package file, the cover. */
  const expectEveryRowWhole = async () => {
    const rows = await h.db
      .selectFrom('books')
      .select(['file_name', 'file_path', 'unzip_path', 'root_file', 'cover_path'])
      .execute();
    const broken = rows.filter(
      (r) =>
        !existsSync(join(store.root, r.file_path)) ||
        !existsSync(join(store.root, r.unzip_path, r.root_file)) ||
        !r.cover_path ||
        !existsSync(join(store.root, r.cover_path)),
    );
    expect(broken.map((r) => r.file_name)).toEqual([]);
    return rows.length;
  };

  /** An import's loop: one book after the other, failures kept with the results. */
  const importEach = async (prepared: PreparedImport[], db?: Kysely<Database>) => {
    const out: Array<ImportResult | Error> = [];
    for (const p of prepared) out.push(await commitImport(deps(db), p).catch((err: Error) => err));
    return out;
  };

  it('two imports racing over the same books add each once, every one with its files; a re-run finds duplicates only', async () => {
    const prepared = await Promise.all(books(40).map((b) => prepareImport(deps(), b)));
    // the second starts a few books later, then both race over the rest
    const [a, b] = await Promise.all([
      importEach(prepared),
      importEach([...prepared.slice(5), ...prepared.slice(0, 5)]),
    ]);
    expect(await expectEveryRowWhole()).toBe(40);
    const results = [...a, ...b];
    expect(results.filter((r) => r instanceof Error)).toEqual([]);
    expect(results.filter((r) => (r as ImportResult).status === 'added')).toHaveLength(40);
    const again = await importEach(prepared);
    expect(again.map((r) => (r as ImportResult).status)).toEqual(prepared.map(() => 'duplicate'));
    expect(await expectEveryRowWhole()).toBe(40);
  });

  /**
   * A database whose next transaction (the import's insert, once its files are in place) first lets
   * `interloper` run to its end: the other writer commits the same fileName just before.
   */
  const interrupted = (interloper: () => Promise<unknown>): Kysely<Database> => {
    let pending: (() => Promise<unknown>) | undefined = interloper;
    return new Proxy(h.db, {
      get(target, key, receiver) {
        if (key !== 'transaction' || !pending) {
          const value = Reflect.get(target, key, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        }
        const run = pending;
        pending = undefined;
        return () => ({
          execute: async (work: Parameters<ReturnType<Kysely<Database>['transaction']>['execute']>[0]) => {
            await run();
            return target.transaction().execute(work);
          },
        });
      },
    });
  };

  it('an import that loses the insert to another import of the same bytes leaves the winner its files', async () => {
    const [p] = await Promise.all(books(1).map((b) => prepareImport(deps(), b)));
    const other = () => commitImport(deps(), p!);
    const res = await commitImport(deps(interrupted(other)), p!);
    expect(res).toMatchObject({ status: 'duplicate', fileName: p!.fileName });
    expect(await expectEveryRowWhole()).toBe(1);
  });

  it('an import that loses the insert to an admin create of its fileName leaves the created book its files', async () => {
    const [p] = await Promise.all(books(1).map((b) => prepareImport(deps(), b)));
    const fileName = p!.fileName;
    const urls = new PublicUrls('http://localhost:3000');
    // an operator creates a book naming the files the import has just put in place
    const create = () =>
      createAdminBook(
        { ...deps(), urls, graceMinutes: 60 },
        {
          fileName,
          title: 'Created by hand',
          filePath: `epub/${fileName}.epub`,
          unzipPath: `unzip/${fileName}`,
          rootFile: p!.parsed.rootFile,
          coverPath: `img/${fileName}.png`,
        },
      );
    const res = await commitImport(deps(interrupted(create)), p!);
    expect(res.status).toBe('duplicate');
    expect(await expectEveryRowWhole()).toBe(1);
    const row = await h.db.selectFrom('books').select('title').executeTakeFirstOrThrow();
    expect(row.title).toBe('Created by hand');
  });

  // README: "an interrupted run leaves only whole books and running it again resumes"
  it('running again completes what an interrupted run left: a whole book without its row, a book half removed', async () => {
    const [whole, half] = await Promise.all(books(2).map((b) => prepareImport(deps(), b)));
    // killed between the files and the row
    await store.putBook(whole!.fileName, whole!.input);
    // killed amid a removal: the epub goes first, then the unpacked folder file by file
    await store.putBook(half!.fileName, half!.input);
    const { epub, unzip } = store.paths(half!.fileName);
    rmSync(epub);
    rmSync(join(unzip, half!.parsed.rootFile));
    const results = await importEach([whole!, half!]);
    expect(results.map((r) => (r as ImportResult).status)).toEqual(['added', 'added']);
    expect(await expectEveryRowWhole()).toBe(2);
  });
});
