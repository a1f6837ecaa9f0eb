import { type Kysely, sql } from 'kysely';
import { isPostgres } from './migration-helpers.js';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * PostgreSQL: trigram indexes that keep a keyword's words together. pg_trgm splits a text into words at
 * anything but letters and digits, so the trigrams of `l for` are those of `l` and of `for` apart,
 * which most titles hold: at 100k books its index read 17,961 books to find 531. These indexes hold
 * the searched text (the NFKC form where it differs) with every space swapped with `ʬ` (U+02AC, a
 * letter without case that texts do not use) and back: to pg_trgm a phrase is then one word, and
 * `l for` reads its trigrams across the space. A swap is its own inverse and changes no letter's case,
 * so the swapped text is ILIKE the swapped pattern exactly when the text is ILIKE the pattern.
 *
 * The indexes over the plain texts (migration 2026-11-22T1000-initial, book values 2026-11-22T1600),
 * kept for the build before 2026-11-23T1200-nfkc-search, are dropped. The indexes over the NFKC
 * texts stay for the previous build's replicas during a rolling upgrade; the planner no longer keeps
 * statistics of their expression, which this build's statements test on rows already read: a LIKE
 * on an expression with statistics is estimated by matching the pattern against each of its common
 * and histogram values, planning time spent on every search for nothing.
 */
const BOOK_COLUMNS = ['title', 'author', 'publisher'] as const;
const SWAP = sql`' ʬ', 'ʬ '`;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const col of BOOK_COLUMNS) {
    await phraseIndex(db, 'books', col);
    await sql`drop index if exists ${sql.id(`books_${col}_trgm`)}`.execute(db);
    await nfkcStatistics(db, `books_${col}_nfkc_trgm`, 0);
  }
  // book_values is rewritten in bulk by rebuilds: no pending list (2026-11-26T1000)
  await phraseIndex(db, 'book_values', 'value', sql`with (fastupdate = off)`);
  await sql`drop index if exists book_values_value_trgm`.execute(db);
  await nfkcStatistics(db, 'book_values_value_nfkc_trgm', 0);
  await sql`analyze books`.execute(db);
  await sql`analyze book_values`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const col of BOOK_COLUMNS) {
    await sql`drop index ${sql.id(`books_${col}_phrase_trgm`)}`.execute(db);
    await sql`create index ${sql.id(`books_${col}_trgm`)} on books using gin (${sql.id(col)} gin_trgm_ops)`.execute(
      db,
    );
    await nfkcStatistics(db, `books_${col}_nfkc_trgm`, -1);
  }
  await sql`drop index book_values_value_phrase_trgm`.execute(db);
  await sql`create index book_values_value_trgm on book_values using gin (value gin_trgm_ops)`.execute(db);
  await nfkcStatistics(db, 'book_values_value_nfkc_trgm', -1);
  await sql`analyze books`.execute(db);
  await sql`analyze book_values`.execute(db);
}

async function phraseIndex(db: Kysely<any>, table: string, col: string, options = sql``): Promise<void> {
  const text = sql`translate(coalesce(${sql.id(`${col}_nfkc`)}, ${sql.id(col)}), ${SWAP})`;
  await sql`create index ${sql.id(`${table}_${col}_phrase_trgm`)} on ${sql.id(table)}
    using gin ((${text}) gin_trgm_ops) ${options}`.execute(db);
}

/** The statistics target of an index's expression: 0 keeps none, -1 the default. */
async function nfkcStatistics(db: Kysely<any>, index: string, target: number): Promise<void> {
  await sql`alter index ${sql.id(index)} alter column 1 set statistics ${sql.lit(target)}`.execute(db);
}
