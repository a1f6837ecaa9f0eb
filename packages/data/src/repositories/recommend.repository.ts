import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

/**
 * Ids of the newest books of each given category, at most `perCategory` each, through the
 * (category_id, id) index: the candidate pool of personalised recommendations, never a catalogue scan.
 */
export async function bookIdsInCategories(
  db: Kysely<Database>,
  categoryIds: readonly number[],
  perCategory: number,
): Promise<number[]> {
  const lists = await Promise.all(
    categoryIds.map((categoryId) =>
      db
        .selectFrom('books')
        .select('id')
        .where('category_id', '=', categoryId)
        .orderBy('id', 'desc')
        .limit(perCategory)
        .execute(),
    ),
  );
  return lists.flat().map((r) => r.id);
}
