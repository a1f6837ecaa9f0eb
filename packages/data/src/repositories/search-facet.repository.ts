import { type Expression, type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';
import { gramToken, isShortKeyword, normalizeText } from '../search/grams.js';
import { ftsPhrase, GRAM, pgFieldMatch, trigramKeyword } from '../search/match.js';

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
  const rows =
    dialectOf(db) === 'postgres'
      ? await pgFacet(db, keyword, field, limit)
      : await sqliteFacet(db, keyword, field, limit);
  return rows.map((r) => ({ value: r.value, n: Number(r.books) }));
}

/**
 * PostgreSQL: the matching values read through their index, then sorted. The database is asked only
 * for keywords that the most frequent values, kept in memory, do not answer: their matches are few.
 * Left to its estimates the planner could walk book_values_popular_idx in the ORDER BY's order instead,
 * testing every value of the field (all 10,555 authors for the 7 holding `icia Mo`); the
 * condition is the search page's probe (MatchOn), whose plan does not depend on the keyword.
 */
function pgFacet(db: Kysely<Database>, keyword: string, field: 'author' | 'publisher', limit: number) {
  return db
    .with(
      (cte) => cte('matches').materialized(),
      (q) =>
        q
          .selectFrom('book_values')
          .select(['value', 'books'])
          .where('field', '=', field)
          .where(pgFieldMatch(keyword, [field], 'probe', 'value')),
    )
    .selectFrom('matches')
    .select(['value', 'books'])
    .orderBy('books', 'desc')
    .orderBy('value')
    .limit(limit)
    .execute();
}

/**
 * SQLite: the values whose rows the FTS tables match. `+field` keeps SQLite from walking
 * book_values_popular_idx in the ORDER BY's order, testing every value of the field against the match
 * set; the match set is the smaller side.
 */
function sqliteFacet(db: Kysely<Database>, keyword: string, field: 'author' | 'publisher', limit: number) {
  const kw = normalizeText(keyword);
  const matching: Expression<any> = isShortKeyword(kw)
    ? sql`(select rowid from book_value_grams where book_value_grams match ${gramToken(GRAM[field], kw)})`
    : sql`(select rowid from book_value_fts where book_value_fts match ${ftsPhrase(trigramKeyword(keyword))})`;
  return db
    .selectFrom('book_values')
    .select(['value', 'books'])
    .where('id', 'in', matching)
    .where(sql<string>`+field`, '=', field)
    .orderBy('books', 'desc')
    .orderBy('value')
    .limit(limit)
    .execute();
}
