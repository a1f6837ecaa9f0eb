import { BOOK_LIST_SORT_FIELDS } from '@readlib/contracts';
import SQLite from 'better-sqlite3';
import { type CompiledQuery, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  analyze,
  type DbConfig,
  type DbHandle,
  insertBook,
  listBooksAdmin,
  logSearches,
  saveShelf,
  searchFacet,
  shelfEntries,
  topKeywordCounts,
  topKeywords,
  upsertUser,
} from '../src/index.js';
import { pgFieldMatch } from '../src/search/match.js';
import { SqliteReadWorker } from '../src/sqlite/read-worker.js';
import { sampleBook, testDialects, testMigrator } from '../src/testing/index.js';

// The plans SQLite picks for hot reads and the reports. A plan change does not break any
// answer, only the speed at a million books, so it is checked here rather than left to benchmarks.
const dialects = await testDialects();
const sqlite = dialects.find((d) => d.name === 'sqlite')!;

interface Run {
  sql: string;
  args: unknown[];
  db: SQLite.Database;
}

/** Every statement `work` runs, with its arguments and its connection. */
async function statementsOf(work: () => Promise<unknown>): Promise<Run[]> {
  const proto = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1'));
  const runs: Run[] = [];
  const originals = new Map<string, (...a: unknown[]) => unknown>();
  for (const method of ['all', 'get', 'run', 'iterate']) {
    const original = proto[method];
    originals.set(method, original);
    proto[method] = function recorded(
      this: { source: string; database: SQLite.Database },
      ...args: unknown[]
    ) {
      runs.push({ sql: this.source, args, db: this.database });
      return original.apply(this, args);
    };
  }
  try {
    await work();
  } finally {
    for (const [method, original] of originals) proto[method] = original;
  }
  return runs;
}

/** The long reads `work` hands the read worker (longRead), each planned on a connection of `file`. */
async function longReadPlans(
  file: string,
  work: () => Promise<unknown>,
): Promise<Array<{ sql: string; plan: string }>> {
  const proto = SqliteReadWorker.prototype;
  const original = proto.all;
  const sent: CompiledQuery[] = [];
  proto.all = function recorded(this: SqliteReadWorker, query) {
    sent.push(query);
    return original.call(this, query);
  } as typeof original;
  try {
    await work();
  } finally {
    proto.all = original;
  }
  const db = new SQLite(file, { readonly: true });
  try {
    return sent.map((q) => ({ sql: q.sql, plan: planOf({ sql: q.sql, args: [...q.parameters], db }) }));
  } finally {
    db.close();
  }
}

const fileOf = (config: DbConfig) => (config.dialect === 'sqlite' ? config.file : '');

/** The steps of the plan SQLite makes for a statement, each with its place in the plan's tree. */
const planSteps = (r: Run) =>
  r.db.prepare(`explain query plan ${r.sql}`).all(...(r.args as [])) as Array<{
    id: number;
    parent: number;
    detail: string;
  }>;

const planOf = (r: Run) =>
  planSteps(r)
    .map((p) => p.detail)
    .join(' | ');

/** A plan's steps under its one LIST SUBQUERY, and the others. */
function subqueryPlan(r: Run): { ids: string[]; rest: string[] } {
  const steps = planSteps(r);
  const list = steps.find((s) => s.detail.startsWith('LIST SUBQUERY'))!;
  const under = new Set([list.id]);
  for (const s of steps) if (under.has(s.parent)) under.add(s.id);
  return {
    ids: steps.filter((s) => s.id !== list.id && under.has(s.id)).map((s) => s.detail),
    rest: steps.filter((s) => !under.has(s.id)).map((s) => s.detail),
  };
}

