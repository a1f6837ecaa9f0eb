import type { Kysely } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';
import { inTransaction } from '../write-batcher.js';
import { countBookRating } from './activity-stats.repository.js';

/**
 * A second rating by the same user replaces the first (unique user_id, book_id); the book's rating
 * count, sum and average follow in the same transaction. It starts with the insert so that SQLite takes
 * the write lock before the replaced rank is read (PostgreSQL locks that row).
 */
export async function saveRating(
  db: Kysely<Database>,
  userId: number,
  bookId: number,
  rank: number,
  now = Date.now(),
) {
  await inTransaction(db, async (trx) => {
    const inserted = await trx
      .insertInto('ratings')
      .values({ user_id: userId, book_id: bookId, rank, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'book_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
      await countBookRating(trx, bookId, rank);
      return;
    }
    let q = trx
      .selectFrom('ratings')
      .select('rank')
      .where('user_id', '=', userId)
      .where('book_id', '=', bookId);
    if (dialectOf(trx) === 'postgres') q = q.forUpdate();
    const previous = (await q.executeTakeFirstOrThrow()).rank;
    await trx
      .updateTable('ratings')
      .set({ rank, updated_at: now })
      .where('user_id', '=', userId)
      .where('book_id', '=', bookId)
      .execute();
    await countBookRating(trx, bookId, rank, previous);
  });
}

// every book detail with a registered reader: built once
const rankOf = compiledOnce((db, userId: number, bookId: number) =>
  db.selectFrom('ratings').select('rank').where('user_id', '=', userId).where('book_id', '=', bookId),
);

export async function userRank(db: Kysely<Database>, userId: number, bookId: number): Promise<number> {
  const [row] = await rankOf(db, userId, bookId);
  return row?.rank ?? 0;
}

export async function countRatings(db: Kysely<Database>, since?: number, until?: number): Promise<number> {
  let q = db.selectFrom('ratings').select((eb) => eb.fn.countAll<number>().as('n'));
  if (since !== undefined) q = q.where('created_at', '>=', since);
  if (until !== undefined) q = q.where('created_at', '<', until);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
