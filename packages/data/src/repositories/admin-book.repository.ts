import type { BookListSortField } from '@readlib/contracts';
import {
  type Compilable,
  type CompiledQuery,
  type Expression,
  expressionBuilder,
  type Kysely,
  type SqlBool,
  sql,
} from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';
import { matchingIds, pgFieldMatch, pgKeyLike, pgKeyPattern, pgMatchesOnKeys } from '../search/match.js';
import { prepareOnPostgres } from '../statement-marks.js';
import { BOOK_SUMMARY_COLUMNS, type BookRow, selectBooks } from './book.repository.js';
import { countBooks } from './book-draw.repository.js';
import {
  type BookSummaryRow,
  findBookSummariesByIds,
  selectBookSummaries,
} from './book-summary.repository.js';

/**
 * The column of each sortable field of the admin list: exactly the contracts' BOOK_LIST_SORT_FIELDS
 * (the compiler refuses a field missing or added here); anything else is refused by the caller. A
 * category sorts by its name, as the list shows it (by its id, a category added later came last):
 * the books joined to their category (bySortKey), each category's books in id order.
 */
const SORTABLE_FIELDS = {
  id: 'books.id',
  title: 'books.title',
  author: 'books.author',
  publisher: 'books.publisher',
  language: 'books.language',
  category: 'categories.name',
  fileName: 'books.file_name',
  createdAt: 'books.created_at',
} as const satisfies Record<BookListSortField, string>;

export interface AdminListFilter {
  title?: string;
  author?: string;
  category?: string;
}

export async function listBooksAdmin(
  db: Kysely<Database>,
  filter: AdminListFilter,
  sort: ListSort,
  page: ListPage,
): Promise<{ rows: BookSummaryRow[]; total: number }> {
  const texts = TEXT_FILTERS.filter((field) => filter[field]);
  if (texts.length === 0 && !filter.category) return wholeListPage(db, sort, page);
  if (dialectOf(db) === 'postgres' && texts.length > 0)
    return pgTextFilterPage(db, filter, texts, sort, page);
  if (dialectOf(db) === 'sqlite' && texts.length > 0 && !filter.category)
    return matchesPage(
      db,
      texts.map((field) => matchingIds(db, filter[field]!, [field])),
      sort,
      page,
    );
  const conditions = filterConditions(db, filter);
  const total = countQuery(db, conditions);
  const rows = await prepared(
    db,
    pageOfBooks(db, conditions, sort, page).select(total.as('total')).compile(),
  );
  return withTotal(rows, page, () => countWhere(db, conditions));
}

type ListSort = { field: BookListSortField; dir: 'asc' | 'desc' };
type ListPage = { offset: number; limit: number };

/** A page of the whole list, its total the maintained book counter, not a COUNT(*) over the catalogue. */
async function wholeListPage(db: Kysely<Database>, sort: ListSort, page: ListPage) {
  const run = builtOnce(`all:${sort.field}:${sort.dir}`, (db, offset: number, limit: number) =>
    pageOfBooks(db, [], sort, { offset, limit }).select(
      db.selectFrom('counters').select('value').where('name', '=', 'books').as('total'),
    ),
  );
  return withTotal(await run(db, page.offset, page.limit), page, () => countBooks(db));
}

/** PostgreSQL, a title or author filter (with or without a category): pgMatchesPage's one statement. */
async function pgTextFilterPage(
  db: Kysely<Database>,
  filter: AdminListFilter,
  texts: ReadonlyArray<(typeof TEXT_FILTERS)[number]>,
  sort: ListSort,
  page: ListPage,
) {
  const countAll = () => countWhere(db, filterConditions(db, filter));
  if (!onKeys(filter, sort)) {
    const query = pgMatchesPage(db, filterConditions(db, filter), sort, page, false);
    return withTotal(await prepared(db, query.compile()), page, countAll);
  }
  const run = builtOnce(
    `keys:${texts.join('+')}:${sort.dir}`,
    (db, offset: number, limit: number, ...patterns: string[]) =>
      pgMatchesPage(
        db,
        texts.map((field, i) => pgKeyLike(patterns[i]!, [field], 'probe')),
        sort,
        { offset, limit },
        true,
      ),
  );
  const patterns = texts.map((field) => pgKeyPattern(filter[field]!));
  return withTotal(await run(db, page.offset, page.limit, ...patterns), page, countAll);
}

/**
 * A page whose rows carry the total, read in the same statement (on PostgreSQL, one round trip instead
 * of two). An empty page has no row to carry it: the first page of nothing has none, and a page past
 * the last counts apart.
 */
async function withTotal(
  rows: PageRow[],
  page: { offset: number },
  count: () => Promise<number>,
): Promise<{ rows: BookSummaryRow[]; total: number }> {
  if (rows.length === 0) return { rows: [], total: page.offset === 0 ? 0 : await count() };
  return { rows: rows.map(({ total: _, ...row }) => row), total: Number(rows[0]!.total) };
}

