import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { analyze, type DbHandle, insertBook } from '../src/index.js';
import { migrateRacingDrops, sampleBook, testDialects } from '../src/testing/index.js';

const dialects = await testDialects();

/** rows of a SQLite statistics table for `table` */
async function statRows(h: DbHandle, stat: 'sqlite_stat1' | 'sqlite_stat4', table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from ${sql.table(stat)} where tbl = ${table}`.execute(h.db);
  return Number(rows[0]!.n);
}

// Planner statistics (packages/data/src/planner-statistics.ts says why SQLite's
// value samples are dropped): the same data-layer behaviour on each dialect.
describe.each(dialects)('planner statistics on $name', (dialect) => {
  let h: DbHandle & { config: { dialect: string; searchPath?: string } };
  const schema = () => (h.config.dialect === 'postgres' ? h.config.searchPath?.split(',')[0] : undefined);
  beforeEach(async () => {
    h = await dialect.create();
    for (let i = 0; i < 30; i++) await insertBook(h.db, sampleBook({ category_id: 1 + (i % 3) }), []);
  });
  afterEach(async () => h.destroy());

  it('analyze gives the planner the row counts of every table it names', async () => {
    await analyze(h.db);
    if (h.dialect === 'postgres') {
      const { rows } = await sql<{ n: number }>`
        select reltuples as n from pg_class
        where relname = 'books' and relnamespace = current_schema()::regnamespace`.execute(h.db);
      expect(Number(rows[0]!.n)).toBe(30);
      return;
    }
    const { rows } = await sql<{ stat: string }>`
      select stat from sqlite_stat1 where tbl = 'books' and idx = 'books_category_idx'`.execute(h.db);
    expect(rows[0]!.stat).toMatch(/^30 /);
  });

  it('on SQLite keeps no value samples, after analyze and after a deploy that follows a hand-run ANALYZE', async () => {
    if (h.dialect === 'postgres') {
      // PostgreSQL plans a statement once per bind and has no such table: analyze of one table only
      await expect(analyze(h.db, 'books')).resolves.toBeUndefined();
      return;
    }
    // the control: this SQLite build collects samples, so their absence below is the code's doing
    await sql`analyze`.execute(h.db);
    expect(await statRows(h, 'sqlite_stat4', 'books')).toBeGreaterThan(0);

    await analyze(h.db, 'books');
    expect(await statRows(h, 'sqlite_stat4', 'books')).toBe(0);
    expect(await statRows(h, 'sqlite_stat1', 'books')).toBeGreaterThan(0);

    await sql`analyze`.execute(h.db); // an operator's, by hand
    expect(await migrateRacingDrops(h.db, schema())).toEqual([]);
    const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_stat4`.execute(h.db);
    expect(rows[0]!.n).toBe(0);
    expect(await statRows(h, 'sqlite_stat1', 'books')).toBeGreaterThan(0);
  });
});
