import { readFile } from 'node:fs/promises';
import { AFFINITY_PERIOD_MS, PublicUrls, READER_VERSIONS, toBookSummary } from '@readlib/catalog';
import { type BookSummary, type RouteSpec, readerRoutes } from '@readlib/contracts';
import * as data from '@readlib/data';
import {
  type BookRow,
  deleteBook,
  ensureCategory,
  findBookByFileName,
  insertBook,
  logSearch,
  logSearches,
  recordView,
  recordViews,
  removeShelf,
  saveRating,
  saveShelf,
  updateBook,
  upsertUser,
} from '@readlib/data';
import { sampleBook } from '@readlib/data/testing';
import type { App } from '@readlib/http';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index.js';
import { dialects, type Harness, harness } from './helpers.js';

/**
 * Every write of the data layer that changes what a reader can be shown, made as another process
 * makes it (straight through the data layer: the admin API, a CLI import, another replica). A write
 * that moves no version a kept value depends on leaves the kept answers behind the fresh ones, and
 * the comparison below fails.
 */
const WRITES: Record<string, (w: World) => Promise<unknown>> = {
  insertBook: async (w) => {
    w.books.push(
      await insertBook(w.db, sampleBook({ category_id: 2, author: 'Ann Ode', publisher: 'Quire' }), []),
    );
  },
  'updateBook (title)': (w) => updateBook(w.db, w.books[0]!.file_name, { title: `Renamed ${w.step}` }),
  'updateBook (author, publisher)': (w) =>
    updateBook(w.db, w.books[1]!.file_name, { author: `Moved Author ${w.step}`, publisher: 'Other House' }),
  'updateBook (category)': (w) => updateBook(w.db, w.books[2]!.file_name, { category_id: 3 }),
  'updateBook (cover)': (w) =>
    updateBook(w.db, w.books[3]!.file_name, { cover_path: `img/new-${w.step}.png` }),
  deleteBook: async (w) => {
    const gone = w.books.splice(4, 1)[0]!;
    await deleteBook(w.db, gone.file_name);
  },
  ensureCategory: async (w) => {
    const c = await ensureCategory(w.db, `Fresh Shelf ${w.step}`);
    w.books.push(
      await insertBook(w.db, sampleBook({ category_id: c.id, title: `In a new category ${w.step}` }), []),
    );
  },
  'upsertUser (new)': async (w) => {
    await upsertUser(w.db, { openId: `late-${w.step}`, nickName: 'Late' }, w.now());
  },
  'upsertUser (nickname, avatar)': async (w) => {
    await upsertUser(
      w.db,
      { openId: 'u1', nickName: `Una ${w.step}`, avatarUrl: `http://a/${w.step}.png` },
      w.now(),
    );
  },
  recordView: async (w) => recordView(w.db, w.users.u2!, w.books[0]!.id, w.now()),
  // what the reader's detail writes: the views of a moment together
  recordViews: async (w) =>
    recordViews(w.db, [
      { userId: w.users.u1!, bookId: w.books[1]!.id, at: w.now() },
      { userId: w.users.u2!, bookId: w.books[1]!.id, at: w.now() },
    ]),
  saveRating: async (w) => saveRating(w.db, w.users.u1!, w.books[1]!.id, 1 + (w.step % 5), w.now()),
  saveShelf: async (w) => saveShelf(w.db, w.users.u2!, w.books[2]!.id, w.now()),
  removeShelf: async (w) => removeShelf(w.db, w.users.u1!, w.books[0]!.id),
  logSearch: async (w) => logSearch(w.db, `ode ${w.step % 2}`, 'u2', w.now()),
  // what the reader's search writes: several searches together
  logSearches: async (w) =>
    logSearches(w.db, [
      { keyword: `ode ${w.step % 2}`, openId: 'u2', at: w.now() },
      { keyword: 'ode', openId: null, at: w.now() },
    ]),
};

/**
 * Writes of the data layer no reader answer depends on (operators, uploads, the demo's state), or that
 * rebuild what the writes above keep in step, or that move versions themselves, or maintain the
 * database. A new write function of the data layer must be listed here or above.
 */
const NOT_SHOWN_TO_READERS = [
  'analyze',
  'bumpCatalogVersion',
  'bumpFacetVersion',
  'bumpProfileVersion',
  // opens a database, writes nothing
  'createDb',
  'createOperator',
  'createUpload',
  'deleteUpload',
  'dropPlannerSamples',
  'insertToc',
  'migrateToLatest',
  'moveRolledUpViews',
  'optimizeSearchIndexes',
  'rebuildActivityStats',
  'rebuildBookValues',
  'rebuildCategoryCounts',
  'rebuildViewDays',
  'resetOperatorPassword',
  'rollUpViewDays',
  'setDemoState',
];

/** Names of the data layer's exports that write: what they start with says so. */
const WRITE_NAME =
  /^(insert|update|delete|save|remove|record|log|upsert|create|ensure|bump|rebuild|reset|roll|move|set|drop|analyze|optimize|migrate)([A-Z]|$)/;