/**
 * One page of the books meeting the conditions, in one statement: the page's ids are read first, from
 * the sort's index alone (migration 2026-11-27T1000-list-page-indexes), then only their rows. Paging
 * whole rows, an OFFSET steps over every row before the page, each joined to its category.
 */
function pageOfBooks(
  db: Kysely<Database>,
  conditions: Expression<SqlBool>[],
  sort: ListSort,
  page: ListPage,
) {
  const key = SORTABLE_FIELDS[sort.field];
  const pageIds = whereAll(bySortKey(db, sort).select('books.id'), conditions)
    .orderBy(key, sort.dir)
    .orderBy('books.id', sort.dir)
    .offset(page.offset)
    .limit(page.limit);
  return selectBookSummaries(db)
    .where('books.id', 'in', pageIds)
    .orderBy(key, sort.dir)
    .orderBy('books.id', sort.dir);
}

/**
 * The books, joined to their category when the page is in category order: walked in the order of the
 * categories' names (their unique index), each one's books through books_category_idx, the join yields
 * the page's order without sorting the catalogue (query-plans.test.ts, pg-search-plans.test.ts).
 */
function bySortKey(db: Kysely<Database>, sort: ListSort) {
  const joined = db.selectFrom('books').innerJoin('categories', 'categories.id', 'books.category_id');
  // typed as joined either way: categories.name, the one column of categories named, is the category's key
  return sort.field === 'category' ? joined : (db.selectFrom('books') as unknown as typeof joined);
}

/**
 * Runs a list statement, on PostgreSQL as a prepared statement: its text is fixed by the sort and the
 * kinds of filter given (a few dozen texts at most) and its values are bound, so the server parses it
 * once per connection. The filters' values are out of the planner's sight (MatchOn `probe`), so where
 * PostgreSQL settles on one generic plan it is the plan each page had (pg-search-plans.test.ts).
 */
async function prepared<R>(db: Kysely<Database>, query: CompiledQuery<R>): Promise<R[]> {
  if (dialectOf(db) === 'postgres') prepareOnPostgres(query.sql);
  return (await db.executeQuery(query)).rows;
}

const TEXT_FILTERS = ['title', 'author'] as const;

/**
 * The filters as conditions on a books row, read through the search indexes (trigram FTS / grams),
 * not a lower() LIKE scan; the category by its id, so neither the page nor the count needs the join to
 * test it. On PostgreSQL the match is tested on the row itself, through its index with the keyword out
 * of the planner's sight (MatchOn `probe`): the matches are read whole anyway (pgMatchesPage), and
 * estimating a LIKE against the column's statistics cost as much planning as a small filter's reading.
 */
function filterConditions(db: Kysely<Database>, filter: AdminListFilter): Expression<SqlBool>[] {
  const eb = expressionBuilder<Database, 'books'>();
  const postgres = dialectOf(db) === 'postgres';
  const conditions = TEXT_FILTERS.filter((field) => filter[field]).map((field) =>
    postgres
      ? pgFieldMatch(filter[field]!, [field], 'probe')
      : eb('books.id', 'in', matchingIds(db, filter[field]!, [field])),
  );
  if (filter.category)
    conditions.push(
      eb(
        'books.category_id',
        'in',
        eb.selectFrom('categories').select('categories.id').where('categories.name', '=', filter.category),
      ),
    );
  return conditions;
}

/** How many books meet the conditions: books alone, since a book always has its category. */
function countQuery(db: Kysely<Database>, conditions: Expression<SqlBool>[]) {
  return whereAll(
    db.selectFrom('books').select((eb) => eb.fn.countAll<number>().as('n')),
    conditions,
  );
}

async function countWhere(db: Kysely<Database>, conditions: Expression<SqlBool>[]): Promise<number> {
  return Number((await prepared(db, countQuery(db, conditions).compile()))[0]!.n);
}

/**
 * SQLite, title and/or author filters only: the FTS match sets are counted and, sorted by id, paged
 * themselves (their rowids are the book ids), and only the page's books are read. Through the books
 * table, counting and paging a title filter would read every book the filter matches.
 */
async function matchesPage(
  db: Kysely<Database>,
  [first, ...others]: Expression<any>[],
  sort: ListSort,
  page: ListPage,
): Promise<{ rows: BookSummaryRow[]; total: number }> {
  const also = others.map((o) => sql`m.id in ${o}`);
  const matches = sql`${first} m ${also.length ? sql`where ${sql.join(also, sql` and `)}` : sql``}`;
  const [{ n }] = (await sql<{ n: number }>`select count(*) as n from ${matches}`.execute(db)).rows as [
    { n: number },
  ];
  if (sort.field !== 'id') {
    const matched = sql<SqlBool>`books.id in (select m.id from ${matches})`;
    return { rows: await pageOfBooks(db, [matched], sort, page).execute(), total: Number(n) };
  }
  const ids = await sql<{ id: number }>`select m.id from ${matches}
    order by m.id ${sql.raw(sort.dir)} limit ${page.limit} offset ${page.offset}`.execute(db);
  return {
    rows: await findBookSummariesByIds(
      db,
      ids.rows.map((r) => Number(r.id)),
    ),
    total: Number(n),
  };
}

