import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

const NAME = 'catalog_version';

/**
 * Moved in the transaction of every book insert, update and delete (admin API, CLI import, another
 * process): readers compare it with the version their catalogue caches were filled at, so a cached book
 * or category list never outlives a committed change, whichever process made it.
 */
export async function bumpCatalogVersion(trx: Kysely<Database>): Promise<void> {
  await trx
    .updateTable('counters')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', NAME)
    .execute();
}

export async function catalogVersion(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('counters').select('value').where('name', '=', NAME).executeTakeFirst();
  return Number(row?.value ?? 0);
}

/**
 * The catalogue version and the number of books in one read. insertBook and deleteBook move both in
 * the same transaction, so the count is exact for the version read with it: a reader keeping it with
 * its catalogue memo draws random positions without counting again.
 */
export async function catalogState(db: Kysely<Database>): Promise<{ version: number; books: number }> {
  const rows = await db
    .selectFrom('counters')
    .select(['name', 'value'])
    .where('name', 'in', [NAME, 'books'])
    .execute();
  const value = (name: string) => Number(rows.find((r) => r.name === name)?.value ?? 0);
  return { version: value(NAME), books: value('books') };
}
