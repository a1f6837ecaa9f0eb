import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';
import { normalizeText } from '../search/grams.js';
import {
  escapeLike,
  ftsMatch,
  type MatchOn,
  matchingIds,
  pgFieldMatch,
  type SearchField,
} from '../search/match.js';
import { pgSearchPage } from '../search/pg-search-page.js';
import { type BookSummaryRow, findBookSummariesByIds } from './book-summary.repository.js';
import { selectCategoryCounts } from './category.repository.js';

export { matchingIds, type SearchField } from '../search/match.js';

/** Title matches past this many are excluded with a subquery instead of a list of bound ids. */
const EXCEPT_LIST_MAX = 500;

/**
 * SQLite: ids of books matching in the given fields or in one of the categories, ascending, at most
 * `limit` after `offset`, without the title matches the caller lists (all of them, when it lists any).
 * Every part is an ordered walk that its LIMIT stops: the FTS table in rowid order, each
 * category through books_category_idx. The parts are merged here; a UNION in SQL would materialise every
 * match and every book of the categories first.
 */
async function sqlitePageIds(
  db: Kysely<Database>,
  keyword: string,
  fields: SearchField[],
  categoryIds: number[],
  opts: { offset: number; limit: number; exceptTitles?: number[] },
): Promise<number[]> {
  const ids = async (q: RawBuilder<{ id: number }>) => (await q.execute(db)).rows.map((r) => Number(r.id));
  const except = (col: string) => {
    const titles = opts.exceptTitles;
    if (!titles?.length) return sql``;
    if (titles.length > EXCEPT_LIST_MAX)
      return sql`and ${sql.raw(col)} not in ${matchingIds(db, keyword, ['title'])}`;
    return sql`and ${sql.raw(col)} not in (${sql.join(titles)})`;
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

/**
 * Books matching the keyword in title, author, publisher or category name; title matches first. The
 * ids of the matching categories may be given when the caller already has them.
 */
export async function searchBooks(
  db: Kysely<Database>,
  keyword: string,
  page: { offset: number; limit: number },
  categoryIds?: number[],
): Promise<BookSummaryRow[]> {
  const categories = categoryIds ?? (await categoryIdsMatching(db, keyword));
  if (dialectOf(db) === 'postgres') {
    const inTitle = (on: MatchOn) => pgFieldMatch(keyword, ['title'], on);
    const inCategory = categories.length > 0 ? sql` or category_id in (${sql.join(categories)})` : sql``;
    const rest = (on: MatchOn) =>
      sql<SqlBool>`(${pgFieldMatch(keyword, ['author', 'publisher'], on)}${inCategory}) and not ${inTitle(on)}`;
    return pgSearchPage(db, [inTitle, rest], page);
  }
  // title matches first (by id): a page needs at most offset + limit of them
  const want = page.offset + page.limit;
  const titled = await sqlitePageIds(db, keyword, ['title'], [], { offset: 0, limit: want });
  let ids = titled.slice(page.offset);
  if (titled.length < want) {
    // every title match is known: the rest of the page comes from the other fields and categories
    const rest = await sqlitePageIds(db, keyword, ['author', 'publisher'], categories, {
      offset: Math.max(0, page.offset - titled.length),
      limit: want - Math.max(titled.length, page.offset),
      exceptTitles: titled,
    });
    ids = [...ids, ...rest];
  }
  return findBookSummariesByIds(db, ids);
}

/** A category's id and its name folded as the search indexes fold text. */
export interface FoldedCategoryName {
  id: number;
  folded: string;
}

/**
 * Every category's name, folded as the search indexes fold them (NFKC, lower case), in JavaScript:
 * SQLite's lower() folds ASCII letters only, so `Ästhetik` would not be found there as it is on
 * PostgreSQL. The table is a small taxonomy, not the catalogue.
 */
export async function foldedCategoryNames(db: Kysely<Database>): Promise<FoldedCategoryName[]> {
  const rows = await db.selectFrom('categories').select(['id', 'name']).execute();
  return rows.map((c) => ({ id: c.id, folded: normalizeText(c.name) }));
}

/** Ids of the categories whose folded name contains the keyword, folded alike. */
export function categoryIdsIn(names: readonly FoldedCategoryName[], keyword: string): number[] {
  const kw = normalizeText(keyword);
  return names.filter((c) => c.folded.includes(kw)).map((c) => c.id);
}

/** Ids of the categories whose name contains the keyword (foldedCategoryNames, categoryIdsIn). */
export async function categoryIdsMatching(db: Kysely<Database>, keyword: string): Promise<number[]> {
  return categoryIdsIn(await foldedCategoryNames(db), keyword);
}

/** Categories whose name contains the keyword, most books first. */
export async function searchCategories(db: Kysely<Database>, keyword: string, limit = 10) {
  const ids = await categoryIdsMatching(db, keyword);
  if (ids.length === 0) return [];
  const rows = await selectCategoryCounts(db)
    .where('categories.id', 'in', ids)
    .orderBy('num', 'desc')
    .orderBy('categories.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, n: Number(r.num) }));
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
