import { type Kysely, sql } from 'kysely';
import type { Database } from './database.js';
import { dialectOf } from './dialect.js';

/**
 * ANALYZE for the query planner. On SQLite it keeps the row counts (`sqlite_stat1`) and drops the
 * value samples (`sqlite_stat4`, which better-sqlite3's build collects). With samples, SQLite plans a
 * join, or a query with a choice of indexes, that compares an indexed column with a bound parameter
 * by that parameter's value, so the statement is prepared again whenever the parameter is bound: on
 * every execution of a cached statement, which costs more than running our short indexed reads
 * (BENCHMARKS.md has the figures). Our queries compare ids and dates, where samples do not change the plan.
 */
export async function analyze(db: Kysely<Database>, table?: string): Promise<void> {
  await (table ? sql`analyze ${sql.table(table)}` : sql`analyze`).execute(db);
  await dropPlannerSamples(db);
}

/** Removes SQLite's value samples (see analyze); also those a hand-run ANALYZE left. */
export async function dropPlannerSamples(db: Kysely<Database>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from sqlite_schema where type = 'table' and name = 'sqlite_stat4'`.execute(db);
  if (!rows[0]?.n) return;
  await sql`delete from sqlite_stat4`.execute(db);
  // the connection reloads the statistics it planned with (others do at their next schema load)
  await sql`analyze sqlite_schema`.execute(db);
}
