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

export interface BookCategoryRow {
  id: number;
  category_id: number;
}

/**
 * One page of every book's category, after `after` in (category_id, id) order: the order of the
 * covering index books_category_idx, so the wide book rows are never read.
 */
export async function bookCategoryPage(
  db: Kysely<Database>,
  after: BookCategoryRow | undefined,
  limit: number,
): Promise<BookCategoryRow[]> {
  return db
    .selectFrom('books')
    .select(['id', 'category_id'])
    .$if(after !== undefined, (q) =>
      q.where((eb) => eb(eb.refTuple('category_id', 'id'), '>', eb.tuple(after!.category_id, after!.id))),
    )
    .orderBy('category_id')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The category of each of these books that exists (a deleted one has none). */
export async function categoriesOfBooks(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('books')
    .select(['id', 'category_id'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.category_id]));
}