interface World {
  db: data.DbHandle['db'];
  books: BookRow[];
  users: Record<string, number>;
  step: number;
  now: () => number;
}

const CALLERS = [undefined, 'u1', 'u2', 'never-registered'];

/** The reader's GET routes answered from what it keeps, and the queries each is asked with. */
function readsOf(w: World): Record<string, Array<Record<string, string>>> {
  const files = w.books.slice(0, 6).map((b) => b.file_name);
  const byCaller = (extra: (openId: string | undefined) => Record<string, string>) =>
    CALLERS.map((openId) => ({ ...(openId ? { openId } : {}), ...extra(openId) }));
  return {
    getHome: byCaller(() => ({})),
    getRecommendBatch: [{}],
    getFreeReadBatch: [{}],
    getHotBookBatch: [{}],
    getHotSearch: [{}],
    listCategories: [{}],
    searchBooks: [{ keyword: 'ode' }, { keyword: 'Author' }, { keyword: 'Fresh' }, { keyword: '传' }],
    searchList: [{ category: 'History' }, { categoryId: '2' }, { author: 'Ann' }, { publisher: 'House' }],
    getBookDetail: files.flatMap((fileName) => byCaller(() => ({ fileName }))),
    getBookContents: files.map((fileName) => ({ fileName })),
    getShelf: [...byCaller(() => ({})).filter((q) => q.openId), { openId: 'u1', fileName: files[0]! }],
    getUserDay: [{ openId: 'u1' }, { openId: 'u2' }],
    ...opdsReads(files),
  };
}

/** The OPDS feeds (every route under /opds), each asked as an e-reader app would. */
function opdsReads(files: string[]): Record<string, Array<Record<string, string>>> {
  const byQuery: Record<string, Array<Record<string, string>>> = {
    OpdsPageQuery: [{}, { page: '2' }],
    OpdsCategoryQuery: [{ id: '2' }, { id: '3' }],
    OpdsNameQuery: [{ name: 'Author 1' }, { name: 'Odeon House' }],
    OpdsSearchQuery: [{ query: 'ode' }],
    OpdsPublicationQuery: files.slice(0, 3).map((fileName) => ({ fileName })),
  };
  return Object.fromEntries(
    Object.entries(readerRoutes as Record<string, RouteSpec>)
      .filter(([, spec]) => spec.url.startsWith('/opds'))
      .map(([id, spec]) => [
        id,
        spec.querystring === undefined ? [{}] : byQuery[spec.querystring as string]!,
      ]),
  );
}

/** GET routes not compared: they answer from no kept value (health) or call the login platforms. */
const NOT_COMPARED = ['health', 'ready', 'getWechatOpenId', 'getPayPlatformOpenId', 'getAlipayOpenId'];

/** Random draws: each book drawn must be the book as it is now, and as many as fresh draws. */
const DRAWN: Record<string, (data: unknown) => BookSummary[][]> = {
  // hotBook too: the most viewed books, topped up at random when fewer than four were viewed
  getHome: (d) => {
    const home = d as { recommend: BookSummary[]; freeRead: BookSummary[]; hotBook: BookSummary[] };
    return [home.recommend, home.freeRead, home.hotBook];
  },
  getRecommendBatch: (d) => [d as BookSummary[]],
  getFreeReadBatch: (d) => [d as BookSummary[]],
  getHotBookBatch: (d) => [d as BookSummary[]],
};

