import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../database.js';

/** Books read in id order before a PostgreSQL page gives up walking and reads the match set instead. */
const PG_WALK_MIN = 2000;

/**
 * PostgreSQL: one page of the ids of the books satisfying `cond`, in id order. The planner cannot tell
 * from its statistics whether a substring is common: walking the primary key in id order is fastest
 * when it is (the page fills within a few hundred books) and reads the whole table when it is rare, and
 * the match set is the reverse. So the walk goes first, bounded to 100 books per wanted id
 * (enough for any condition true of 1% of the books), then the materialised match set.
 */
export async function pgPageIds(
  db: Kysely<Database>,
  cond: Expression<SqlBool>,
  page: { offset: number; limit: number },
): Promise<number[]> {
  const ids = async (q: { execute(db: Kysely<Database>): Promise<{ rows: Array<{ id: number }> }> }) =>
    (await q.execute(db)).rows.map((r) => Number(r.id));
  const want = page.offset + page.limit;
  // past 2^53 the budget would not fit PostgreSQL's bigint (a page near the contract's largest)
  const budget = Math.min(Math.max(PG_WALK_MIN, want * 100), Number.MAX_SAFE_INTEGER);
  const walked = await ids(
    sql<{ id: number }>`select id from (select id, ${cond} as hit from books order by id limit ${budget}) w
      where hit order by id limit ${want}`,
  );
  if (walked.length === want) return walked.slice(page.offset);
  return ids(
    sql<{ id: number }>`with m as materialized (select id from books where ${cond})
      select id from m order by id limit ${page.limit} offset ${page.offset}`,
  );
}
