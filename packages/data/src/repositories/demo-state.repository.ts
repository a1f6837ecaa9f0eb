import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

const NAME = 'demo_catalogue';

/**
 * Where the demo catalogue stands: 'never' (no row: this database has not decided), 'loading' (a first
 * start began loading it) or 'done' (loaded, or the catalogue had books of its own). A row of the
 * counters table, so no migration is needed. Loading the demo whenever the catalogue is empty would bring
 * it back after an operator deleted every book, and a first start stopped midway would stay partial
 * for good.
 */
export type DemoState = 'never' | 'loading' | 'done';

export async function demoState(db: Kysely<Database>): Promise<DemoState> {
  const row = await db.selectFrom('counters').select('value').where('name', '=', NAME).executeTakeFirst();
  if (row === undefined) return 'never';
  return Number(row.value) === 1 ? 'done' : 'loading';
}

export async function setDemoState(db: Kysely<Database>, state: 'loading' | 'done'): Promise<void> {
  const value = state === 'done' ? 1 : 0;
  await db
    .insertInto('counters')
    .values({ name: NAME, value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute();
}