describe.each(dialects)(
  'kept answers equal fresh ones after every write, for every caller, on $name',
  (dialect) => {
    let t: Harness;
    let fresh: App;
    afterEach(async () => {
      await fresh?.close();
      await t?.close();
    });

    it('lists every write of the data layer, shown to readers or not', () => {
      const writes = Object.keys(data)
        .filter(
          (name) => typeof (data as Record<string, unknown>)[name] === 'function' && WRITE_NAME.test(name),
        )
        .sort();
      const listed = new Set([...Object.keys(WRITES).map((k) => k.split(' ')[0]!), ...NOT_SHOWN_TO_READERS]);
      expect(writes.filter((name) => !listed.has(name))).toEqual([]);
    });

    it('docs/architecture/caches.md lists every keep of a running reader with the versions it depends on', async () => {
      t = await harness(dialect);
      fresh = await buildApp(t.config, { db: t.h.db, logger: false });
      const doc = await readFile(new URL('../../../docs/architecture/caches.md', import.meta.url), 'utf8');
      const table = doc.slice(doc.indexOf('## The keeps'), doc.indexOf('## Adding'));
      const documented = new Map<string, string[]>();
      for (const line of table.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| what'))) {
        const [what, , dependsOn] = line
          .split('|')
          .slice(1)
          .map((c) => c.trim());
        const versions = READER_VERSIONS.filter((v) =>
          new RegExp(`\\b${v}\\b`).test(dependsOn!.split(':')[0]!),
        );
        documented.set(what!.replace("book's category", 'book’s category'), versions);
      }
      const registered = new Map(
        t.app.readerKeeps.versions.keeps.map((k) => [k.name, [...k.dependsOn].sort()]),
      );
      expect(new Map([...documented].map(([k, v]) => [k, [...v].sort()]))).toEqual(registered);
    });

    it('compares every GET route of the reader table, or says why not', () => {
      const gets = Object.entries(readerRoutes as Record<string, RouteSpec>)
        .filter(([, spec]) => spec.method === 'GET' && !spec.write)
        .map(([id]) => id)
        .sort();
      const compared = Object.keys(
        readsOf({ books: [], users: {}, step: 0, now: Date.now } as unknown as World),
      );
      expect(gets).toEqual([...compared, ...NOT_COMPARED].sort());
    });

    it('after each write, every read of the kept reader equals the same read of one that keeps nothing', {
      timeout: 240_000,
    }, async () => {
      t = await harness(dialect, { RATE_LIMIT_PER_MINUTE: '1000000' });
      fresh = await buildApp(t.config, { db: t.h.db, logger: false, now: () => t.clock.now, keep: false });
      const urls = new PublicUrls(t.config.publicBaseUrl);
      const w: World = { db: t.h.db, books: [], users: {}, step: 0, now: () => t.clock.now };
      for (let i = 0; i < 9; i++) {
        const book = sampleBook({
          category_id: 1 + (i % 3),
          author: `Author ${i % 4}`,
          publisher: i % 2 ? 'Odeon House' : '传奇出版社',
          title: i % 3 ? `Ode ${i}` : `传说 ${i}`,
        });
        w.books.push(
          await insertBook(t.h.db, book, [
            {
              ord: 1,
              entry_id: 'c1',
              nav_id: 'c1',
              pid: '',
              href: 'c1.xhtml',
              label: 'One',
              level: 0,
              text: 'OEBPS/c1.xhtml',
            },
          ]),
        );
      }
      for (const openId of ['u1', 'u2'])
        w.users[openId] = (await upsertUser(t.h.db, { openId, nickName: openId }, w.now())).id;
      // two readers with the same shelf (same book, same moment): answers alike but for whose shelf it is
      for (const u of ['u1', 'u2']) await saveShelf(t.h.db, w.users[u]!, w.books[0]!.id, w.now());
      await saveRating(t.h.db, w.users.u2!, w.books[0]!.id, 4, w.now());
      await recordView(t.h.db, w.users.u1!, w.books[1]!.id, w.now());

      const ask = async (app: App, url: string) => {
        const res = await app.inject({ method: 'GET', url });
        // a search's line commits right after its answer: the next read counts it
        await app.readerWrites.drain();
        const json = /json/.test(String(res.headers['content-type']));
        return { status: res.statusCode, body: json ? res.json() : res.body };
      };
      /**
       * An OPDS document carries the time it was built (its `updated`, `modified`): a kept one was built
       * earlier. Every time there that is no book's is that time, and is set aside.
       */
      const builtTimesAside = async (body: unknown) => {
        const rows = await t.h.db.selectFrom('books').select('updated_at').execute();
        const books = new Set(rows.map((r) => new Date(Number(r.updated_at)).toISOString()));
        return JSON.stringify(body).replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, (time) =>
          books.has(new Date(time).toISOString()) ? time : 'built',
        );
      };
      const current = async (s: BookSummary) => {
        const row = await findBookByFileName(t.h.db, s.fileName);
        return row ? toBookSummary(row, urls) : undefined;
      };
      const compareAll = async (after: string) => {
        // twice: the second round is answered from what the first kept
        for (const round of [1, 2]) {
          for (const [id, queries] of Object.entries(readsOf(w))) {
            const spec = (readerRoutes as Record<string, RouteSpec>)[id]!;
            for (const q of queries) {
              const url = `${spec.url}?${new URLSearchParams(q).toString()}`;
              // past every clock version's period: rankings lag writes by design, within it
              t.clock.now += AFFINITY_PERIOD_MS;
              const kept = await ask(t.app, url);
              const expected = await ask(fresh, url);
              const where = `after ${after}, round ${round}: GET ${url}`;
              expect(kept.status, where).toBe(expected.status);
              if (spec.url.startsWith('/opds')) {
                expect(await builtTimesAside(kept.body), where).toEqual(await builtTimesAside(expected.body));
                continue;
              }
              const draws = DRAWN[id];
              if (!draws || kept.status !== 200) {
                expect(kept.body, where).toEqual(expected.body);
                continue;
              }
              const keptDraws = draws(kept.body.data);
              const freshDraws = draws(expected.body.data);
              expect(
                keptDraws.map((books) => books.length),
                where,
              ).toEqual(freshDraws.map((books) => books.length));
              for (const book of keptDraws.flat()) expect(book, where).toEqual(await current(book));
              if (id === 'getHome') {
                const strip = (d: Record<string, unknown>) => ({
                  ...d,
                  recommend: [],
                  freeRead: [],
                  hotBook: [],
                });
                expect(strip(kept.body.data), where).toEqual(strip(expected.body.data));
              }
            }
          }
        }
      };

      await compareAll('the seed');
      for (const [name, write] of Object.entries(WRITES)) {
        w.step++;
        await write(w);
        await compareAll(name);
      }
    });
  },
);
