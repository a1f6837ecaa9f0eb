import type { Kysely } from 'kysely';
import type { Category, Database } from '../database.js';

export async function findCategoryById(db: Kysely<Database>, id: number): Promise<Category | undefined> {
  return db.selectFrom('categories').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findCategoryByName(db: Kysely<Database>, name: string): Promise<Category | undefined> {
  return db.selectFrom('categories').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Finds the category of that name or creates it (a conflict from a concurrent create is read back). */
export async function ensureCategory(db: Kysely<Database>, name: string): Promise<Category> {
  await db
    .insertInto('categories')
    .values({ name, created_at: Date.now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (await findCategoryByName(db, name))!;
}

export async function listCategories(db: Kysely<Database>): Promise<Category[]> {
  return db.selectFrom('categories').selectAll().orderBy('id').execute();
}

export interface CategoryCount {
  id: number;
  name: string;
  num: number;
}

/** Categories with their number of books (0 included), as a query callers narrow and order. */
export function selectCategoryCounts(db: Kysely<Database>) {
  return db
    .selectFrom('categories')
    .select(['categories.id as id', 'categories.name as name', 'categories.book_count as num']);
}

/**
 * Part of the transaction of a book insert (before undefined), update or delete (after undefined): the
 * count of the category the book leaves and of the one it joins. Rows are updated in id order, so two
 * books moving between the same categories in opposite directions cannot deadlock on PostgreSQL.
 */
export async function countCategoryBooks(
  trx: Kysely<Database>,
  before?: { category_id: number },
  after?: { category_id: number },
): Promise<void> {
  if (before?.category_id === after?.category_id) return;
  const moves = [
    ...(before ? [{ id: before.category_id, by: -1 }] : []),
    ...(after ? [{ id: after.category_id, by: 1 }] : []),
  ].sort((a, b) => a.id - b.id);
  for (const { id, by } of moves) {
    await trx
      .updateTable('categories')
      .set((eb) => ({ book_count: eb('book_count', '+', by) }))
      .where('id', '=', id)
      .execute();
  }
}

/** Recounts every category from the books (bulk loads that bypass insertBook: the benchmark seed). */
export async function rebuildCategoryCounts(db: Kysely<Database>): Promise<void> {
  await db
    .updateTable('categories')
    .set((eb) => ({
      book_count: eb
        .selectFrom('books')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('books.category_id', '=', 'categories.id'),
    }))
    .execute();
}

/** Every category with its number of books (0 included); callers drop the empty ones where needed. */
export async function categoryCounts(db: Kysely<Database>): Promise<CategoryCount[]> {
  const rows = await selectCategoryCounts(db).orderBy('categories.id').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, num: Number(r.num) }));
}

/**
 * Up to `perCategory` cover paths for each category, newest books first: one short walk of the
 * (category_id, id) index per category instead of ranking the whole catalogue.
 */
export async function categoryCovers(db: Kysely<Database>, perCategory = 2): Promise<Map<number, string[]>> {
  const categories = await db.selectFrom('categories').select('id').orderBy('id').execute();
  const lists = await Promise.all(
    categories.map((c) =>
      db
        .selectFrom('books')
        .select('cover_path')
        .where('category_id', '=', c.id)
        .where('cover_path', '<>', '')
        .orderBy('id', 'desc')
        .limit(perCategory)
        .execute(),
    ),
  );
  const out = new Map<number, string[]>();
  categories.forEach((c, i) => {
    const list = lists[i]!.map((r) => r.cover_path);
    if (list.length > 0) out.set(c.id, list);
  });
  return out;
}