describe('query plans on SQLite', () => {
  let h: DbHandle & { config: DbConfig };
  beforeEach(async () => {
    h = await sqlite.create();
  });
  afterEach(async () => h.destroy());

  it("reads a user's shelf from its index alone, newest first, without sorting", async () => {
    const user = await upsertUser(h.db, { openId: 'u1', platform: 'wx' }, 1);
    for (let i = 0; i < 3; i++) {
      const b = await insertBook(h.db, sampleBook(), []);
      await saveShelf(h.db, user.id, b.id, 10 + i);
    }
    const [read] = (await statementsOf(() => shelfEntries(h.db, user.id))).filter((r) =>
      r.sql.includes('shelf_entries'),
    );
    expect(planOf(read!)).toMatch(/USING COVERING INDEX shelf_user_created_book_idx \(user_id=\?\)$/);
  });

  it("pages the admin list in every sort by walking an index alone for the page's ids, never sorting the catalogue", async () => {
    for (let i = 0; i < 3; i++) await insertBook(h.db, sampleBook({ language: ['en', 'zh', 'ja'][i]! }), []);
    for (const field of BOOK_LIST_SORT_FIELDS)
      for (const dir of ['asc', 'desc'] as const) {
        const runs = await statementsOf(() =>
          listBooksAdmin(h.db, {}, { field, dir }, { offset: 0, limit: 20 }),
        );
        const page = runs.find((r) => /from "books"/.test(r.sql) && r.sql.includes('order by'))!;
        const { ids, rest } = subqueryPlan(page);
        // the ids from a covering index in the sort's order (an OFFSET steps over index entries, not
        // rows); the page's own rows, at most a page of them, are then sorted as they are read by id.
        // In category order: the categories by name (their unique index), each one's books by id.
        const walk =
          field === 'category'
            ? [
                'SCAN categories USING COVERING INDEX sqlite_autoindex_categories_1',
                'SEARCH books USING COVERING INDEX books_category_idx (category_id=?)',
              ]
            : [expect.stringMatching(/^SCAN books USING COVERING INDEX /)];
        expect([field, dir, ids]).toEqual([field, dir, walk]);
        expect(rest).toContain('SEARCH books USING INTEGER PRIMARY KEY (rowid=?)');
      }
  });

  it("counts a window's top keywords from the keyword index alone, without grouping or sorting its searches", async () => {
    const day = 86_400_000;
    const now = 100 * day;
    const keywordPlan = async () => {
      const reads = await longReadPlans(fileOf(h.config), () => topKeywords(h.db, now - 30 * day, 100, now));
      return reads.find((r) => r.sql.includes('search_log'))!.plan;
    };
    // an upgrade: 60 days of searches (40 keywords by 50 readers) analyzed before the index existed
    const m = testMigrator(h.db);
    await m.migrateTo('2026-11-26T2200-language-sort-index');
    const entries = Array.from({ length: 3000 }, (_, i) => ({
      keyword: `word ${i % 40}`,
      openId: `reader ${i % 50}`,
      at: now - 60 * day + i * 1700_000,
    }));
    await logSearches(h.db, entries);
    await analyze(h.db);
    expect(await keywordPlan()).toContain('TEMP B-TREE FOR GROUP BY');

    await m.migrateToLatest();
    const plan = await keywordPlan();
    expect(plan).toContain('USING COVERING INDEX search_log_keyword_idx');
    expect(plan).not.toContain('TEMP B-TREE FOR GROUP BY');
    // the counts alone (top searches) sort nothing per keyword: no distinct searchers to find
    const counts = await longReadPlans(fileOf(h.config), () =>
      topKeywordCounts(h.db, now - 30 * day, 10, now),
    );
    const countPlan = counts.find((r) => r.sql.includes('search_log'))!.plan;
    expect(countPlan).toContain('USING COVERING INDEX search_log_keyword_idx');
    expect(countPlan).not.toMatch(/TEMP B-TREE FOR (GROUP BY|count\(DISTINCT\))/);
    expect(plan).toContain('TEMP B-TREE FOR count(DISTINCT)');
  });

  it('matches facet values through the substring index, not by walking every value in book order', async () => {
    await insertBook(h.db, sampleBook({ author: 'Ursula Le Guin' }), []);
    const runs = await statementsOf(() => searchFacet(h.db, 'guin', 'author'));
    const plan = planOf(runs.find((r) => r.sql.includes('book_values'))!);
    expect(plan).toContain('book_value_fts');
    expect(plan).not.toContain('book_values_popular_idx');
  });
});

// PostgreSQL matches `coalesce(<col>_nfkc, <col>) ilike ...`: only that exact expression has a trigram
// index (2026-11-23T1200-nfkc-search); a query spelled otherwise would scan every book.
const postgres = dialects.find((d) => d.name === 'postgres');
describe.skipIf(!postgres)('query plans on PostgreSQL', () => {
  let h: DbHandle;
  beforeEach(async () => {
    h = await postgres!.create();
  });
  afterEach(async () => h.destroy());

  it('serves 3+ character keywords from the trigram indexes of the folded text', async () => {
    await insertBook(h.db, sampleBook({ title: 'ＳＱＬ入门', author: 'Ursula Le Guin' }), []);
    const plan = await h.db.connection().execute(async (conn) => {
      // on a table this small a scan is cheaper; forbidding it shows whether an index can serve
      await sql`set enable_seqscan = off`.execute(conn);
      try {
        const { rows } = await sql<{
          'QUERY PLAN': string;
        }>`explain select id from books where ${pgFieldMatch('sql入', ['title', 'author'])}`.execute(conn);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await sql`reset enable_seqscan`.execute(conn);
      }
    });
    expect(plan).toContain('books_title_key_trgm');
    expect(plan).toContain('books_author_key_trgm');
    expect(plan).not.toContain('Seq Scan');
  });
});
