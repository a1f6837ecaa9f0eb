import { type Kysely, sql } from 'kysely';
import { isPostgres } from './migration-helpers.js';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * PostgreSQL: what the planner needs to choose, per keyword, between walking books in id order (a
 * common substring fills a page within a few hundred books) and reading the matches from the
 * trigram or gram index (a rare one): estimates of how many books match.
 *
 * - Statistics target 1000 on the gram index expressions (1-2 character keywords). At the default
 *   (100) every gram absent from the 1,000 most common elements was estimated at 258 of 100k books,
 *   so the planner walked the whole table for a two-character name of none; with 10,000
 *   elements the estimate of an unlisted gram is 16 books and the index serves it. An array overlap
 *   is estimated by a binary search of that list, so planning costs the same. The trigram
 *   expressions keep the default: their histogram already tells a common substring (`the`: 20k
 *   estimated, 18k found) from a rare one (the floor, 10), and a `LIKE` is estimated by matching
 *   every histogram and common value, so a target of 1000 tripled the planning of a search.
 *   The tables are analyzed here so that plans change with the migration, not at the next automatic
 *   ANALYZE.
 * - No pending list on book_values' GIN indexes (fastupdate off). The table is small (one row per
 *   distinct author and publisher) and is rewritten in bulk by rebuilds: its entries sat in the
 *   pending list until a VACUUM, where every facet query read all of them in sequence, and the
 *   planner, costing that list, scanned the table instead.
 *   Books keep the pending list: their bulk imports gain from it, and autovacuum merges it.
 */
const GRAM_INDEXES = ['books_grams_gin', 'book_values_grams_gin'] as const;
const VALUE_INDEXES = ['book_values_value_nfkc_trgm', 'book_values_grams_gin'] as const;
const TARGET = 1000;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const index of GRAM_INDEXES)
    await sql`alter index ${sql.table(index)} alter column 1 set statistics ${sql.lit(TARGET)}`.execute(db);
  for (const index of VALUE_INDEXES) {
    await sql`alter index ${sql.table(index)} set (fastupdate = off)`.execute(db);
    // entries already pending move into the index proper
    await sql`select gin_clean_pending_list(${index}::regclass)`.execute(db);
  }
  await sql`analyze books`.execute(db);
  await sql`analyze book_values`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const index of GRAM_INDEXES)
    await sql`alter index ${sql.table(index)} alter column 1 set statistics -1`.execute(db);
  for (const index of VALUE_INDEXES)
    await sql`alter index ${sql.table(index)} reset (fastupdate)`.execute(db);
}
