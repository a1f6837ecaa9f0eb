import { type Expression, type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';
import { gramToken, isShortKeyword, normalizeText } from '../search/grams.js';
import { escapeLike, ftsPhrase, GRAM, pgIndexedText, trigramKeyword } from '../search/match.js';

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
  // the field against the match set; the match set is the smaller side
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
  const kwNfkc = trigramKeyword(keyword);
  return pg
    ? sql`(select id from book_values where ${pgIndexedText('value')} ilike ${`%${escapeLike(kwNfkc)}%`})`
    : sql`(select rowid from book_value_fts where book_value_fts match ${ftsPhrase(kwNfkc)})`;
}
