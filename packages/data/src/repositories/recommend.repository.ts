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

/**
 * Books the user engaged with (viewed, rated 3 or more, shelved), once per engagement: the input of
 * userCategoryAffinity without its join, for a reader that knows every book's category in memory.
 */
export async function engagedBookIds(db: Kysely<Database>, userId: number): Promise<number[]> {
  const rows = await engagedBooks(db, userId).execute();
  return rows.map((r) => r.book_id);
}

export function engagedBooks(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('book_readers')
    .select('book_id')
    .where('user_id', '=', userId)
    .unionAll(db.selectFrom('ratings').select('book_id').where('user_id', '=', userId).where('rank', '>=', 3))
    .unionAll(db.selectFrom('shelf_entries').select('book_id').where('user_id', '=', userId));
}

/** One page of every book's category, in id order after `afterId` (keyset paging). */
export async function bookCategoryPage(
  db: Kysely<Database>,
  afterId: number,
  limit: number,
): Promise<Array<{ id: number; category_id: number }>> {
  return db
    .selectFrom('books')
    .select(['id', 'category_id'])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}
