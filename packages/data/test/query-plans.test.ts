import { BOOK_LIST_SORT_FIELDS } from '@readlib/contracts';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type DbHandle,
  insertBook,
  listBooksAdmin,
  saveShelf,
  searchFacet,
  shelfEntries,
  upsertUser,
} from '../src/index.js';
import { pgFieldMatch } from '../src/search/match.js';
import { sampleBook, testDialects } from '../src/testing/index.js';

// The plans SQLite picks for two hot reads. A plan change does not break any
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

const planOf = (r: Run) =>
  (r.db.prepare(`explain query plan ${r.sql}`).all(...(r.args as [])) as Array<{ detail: string }>)
    .map((p) => p.detail)
    .join(' | ');

describe('query plans on SQLite', () => {
  let h: DbHandle;
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

  it('pages the admin list in every sort by walking an index, never sorting the whole catalogue', async () => {
    for (let i = 0; i < 3; i++) await insertBook(h.db, sampleBook({ language: ['en', 'zh', 'ja'][i]! }), []);
    for (const field of BOOK_LIST_SORT_FIELDS)
      for (const dir of ['asc', 'desc'] as const) {
        const runs = await statementsOf(() =>
          listBooksAdmin(h.db, {}, { field, dir }, { offset: 0, limit: 20 }),
        );
        const page = runs.find((r) => /from "books"/.test(r.sql) && r.sql.includes('order by'))!;
        expect([field, dir, planOf(page)]).toEqual([field, dir, expect.not.stringContaining('TEMP B-TREE')]);
      }
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