/**
 * PostgreSQL: whether a filtered page's matches can be found, counted and ordered on book_keys alone,
 * whose narrow rows make testing each candidate a third of the work it is on books: when the filter
 * tests only keys (title and author keywords of 3 characters or more, no category) and the page is in
 * id order. Otherwise its conditions and its sort key are on books.
 */
function onKeys(filter: AdminListFilter, sort: ListSort): boolean {
  return (
    sort.field === 'id' &&
    !filter.category &&
    TEXT_FILTERS.every((field) => !filter[field] || pgMatchesOnKeys(filter[field]))
  );
}

/**
 * PostgreSQL, with a title or author filter: one statement reads the matches once, counts them, orders
 * them for the page and reads only the page's books. A count and a page apart each read every match of
 * a filter matching thousands of books (the count, to test each row; the page, to sort them), and the
 * matches' ids and sort keys are narrow where the page's rows are not. The conditions name their
 * columns unqualified: the keys are the same columns on book_keys as on books.
 */
function pgMatchesPage(
  db: Kysely<Database>,
  conditions: Expression<SqlBool>[],
  sort: ListSort,
  page: ListPage,
  keysOnly: boolean,
): Compilable<PageRow> {
  const key = SORTABLE_FIELDS[sort.field];
  // the sort's key beside each match; a category's name read by its id (the conditions name books'
  // columns unqualified, which a join would make ambiguous)
  const sortKey =
    sort.field === 'category'
      ? sql`(select categories.name from categories where categories.id = books.category_id)`
      : sql.ref(key);
  const matches = keysOnly
    ? whereAll(db.selectFrom('book_keys').select(['book_keys.id', 'book_keys.id as k']), conditions)
    : whereAll(db.selectFrom('books').select(['books.id', sortKey.as('k')]), conditions);
  const dir = sql.raw(sort.dir);
  // the page's ids as one array (an InitPlan), so its rows are read by id through the primary key; the
  // matches materialized, so the planner cannot walk an index in the sort's order testing every book
  const pageIds = sql<SqlBool>`books.id = any(array(select m.id from m order by m.k ${dir}, m.id ${dir}
    limit ${page.limit} offset ${page.offset}))`;
  // selectBookSummaries' rows, over the statement that names the matches
  return db
    .with(
      (cte) => cte('m').materialized(),
      () => matches,
    )
    .selectFrom('books')
    .innerJoin('categories', 'categories.id', 'books.category_id')
    .select(BOOK_SUMMARY_COLUMNS)
    .select(['categories.name as category_name', sql<string>`(select count(*) from m)`.as('total')])
    .where(pageIds)
    .orderBy(key, sort.dir)
    .orderBy('books.id', sort.dir);
}

/** A page's rows, each with the total it was read with. */
type PageRow = BookSummaryRow & { total: number | string | bigint | null };

/**
 * The list's commonest statements, built once per shape (compiledOnce; docs/decisions/
 * statements-built-once.md) and bound at each call: a page of the whole list per sort, and on
 * PostgreSQL a page of a keys-only filter (onKeys) per set of fields and direction, a few dozen shapes
 * at most. Other filters are built at each call: their SQL follows the keyword (grams or keys).
 */
const builtShapes = new Map<string, unknown>();

function builtOnce<A extends unknown[]>(
  shape: string,
  build: (db: Kysely<Database>, ...args: A) => Compilable<PageRow>,
): (db: Kysely<Database>, ...args: A) => Promise<PageRow[]> {
  type Run = (db: Kysely<Database>, ...args: A) => Promise<PageRow[]>;
  let run = builtShapes.get(shape) as Run | undefined;
  if (!run) {
    run = compiledOnce(build);
    builtShapes.set(shape, run);
  }
  return run;
}

/** The query with every condition added to its WHERE. */
function whereAll<Q extends { where(condition: Expression<SqlBool>): Q }>(
  query: Q,
  conditions: Expression<SqlBool>[],
): Q {
  return conditions.reduce((q, condition) => q.where(condition), query);
}

/**
 * The books with exactly this title, author and publisher, oldest first (decisions.md §4: a create of
 * such a book is refused); every one of them, since books imported before the check came may share an
 * identity. Read through the title's index.
 */
export async function findSameBooks(
  db: Kysely<Database>,
  b: { title: string; author: string; publisher: string },
): Promise<BookRow[]> {
  return selectBooks(db)
    .where('books.title', '=', b.title)
    .where('books.author', '=', b.author)
    .where('books.publisher', '=', b.publisher)
    .orderBy('books.id')
    .execute();
}

/** A catalogue book with the same title, author and publisher, which a create or import refuses. */
export async function findDuplicate(
  db: Kysely<Database>,
  b: { title: string; author: string; publisher: string },
): Promise<BookRow | undefined> {
  return (await findSameBooks(db, b))[0];
}
