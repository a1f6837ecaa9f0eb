import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { analyze } from '../planner-statistics.js';
import { nfkcOrNull, valueGrams } from '../search/grams.js';
import { bumpFacetVersion } from './catalog-version.repository.js';

export type ValueField = 'author' | 'publisher';
const FIELDS: readonly ValueField[] = ['author', 'publisher'];

/** One more (+1) or one fewer (-1) book with this value; a value with no book left is removed. */
async function countValue(trx: Kysely<Database>, field: ValueField, value: string, delta: 1 | -1) {
  if (value === '') return;
  if (delta === 1) {
    await trx
      .insertInto('book_values')
      .values({ field, value, books: 1, grams: valueGrams(field, value), value_nfkc: nfkcOrNull(value) })
      .onConflict((oc) =>
        oc.columns(['field', 'value']).doUpdateSet((eb) => ({ books: eb('book_values.books', '+', 1) })),
      )
      .execute();
    return;
  }
  await trx
    .updateTable('book_values')
    .set((eb) => ({ books: eb('books', '-', 1) }))
    .where('field', '=', field)
    .where('value', '=', value)
    .execute();
  await trx
    .deleteFrom('book_values')
    .where('field', '=', field)
    .where('value', '=', value)
    .where('books', '<=', 0)
    .execute();
}

type Values = { author: string; publisher: string };

/**
 * Part of the transaction of a book insert (before undefined), update or delete (after undefined):
 * the facet counts follow the book's author and publisher, and the facet version moves when they do.
 */
export async function countBookValues(trx: Kysely<Database>, before?: Values, after?: Values) {
  const moves: Array<{ field: ValueField; value: string; delta: 1 | -1 }> = [];
  for (const field of FIELDS) {
    if (before?.[field] === after?.[field]) continue;
    if (before) moves.push({ field, value: before[field], delta: -1 });
    if (after) moves.push({ field, value: after[field], delta: 1 });
  }
  if (moves.length === 0) return;
  // rows in one order: two books trading authors in opposite directions cannot deadlock on PostgreSQL
  moves.sort(
    (a, b) => a.field.localeCompare(b.field) || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
  );
  for (const m of moves) await countValue(trx, m.field, m.value, m.delta);
  await bumpFacetVersion(trx);
}

/** Recomputes the table from the books (bulk loads that bypass insertBook: the benchmark seed). */
export async function rebuildBookValues(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('book_values').execute();
  for (const field of FIELDS) {
    const rows = await db
      .selectFrom('books')
      .select([`${field} as value`, (eb) => eb.fn.countAll<number>().as('n')])
      .where(field, '<>', '')
      .groupBy(field)
      .execute();
    for (let i = 0; i < rows.length; i += 500) {
      const batch = rows.slice(i, i + 500).map((r) => ({
        field,
        value: String(r.value),
        books: Number(r.n),
        grams: valueGrams(field, String(r.value)),
        value_nfkc: nfkcOrNull(String(r.value)),
      }));
      await db.insertInto('book_values').values(batch).execute();
    }
  }
  await analyze(db, 'book_values');
  await bumpFacetVersion(db);
}

/** How many values a field has (rows of book_values, read along book_values_popular_idx). */
export async function countValues(db: Kysely<Database>, field: ValueField): Promise<number> {
  const row = await db
    .selectFrom('book_values')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('field', '=', field)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The `limit` values of a field with the most books (after the first `offset`), most first and ties by
 * value: the order of the search facets (searchFacet) and of the OPDS author and publisher feeds, read
 * along book_values_popular_idx.
 */
export async function popularValues(
  db: Kysely<Database>,
  field: ValueField,
  limit: number,
  offset = 0,
): Promise<Array<{ value: string; n: number }>> {
  const rows = await db
    .selectFrom('book_values')
    .select(['value', 'books'])
    .where('field', '=', field)
    .orderBy('books', 'desc')
    .orderBy('value')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => ({ value: r.value, n: Number(r.books) }));
}
