import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';
import { type MatchOn, matchingIds, pgFieldMatch } from '../search/match.js';
import { pgSearchPage } from '../search/pg-search-page.js';
import { type BookSummaryRow, selectBookSummaries } from './book-summary.repository.js';

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
): Promise<BookSummaryRow[]> {
  if (dialectOf(db) === 'postgres') {
    const cond = (on: MatchOn) => {
      const conds: Expression<SqlBool>[] = [];
      if (filter.author) conds.push(pgFieldMatch(filter.author, ['author'], on));
      if (filter.publisher) conds.push(pgFieldMatch(filter.publisher, ['publisher'], on));
      if (filter.category !== undefined)
        conds.push(sql<SqlBool>`category_id in (select id from categories where name = ${filter.category})`);
      if (filter.categoryId !== undefined) conds.push(sql<SqlBool>`category_id = ${filter.categoryId}`);
      return conds.length > 0 ? sql<SqlBool>`(${sql.join(conds, sql` and `)})` : sql<SqlBool>`true`;
    };
    return pgSearchPage(db, [cond], page);
  }
  let q = selectBookSummaries(db);
  if (filter.author) q = q.where('books.id', 'in', matchingIds(db, filter.author, ['author']));
  if (filter.publisher) q = q.where('books.id', 'in', matchingIds(db, filter.publisher, ['publisher']));
  if (filter.category !== undefined) q = q.where('categories.name', '=', filter.category);
  if (filter.categoryId !== undefined) q = q.where('books.category_id', '=', filter.categoryId);
  return q.orderBy('books.id').offset(page.offset).limit(page.limit).execute();
}
