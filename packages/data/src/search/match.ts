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
  // the trigram indexes fold case themselves; the keyword goes in as typed and as NFKC (trigramForms)
  return dialectOf(db) === 'postgres'
    ? sql`(select id from books where ${pgFieldMatch(keyword, fields)})`
    : sql`(${ftsMatch(keyword, fields)})`;
}

/**
 * The forms of a keyword of 3+ characters looked up in the trigram indexes: as typed and, when it
 * differs, NFKC. So what an input method types in full width (`ｍｏｂｙ`) or decomposed (`E\u0301mile`)
 * finds what its plain form finds, as keywords of 1-2 characters always did through the gram index
 * (`ｍｏ` found Moby Dick, `ｍｏｂ` did not), and still finds a title stored in that very form. The
 * indexes hold the text as stored, folding case only: a title stored in full width is not found by the
 * plain form.
 */
export function trigramForms(keyword: string): string[] {
  const folded = keyword.normalize('NFKC');
  return folded === keyword ? [keyword] : [keyword, folded];
}

/** The FTS5 query of any of the keyword's forms, as phrases (one, or several in parentheses). */
function ftsForms(keyword: string): string {
  const phrases = trigramForms(keyword).map(ftsPhrase);
  return phrases.length === 1 ? phrases[0]! : `(${phrases.join(' OR ')})`;
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
    return sql`select rowid as id from book_title_fts where book_title_fts match ${ftsForms(keyword)}`;
  }
  const cols = fields.length === 3 ? '' : `{${fields.join(' ')}} : `;
  return sql`select rowid as id from book_fts where book_fts match ${cols + ftsForms(keyword)}`;
}

/** PostgreSQL: "the keyword is in one of these fields" as a condition on a books row. */
export function pgFieldMatch(keyword: string, fields: SearchField[]): Expression<SqlBool> {
  const kw = normalizeText(keyword);
  if (isShortKeyword(kw)) {
    const tokens = fields.map((f) => gramToken(GRAM[f], kw));
    return sql<SqlBool>`string_to_array(grams, ' ') && ${sql.val(tokens)}::text[]`;
  }
  const patterns = trigramForms(keyword).map((form) => `%${escapeLike(form)}%`);
  return sql<SqlBool>`(${sql.join(
    fields.flatMap((f) => patterns.map((pattern) => sql`${sql.ref(f)} ilike ${pattern}`)),
    sql` or `,
  )})`;
}
