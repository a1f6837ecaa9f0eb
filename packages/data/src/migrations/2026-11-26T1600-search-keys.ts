import { type Kysely, sql } from 'kysely';
import { isPostgres } from './migration-helpers.js';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * PostgreSQL: each searched text stored as its index reads it, in lower case: a generated column
 * `<col>_key` = lower(the NFKC text where it differs, with its spaces swapped with `ʬ`), with a trigram
 * index of its own. `pg_trgm` cannot tell a match from its trigrams, so every candidate row is tested
 * again; over the expression indexes of 2026-11-26T1400-phrase-trigrams each test computed the swap
 * and an ILIKE, which lower-cases both texts at every row. On the stored key the test is a LIKE
 * against the keyword lowered once: the same rows (PostgreSQL's ILIKE on UTF-8 is LIKE over both
 * texts lowered), a third of the time.
 *
 * The expression indexes of the phrase build stay for its replicas during a rolling upgrade; those
 * over the NFKC texts, two builds old, are dropped. The keys keep no statistics: this build's
 * statements hide their keywords from the planner (a LIKE on a column with statistics is estimated by
 * matching the pattern against its common and histogram values, planning spent for nothing).
 */
const BOOK_COLUMNS = ['title', 'author', 'publisher'] as const;
const SWAP = sql`' ʬ', 'ʬ '`;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  // one rewrite of the table for the three columns
  await sql`alter table books ${sql.join(
    BOOK_COLUMNS.map(
      (col) => sql`add column ${sql.id(`${col}_key`)} text generated always as (${key(col)}) stored`,
    ),
  )}`.execute(db);
  await sql`alter table book_values add column value_key text generated always as (${key('value')}) stored`.execute(
    db,
  );
  for (const col of BOOK_COLUMNS) {
    await keyIndex(db, 'books', col);
    await sql`drop index if exists ${sql.id(`books_${col}_nfkc_trgm`)}`.execute(db);
  }
  // book_values is rewritten in bulk by rebuilds: no pending list (2026-11-26T1000)
  await keyIndex(db, 'book_values', 'value', sql`with (fastupdate = off)`);
  await sql`drop index if exists book_values_value_nfkc_trgm`.execute(db);
  await sql`analyze books`.execute(db);
  await sql`analyze book_values`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const col of BOOK_COLUMNS) {
    await sql`alter table books drop column ${sql.id(`${col}_key`)}`.execute(db);
    await nfkcIndex(db, 'books', col);
  }
  await sql`alter table book_values drop column value_key`.execute(db);
  await nfkcIndex(db, 'book_values', 'value', sql`with (fastupdate = off)`);
  await sql`analyze books`.execute(db);
  await sql`analyze book_values`.execute(db);
}

function key(col: string) {
  return sql`lower(translate(coalesce(${sql.id(`${col}_nfkc`)}, ${sql.id(col)}), ${SWAP}))`;
}

async function keyIndex(db: Kysely<any>, table: string, col: string, options = sql``): Promise<void> {
  await sql`alter table ${sql.id(table)} alter column ${sql.id(`${col}_key`)} set statistics 0`.execute(db);
  await sql`create index ${sql.id(`${table}_${col}_key_trgm`)} on ${sql.id(table)}
    using gin (${sql.id(`${col}_key`)} gin_trgm_ops) ${options}`.execute(db);
}

/** The index over the NFKC text as 2026-11-26T1400 left it: no statistics of its expression. */
async function nfkcIndex(db: Kysely<any>, table: string, col: string, options = sql``): Promise<void> {
  const name = `${table}_${col}_nfkc_trgm`;
  await sql`create index ${sql.id(name)} on ${sql.id(table)}
    using gin ((coalesce(${sql.id(`${col}_nfkc`)}, ${sql.id(col)})) gin_trgm_ops) ${options}`.execute(db);
  await sql`alter index ${sql.id(name)} alter column 1 set statistics 0`.execute(db);
}
