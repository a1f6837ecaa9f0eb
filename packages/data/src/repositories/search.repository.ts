import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';
import { type GramField, gramToken, isShortKeyword, normalizeText } from '../search/grams.js';
import { type BookRow, findBooksByIds, selectBooks } from './book.repository.js';
import { selectCategoryCounts } from './category.repository.js';

export type SearchField = 'title' | 'author' | 'publisher';
const GRAM: Record<SearchField, GramField> = { title: 't', author: 'a', publisher: 'p' };

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function ftsPhrase(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/**
 * Ids of the books whose given fields contain the keyword as a substring, case-insensitively, as a
 * subquery, always through an index: trigram FTS5 / pg_trgm for 3+ characters, the gram index for 1-2.
 */
export function matchingIds(db: Kysely<Database>, keyword: string, fields: SearchField[]): Expression<any> {
  // the trigram indexes fold case themselves; the keyword goes in as typed
  return dialectOf(db) === 'postgres'
    ? sql`(select id from books where ${pgFieldMatch(keyword, fields)})`
    : sql`(${ftsMatch(keyword, fields)})`;
}

/** SQLite: `select rowid as id from <fts table> where <match>` for the keyword in the given fields. */
function ftsMatch(keyword: string, fields: SearchField[]) {
  const kw = normalizeText(keyword);
  if (isShortKeyword(kw)) {
    const tokens = fields.map((f) => gramToken(GRAM[f], kw));
    return sql`select rowid as id from book_grams where book_grams match ${tokens.join(' OR ')}`;
  }
  // titles alone have their own index: in book_fts a title match walks the postings of every column
  if (fields.length === 1 && fields[0] === 'title') {
    return sql`select rowid as id from book_title_fts where book_title_fts match ${ftsPhrase(keyword)}`;
  }
  const cols = fields.length === 3 ? '' : `{${fields.join(' ')}} : `;
  return sql`select rowid as id from book_fts where book_fts match ${cols + ftsPhrase(keyword)}`;
}

function categoryIdsLike(db: Kysely<Database>, keyword: string) {
  // the category table is small (a taxonomy), a scan of it is not a scan of the catalogue
  return db
    .selectFrom('categories')
    .select('id')
    .where(sql<SqlBool>`lower(name) like ${`%${escapeLike(normalizeText(keyword))}%`} escape '\\'`);
}

/** Id lists above this length are excluded with a subquery instead of bound parameters. */
const EXCEPT_LIST_MAX = 500;

/**
 * SQLite: ids of books matching in the given fields or in one of the categories, ascending, at most
 * `limit` after `offset`, without the `except` ids (or, when the caller could not list them, without the
 * title matches). Every part is an ordered walk that its LIMIT stops: the FTS table in rowid order, each
 * category through books_category_idx. The parts are merged here; a UNION in SQL materialised every
 * match and every book of the categories first (10 ms for a keyword naming a category at a million books).
 */
async function sqlitePageIds(
  db: Kysely<Database>,
  keyword: string,
  fields: SearchField[],
  categoryIds: number[],
  opts: { offset: number; limit: number; except?: number[] | 'title' },
): Promise<number[]> {
  const ids = async (q: RawBuilder<{ id: number }>) => (await q.execute(db)).rows.map((r) => Number(r.id));
  const except = (col: string) => {
    if (opts.except === 'title')
      return sql`and ${sql.raw(col)} not in ${matchingIds(db, keyword, ['title'])}`;
    if (!opts.except?.length) return sql``;
    return sql`and ${sql.raw(col)} not in (${sql.join(opts.except)})`;
  };
  const want = opts.offset + opts.limit;
  if (categoryIds.length === 0)
    return ids(
      sql`${ftsMatch(keyword, fields)} ${except('rowid')} order by rowid limit ${opts.limit} offset ${opts.offset}`,
    );
  const parts = await Promise.all([
    ids(sql`${ftsMatch(keyword, fields)} ${except('rowid')} order by rowid limit ${want}`),
    ...categoryIds.map((c) =>
      ids(sql`select id from books where category_id = ${c} ${except('id')} order by id limit ${want}`),
    ),
  ]);
  return [...new Set(parts.flat())].sort((a, b) => a - b).slice(opts.offset, want);
}

/** PostgreSQL: "the keyword is in one of these fields" as a condition on a books row. */
function pgFieldMatch(keyword: string, fields: SearchField[]): Expression<SqlBool> {
  const kw = normalizeText(keyword);
  if (isShortKeyword(kw)) {
    const tokens = fields.map((f) => gramToken(GRAM[f], kw));
    return sql<SqlBool>`string_to_array(grams, ' ') && ${sql.val(tokens)}::text[]`;
  }
  const pattern = `%${escapeLike(keyword)}%`;
  return sql<SqlBool>`(${sql.join(
    fields.map((f) => sql`${sql.ref(f)} ilike ${pattern}`),
    sql` or `,
  )})`;
}

/** Books read in id order before a PostgreSQL page gives up walking and reads the match set instead. */
const PG_WALK_MIN = 2000;

/**
 * PostgreSQL: one page of the ids of the books satisfying `cond`, in id order. The planner cannot tell
 * from its statistics whether a substring is common: walking the primary key in id order is fastest
 * when it is (the page fills within a few hundred books) and reads the whole table when it is rare (a
 * two-character name of 44 books: 53k books read, 0.2 s), and the match set is the reverse (a common
 * substring at 100k books: 80-160 ms). So the walk goes first, bounded to 100 books per wanted id
 * (enough for any condition true of 1% of the books), then the materialised match set.
 */
async function pgPageIds(
  db: Kysely<Database>,
  cond: Expression<SqlBool>,
  page: { offset: number; limit: number },
): Promise<number[]> {
  const ids = async (q: { execute(db: Kysely<Database>): Promise<{ rows: Array<{ id: number }> }> }) =>
    (await q.execute(db)).rows.map((r) => Number(r.id));
  const want = page.offset + page.limit;
  const budget = Math.max(PG_WALK_MIN, want * 100);
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

/** One page of matching ids: SQLite reads its FTS tables (sqlitePageIds), PostgreSQL pgPageIds. */
async function pageIds(
  db: Kysely<Database>,
  keyword: string,
  fields: SearchField[],
  categoryIds: number[],
  opts: { offset: number; limit: number; exceptTitles?: number[] },
): Promise<number[]> {
  if (dialectOf(db) === 'postgres') {
    const inCategory = categoryIds.length > 0 ? sql` or category_id in (${sql.join(categoryIds)})` : sql``;
    const exceptTitle = opts.exceptTitles ? sql` and not ${pgFieldMatch(keyword, ['title'])}` : sql``;
    return pgPageIds(db, sql<SqlBool>`((${pgFieldMatch(keyword, fields)}${inCategory})${exceptTitle})`, opts);
  }
  const listed = opts.exceptTitles && opts.exceptTitles.length <= EXCEPT_LIST_MAX;
  return sqlitePageIds(db, keyword, fields, categoryIds, {
    ...opts,
    except: listed ? opts.exceptTitles : opts.exceptTitles && 'title',
  });
}

/**
 * Books matching the keyword in title, author, publisher or category name; title matches first. The
 * ids of the matching categories may be given when the caller already has them.
 */
export async function searchBooks(
  db: Kysely<Database>,
  keyword: string,
  page: { offset: number; limit: number },
  categoryIds?: number[],
): Promise<BookRow[]> {
  const categories = categoryIds ?? (await categoryIdsMatching(db, keyword));
  // title matches first (by id): a page needs at most offset + limit of them
  const want = page.offset + page.limit;
  const titled = await pageIds(db, keyword, ['title'], [], { offset: 0, limit: want });
  let ids = titled.slice(page.offset);
  if (titled.length < want) {
    // every title match is known: the rest of the page comes from the other fields and categories
    const rest = await pageIds(db, keyword, ['author', 'publisher'], categories, {
      offset: Math.max(0, page.offset - titled.length),
      limit: want - Math.max(titled.length, page.offset),
      exceptTitles: titled,
    });
    ids = [...ids, ...rest];
  }
  return findBooksByIds(db, ids);
}

/**
 * Distinct values of one field that contain the keyword, most books first (at most `limit`): read from
 * book_values, whose substring indexes match the few thousand distinct values instead of grouping every
 * matching book. A value contains the keyword exactly when its books match in that field, so the counts
 * are the numbers of matching books, for every keyword.
 */
export async function searchFacet(
  db: Kysely<Database>,
  keyword: string,
  field: 'author' | 'publisher',
  limit = 10,
): Promise<Array<{ value: string; n: number }>> {
  // SQLite would otherwise walk book_values_popular_idx in the ORDER BY's order, testing every value of
  // the field against the match set (3 ms at a million books); the match set is the smaller side
  const fieldRef = dialectOf(db) === 'sqlite' ? sql<string>`+field` : sql.ref<string>('field');
  const rows = await db
    .selectFrom('book_values')
    .select(['value', 'books'])
    .where('id', 'in', matchingValueIds(db, keyword, field))
    .where(fieldRef, '=', field)
    .orderBy('books', 'desc')
    .orderBy('value')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ value: r.value, n: Number(r.books) }));
}

