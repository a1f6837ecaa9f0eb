import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';
import { type GramField, gramToken, isShortKeyword, normalizeText } from './grams.js';

/**
 * The SQL of "this keyword is a substring of these fields", for both dialects and both kinds of index:
 * the building blocks of the search, search-list, facet and admin-list queries.
 */
export type SearchField = 'title' | 'author' | 'publisher';
export const GRAM: Record<SearchField, GramField> = { title: 't', author: 'a', publisher: 'p' };

export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function ftsPhrase(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/**
 * Ids of the books whose given fields contain the keyword as a substring, case-insensitively, as a
 * subquery, always through an index: trigram FTS5 / pg_trgm for 3+ characters, the gram index for 1-2.
 */
export function matchingIds(db: Kysely<Database>, keyword: string, fields: SearchField[]): Expression<any> {
  return dialectOf(db) === 'postgres'
    ? sql`(select id from books where ${pgFieldMatch(keyword, fields)})`
    : sql`(${ftsMatch(keyword, fields)})`;
}

/**
 * What the trigram indexes are asked for a keyword of 3+ characters: its NFKC form, as they hold the
 * NFKC form of every text (migration 2026-11-23T1200-nfkc-search) and fold case themselves. So what an
 * input method types in full width (`ｍｏｂｙ`) or decomposed (`E\u0301mile`) finds what its plain form
 * finds, and a title stored in full width is found by the plain form, as keywords of 1-2 characters
 * always did through the gram index.
 */
export function trigramKeyword(keyword: string): string {
  return keyword.normalize('NFKC');
}

/**
 * PostgreSQL: a column's search key (migration 2026-11-26T1600-search-keys), the text its trigram index
 * holds: the NFKC form where it differs, every space swapped with `ʬ`, in lower case. pg_trgm splits
 * words at anything but letters and digits; with the swap it reads a phrase's trigrams across its
 * spaces. A swap is its own inverse and changes no case, and PostgreSQL's ILIKE on UTF-8 is a LIKE
 * over both texts lowered: the key is LIKE the lowered swapped pattern (pgKeyPattern) exactly when
 * the text is ILIKE the pattern.
 */
function pgKey(column: string) {
  return sql.ref(`${column}_key`);
}

/** What a key swaps: each character of the first with the one at its place in the second. */
const SWAPPED = ' \u02ac';
const SWAPPED_TO = '\u02ac ';

/**
 * The LIKE pattern of "contains the keyword" in a key (pgKey), but for its case: the keyword swapped as
 * keys are. PostgreSQL lowers it itself (pgKeyLike), as its lower() made the keys (JavaScript's
 * toLowerCase differs on a few letters).
 */
export function pgKeyPattern(keyword: string): string {
  const swapped = Array.from(trigramKeyword(keyword), (c) => {
    const at = SWAPPED.indexOf(c);
    return at < 0 ? c : SWAPPED_TO[at];
  }).join('');
  return `%${escapeLike(swapped)}%`;
}

/**
 * PostgreSQL: "one of these fields' keys is LIKE the pattern" (pgKeyPattern, bound as one value and
 * lowered once), on a books row, on a book_keys row (the same columns) or on a book_values row with
 * `textIn: 'value'`. A row read already is tested against the pattern lowered in a sub-select, not at
 * every row.
 */
export function pgKeyLike(
  pattern: string,
  fields: SearchField[],
  on: MatchOn,
  textIn?: 'value',
): Expression<SqlBool> {
  const lowered = unseen(on === 'row' ? 'probe' : on, sql<string>`lower(${pattern}::text)`);
  return sql<SqlBool>`(${sql.join(
    fields.map((f) => sql`${pgKey(textIn ?? f)} like ${lowered}`),
    sql` or `,
  )})`;
}

/** SQLite: `select rowid as id from <fts table> where <match>` for the keyword in the given fields. */
export function ftsMatch(keyword: string, fields: SearchField[]) {
  const kw = normalizeText(keyword);
  if (isShortKeyword(kw)) {
    const tokens = fields.map((f) => gramToken(GRAM[f], kw));
    return sql`select rowid as id from book_grams where book_grams match ${tokens.join(' OR ')}`;
  }
  // titles alone have their own index: in book_fts a title match walks the postings of every column
  if (fields.length === 1 && fields[0] === 'title') {
    return sql`select rowid as id from book_title_fts where book_title_fts match ${ftsPhrase(trigramKeyword(keyword))}`;
  }
  const cols = fields.length === 3 ? '' : `{${fields.join(' ')}} : `;
  return sql`select rowid as id from book_fts where book_fts match ${cols + ftsPhrase(trigramKeyword(keyword))}`;
}

/**
 * Where a PostgreSQL condition is tested: `index`, in the form its GIN index serves (a match set read
 * through the index); `row`, in the form cheapest to test on a row already read (a walk in id order;
 * for keywords of 3 characters or more, the probe's); `probe`, the index form with the keyword out of
 * the planner's sight. All three are true of the same rows. The search page (pg-search-page.ts)
 * decides between the index and a walk by what it reads, not by estimates, so estimating its
 * conditions is planning spent for nothing: the planner estimates a LIKE by testing the pattern against
 * every common and histogram value of the column. A value the planner cannot see (a sub-select's) is
 * estimated at the default, a few hundred books, for which the index is the plan; and a plan that no
 * keyword changes is one PostgreSQL keeps for a prepared statement instead of planning it again.
 */
export type MatchOn = 'index' | 'row' | 'probe';

/**
 * PostgreSQL: "the keyword is in one of these fields" as a condition on a books row, or on a
 * book_values row with `textIn: 'value'` (the column holding every field's text there).
 */
export function pgFieldMatch(
  keyword: string,
  fields: SearchField[],
  on: MatchOn = 'index',
  textIn?: 'value',
): Expression<SqlBool> {
  const kw = normalizeText(keyword);
  if (isShortKeyword(kw)) {
    const tokens = fields.map((f) => gramToken(GRAM[f], kw));
    if (on !== 'row')
      return sql<SqlBool>`string_to_array(grams, ' ') && ${unseen(on, sql`${sql.val(tokens)}::text[]`)}`;
    // the tokens are space-separated words of hex digits: a token is an element exactly when it is a
    // substring with a space on either side, which a walk tests without splitting every row's grams
    // into an array (several times the work per book walked)
    return sql<SqlBool>`(${sql.join(
      tokens.map((t) => sql`strpos(' ' || grams || ' ', ${` ${t} `}) > 0`),
      sql` or `,
    )})`;
  }
  return pgKeyLike(pgKeyPattern(keyword), fields, on, textIn);
}

/**
 * Whether pgFieldMatch tests this keyword on the fields' keys (3 characters or more), which book_keys
 * holds as well as books, rather than on a books row's grams.
 */
export function pgMatchesOnKeys(keyword: string): boolean {
  return !isShortKeyword(keyword);
}

/** A condition's value, in a sub-select when it is a probe's (MatchOn): the planner sees a parameter. */
function unseen(on: MatchOn, value: Expression<unknown>) {
  return on === 'probe' ? sql`(select ${value})` : value;
}
