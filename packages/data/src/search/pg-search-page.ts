import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../database.js';
import { type BookSummaryRow, selectBookSummaries } from '../repositories/book-summary.repository.js';
import { prepareOnPostgres } from '../statement-marks.js';
import type { MatchOn } from './match.js';

/** A part's condition on a books row, in the form for where it is tested (MatchOn). */
export type PagePart = (on: MatchOn) => Expression<SqlBool>;

/** Books read in id order per wanted id by the first walk: a condition true of 10% fills a page. */
const WALK_FIRST = 10;
/** Matches read from the index before a keyword counts as common (all of them when fewer). */
const PROBE = 500;
/**
 * Books read in id order per wanted id by the second walk: a condition true of 1% fills a page. A
 * longer walk serves rarer conditions but costs more when it falls short, and the probe has read their
 * matches already: at 100k books (bench:search) 100 put the 99th percentile lowest of 50 to 200.
 */
const WALK_MORE = 100;
/**
 * The first walk found this share of the page or more: the condition seems to hold for 1% of the
 * books or more (2 in 200 for a page of 20), which the second walk, ten times as long, would fill the
 * page with. It goes before the probe then: a walk reads a book in about a third of the time the
 * probe reads a match, and the probe reads PROBE of them before it knows.
 */
const COMMON_SHARE = 1 / 10;

/**
 * PostgreSQL: a page of books in one statement, summaries included. `parts` are conditions on a
 * books row in the order of the page: the books satisfying the first, by id, then those satisfying
 * the second, by id, and so on (a later part's condition excludes the books of the earlier ones). A
 * part is read only when the ones before it hold fewer books than the page needs (a One-Time Filter
 * on its branch), so a page that the title matches fill reads nothing else.
 *
 * Its plan is the same for every keyword: the conditions' values are out of the planner's sight
 * (MatchOn `probe`) and its numbers are written in the text. A first page (most searches) is then a
 * prepared statement whose plan PostgreSQL keeps after five executions (its generic plan costs what
 * the custom ones did), where planning it again took as long as running it for a common keyword.
 * Later pages are not prepared: their text holds their offset.
 */
export async function pgSearchPage(
  db: Kysely<Database>,
  parts: readonly PagePart[],
  page: { offset: number; limit: number },
): Promise<BookSummaryRow[]> {
  if (parts.length === 0) return [];
  const query = selectBookSummaries(db)
    .innerJoin(pgPageIdsSql(parts, page).as('page'), 'page.id', 'books.id')
    .orderBy('page.part')
    .orderBy('page.id')
    .compile();
  if (page.offset === 0) prepareOnPostgres(query.sql);
  return (await db.executeQuery(query)).rows;
}

/** The ids of the page and the part each is from (`pgSearchPage`), as a subquery. */
export function pgPageIdsSql(parts: readonly PagePart[], page: { offset: number; limit: number }) {
  const want = page.offset + page.limit;
  const name = (i: number, what = '') => sql.table(`part${i}${what}`);
  const before = (i: number) =>
    sql.join(
      parts.slice(0, i).map((_, j) => sql`(select count(*) from ${name(j)})`),
      sql` + `,
    );
  const branches = parts.map((_, i) =>
    i === 0
      ? sql`select id, ${sql.lit(i)} as part from ${name(i)}`
      : sql`select id, ${sql.lit(i)} as part from ${name(i)} where ${before(i)} < ${sql.lit(want)}`,
  );
  return sql<{
    id: number;
    part: number;
  }>`(with ${sql.join(parts.map((cond, i) => firstIds(cond, want, (w) => name(i, w))))}
    select id, part from (${sql.join(branches, sql` union all `)}) u
    order by part, id limit ${sql.lit(page.limit)} offset ${sql.lit(page.offset)})`;
}

/**
 * The CTEs of the first `want` ids of the books satisfying `cond`, by id, named `name('')`. Neither
 * way of reading them is right for every keyword: walking the primary key in id order fills a page
 * within a few hundred books when the substring is common and reads the whole table when it is rare;
 * the trigram or gram index reads the matches, which is the reverse. The planner's estimates do not
 * tell them apart reliably (one title of a series in the statistics' sample made `money 11` a 1%
 * substring: the walk it chose read 84k books for 24 matches), so the statement decides by
 * what it reads, each step only when the previous one did not answer (CASE evaluates its branches in
 * order, and PostgreSQL reads a materialized CTE only as far as it is read):
 * 1. walk WALK_FIRST books per wanted id: a common substring fills the page here;
 * 2. when that walk found COMMON_SHARE of the page, walk WALK_MORE books per wanted id;
 * 3. read up to PROBE matches from the index: fewer means all of them are known, and the page is
 *    theirs;
 * 4. else walk WALK_MORE books per wanted id (if step 2 did not);
 * 5. else (matches clustered at high ids) sort every match.
 */
function firstIds(cond: PagePart, want: number, name: (what: string) => RawBuilder<unknown>) {
  // past 2^53 a budget would not fit PostgreSQL's bigint (a page near the contract's largest)
  const budget = (perId: number) => Math.min(want * perId, Number.MAX_SAFE_INTEGER);
  const walk = (books: number) =>
    sql`select id from (select id, ${cond('row')} as hit from books order by id limit ${sql.lit(books)}) w
      where hit order by id limit ${sql.lit(want)}`;
  const [all, probe, walk1, walk2, how] = ['_all', '_probe', '_walk1', '_walk2', '_how'].map(name);
  return sql`${all} as materialized (select id from books where ${cond('probe')}),
    ${walk1} as materialized (${walk(budget(WALK_FIRST))}),
    ${probe} as materialized (select count(*) as n from (select from ${all} limit ${sql.lit(PROBE)}) p),
    ${walk2} as materialized (${walk(budget(WALK_MORE))}),
    ${how} as materialized (select case
      when (select count(*) from ${walk1}) = ${sql.lit(want)} then 1
      when (select count(*) from ${walk1}) >= ${sql.lit(Math.ceil(want * COMMON_SHARE))}
        and (select count(*) from ${walk2}) = ${sql.lit(want)} then 2
      when (select n from ${probe}) < ${sql.lit(PROBE)} then 0
      when (select count(*) from ${walk2}) = ${sql.lit(want)} then 2
      else 0 end as step),
    ${name('')} as materialized (select id from (
      select id from (select id from ${all} order by id limit ${sql.lit(want)}) a where (select step from ${how}) = 0
      union all select id from ${walk1} where (select step from ${how}) = 1
      union all select id from ${walk2} where (select step from ${how}) = 2) f)`;
}
