import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DbHandle, insertBook, saveShelf, searchFacet, shelfEntries, upsertUser } from '../src/index.js';
import { sampleBook, testDialects } from '../src/testing/index.js';

// The plans SQLite picks for two hot reads (issue: performance). A plan change does not break any
// answer, only the speed at a million books, so it is checked here rather than left to benchmarks.
const sqlite = (await testDialects()).find((d) => d.name === 'sqlite')!;

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

  it('matches facet values through the substring index, not by walking every value in book order', async () => {
    await insertBook(h.db, sampleBook({ author: 'Ursula Le Guin' }), []);
    const runs = await statementsOf(() => searchFacet(h.db, 'guin', 'author'));
    const plan = planOf(runs.find((r) => r.sql.includes('book_values'))!);
    expect(plan).toContain('book_value_fts');
    expect(plan).not.toContain('book_values_popular_idx');
  });
});