/** Ids of the book_values rows of `field` containing the keyword, through their indexes (subquery). */
function matchingValueIds(
  db: Kysely<Database>,
  keyword: string,
  field: 'author' | 'publisher',
): Expression<any> {
  const kw = normalizeText(keyword);
  const pg = dialectOf(db) === 'postgres';
  if (isShortKeyword(kw)) {
    const token = gramToken(GRAM[field], kw);
    return pg
      ? sql`(select id from book_values where string_to_array(grams, ' ') && ${sql.val([token])}::text[])`
      : sql`(select rowid from book_value_grams where book_value_grams match ${token})`;
  }
  return pg
    ? sql`(select id from book_values where value ilike ${`%${escapeLike(keyword)}%`})`
    : sql`(select rowid from book_value_fts where book_value_fts match ${ftsPhrase(keyword)})`;
}

/** Ids of the categories whose name contains the keyword (the small category table, not the catalogue). */
export async function categoryIdsMatching(db: Kysely<Database>, keyword: string): Promise<number[]> {
  return (await categoryIdsLike(db, keyword).execute()).map((c) => c.id);
}

/** Categories whose name contains the keyword, most books first. */
export async function searchCategories(db: Kysely<Database>, keyword: string, limit = 10) {
  const rows = await selectCategoryCounts(db)
    .where('categories.id', 'in', categoryIdsLike(db, keyword))
    .orderBy('num', 'desc')
    .orderBy('categories.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, n: Number(r.num) }));
}

export interface SearchListFilter {
  publisher?: string;
  author?: string;
  category?: string;
  categoryId?: number;
}

/** AND of the given filters: author and publisher as indexed substrings, category by exact name or id. */
export async function searchList(
  db: Kysely<Database>,
  filter: SearchListFilter,
  page: { offset: number; limit: number },
): Promise<BookRow[]> {
  if (dialectOf(db) === 'postgres') {
    const conds: Expression<SqlBool>[] = [];
    if (filter.author) conds.push(pgFieldMatch(filter.author, ['author']));
    if (filter.publisher) conds.push(pgFieldMatch(filter.publisher, ['publisher']));
    if (filter.category !== undefined)
      conds.push(sql<SqlBool>`category_id in (select id from categories where name = ${filter.category})`);
    if (filter.categoryId !== undefined) conds.push(sql<SqlBool>`category_id = ${filter.categoryId}`);
    const cond = conds.length > 0 ? sql<SqlBool>`(${sql.join(conds, sql` and `)})` : sql<SqlBool>`true`;
    return findBooksByIds(db, await pgPageIds(db, cond, page));
  }
  let q = selectBooks(db);
  if (filter.author) q = q.where('books.id', 'in', matchingIds(db, filter.author, ['author']));
  if (filter.publisher) q = q.where('books.id', 'in', matchingIds(db, filter.publisher, ['publisher']));
  if (filter.category !== undefined) q = q.where('categories.name', '=', filter.category);
  if (filter.categoryId !== undefined) q = q.where('books.category_id', '=', filter.categoryId);
  return q.orderBy('books.id').offset(page.offset).limit(page.limit).execute();
}

/** Same predicate as searchBooks, for tests and benchmarks comparing against a plain LIKE scan. */
export function likeScanIds(db: Kysely<Database>, keyword: string) {
  const pattern = `%${escapeLike(normalizeText(keyword))}%`;
  return db
    .selectFrom('books')
    .select('id')
    .where(
      sql<SqlBool>`lower(title) like ${pattern} escape '\\' or lower(author) like ${pattern} escape '\\' or lower(publisher) like ${pattern} escape '\\'`,
    );
}
