import type { Kysely } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { Database } from '../database.js';

const NAME = 'catalog_version';
const FACETS = 'facet_version';
const PROFILES = 'profile_version';

/** Versions of the change log kept: a reader further behind than this forgets every book it kept. */
export const CATALOG_CHANGES_KEPT = 10_000;
const PRUNE_EVERY = 1_000;

/**
 * Moved in the transaction of every book insert, update and delete (admin API, CLI import, another
 * process): readers compare it with the version their catalogue caches were filled at, so a cached book
 * or category list never outlives a committed change, whichever process made it. The books the change
 * touched are logged under the new version, so readers forget only those (catalogChangesSince).
 */
export async function bumpCatalogVersion(trx: Kysely<Database>, bookIds: readonly number[]): Promise<void> {
  const version = await bumpCounter(trx, NAME);
  const ids = [...new Set(bookIds)];
  if (ids.length > 0) {
    await trx
      .insertInto('catalog_changes')
      .values(ids.map((book_id) => ({ version, book_id })))
      .execute();
  }
  if (version % PRUNE_EVERY === 0) {
    await trx
      .deleteFrom('catalog_changes')
      .where('version', '<=', version - CATALOG_CHANGES_KEPT)
      .execute();
  }
}

/**
 * The ids of the books changed by the versions after `from` up to `to`, or undefined when the log no
 * longer holds all of them (pruned, or written before the log existed): the caller forgets everything.
 * Versions after `to` committed meanwhile may add ids; forgetting more than needed is harmless.
 */
export async function catalogChangesSince(
  db: Kysely<Database>,
  from: number,
  to: number,
): Promise<number[] | undefined> {
  const rows = await db
    .selectFrom('catalog_changes')
    .select(['version', 'book_id'])
    .where('version', '>', from)
    .execute();
  const versions = new Set<number>();
  for (const r of rows) if (Number(r.version) <= to) versions.add(Number(r.version));
  if (versions.size < to - from) return undefined;
  return [...new Set(rows.map((r) => Number(r.book_id)))];
}

export async function catalogVersion(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('counters').select('value').where('name', '=', NAME).executeTakeFirst();
  return Number(row?.value ?? 0);
}

/**
 * Moved, in the transaction of a book write, when the write changed the author and publisher counts
 * (book_values): what readers keep of those counts (the most frequent values) belongs to this version.
 */
export async function bumpFacetVersion(trx: Kysely<Database>): Promise<void> {
  await bumpCounter(trx, FACETS);
}

/** Moved, in the transaction of a registration, when it changed a registered user's nickname or avatar. */
export async function bumpProfileVersion(trx: Kysely<Database>): Promise<void> {
  await bumpCounter(trx, PROFILES);
}

/** One more on a counter row; its new value. */
async function bumpCounter(trx: Kysely<Database>, name: string): Promise<number> {
  const { value } = await trx
    .updateTable('counters')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', name)
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(value);
}

// read by nearly every reader request: built once (compiledOnce). One scalar subquery per counter: on
// SQLite each is a primary-key lookup, where `name in (?, ?, ?)` (or the same with `or`) costs more.
const readCatalogState = compiledOnce((db) =>
  db.selectNoFrom((eb) => [
    eb.selectFrom('counters').select('value').where('name', '=', NAME).as('version'),
    eb.selectFrom('counters').select('value').where('name', '=', 'books').as('books'),
    eb.selectFrom('counters').select('value').where('name', '=', FACETS).as('facetVersion'),
    eb.selectFrom('counters').select('value').where('name', '=', PROFILES).as('profileVersion'),
  ]),
);

/**
 * The catalogue version, the number of books, the facet version and the profile version in one read.
 * insertBook and deleteBook move the first two in the same transaction, so the count is exact for the
 * version read with it: a reader keeping it with its catalogue memo draws random positions without
 * counting again.
 */
export async function catalogState(
  db: Kysely<Database>,
): Promise<{ version: number; books: number; facetVersion: number; profileVersion: number }> {
  const [row] = await readCatalogState(db);
  return {
    version: Number(row?.version ?? 0),
    books: Number(row?.books ?? 0),
    facetVersion: Number(row?.facetVersion ?? 0),
    profileVersion: Number(row?.profileVersion ?? 0),
  };
}
